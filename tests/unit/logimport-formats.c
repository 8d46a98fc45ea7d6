// SPDX-License-Identifier: MIT
/*
 * Description: log import reads the old and new t/io_uring line forms
 * (K/M suffixes), splits runs at other lines, skips "Maximum IOPS=",
 * reads perflab-bench JSON (warm-up, ns/IO, CPU, profile) and fio JSON
 * (one document: a run value without seconds; --status-interval
 * snapshots: per-interval IOPS), and rejects input it cannot read;
 * comparing one fio run per side is refused with the reason, two per
 * side are compared run against run.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "daemon/analysis/compare.h"
#include "daemon/analysis/logimport.h"
#include "unit/check.h"

static int parse(const char *s, int warmup, struct li_log *l, char *err)
{
	return logimport_parse(s, strlen(s), warmup, l, err, 200);
}

int main(void)
{
	static const char newform[] =
		"submitter=0, tid=1234, file=/dev/nvme0n1, node=-1\n"
		"polled=1, fixedbufs=1, register_files=1, buffered=0, QD=128\n"
		"Engine=io_uring, sq_ring=128, cq_ring=128\n"
		"IOPS=3.54M, BW=1728MiB/s, IOS/call=32/31\n"
		"IOPS=3.53M, BW=1724MiB/s, IOS/call=32/32\n"
		"IOPS=86.40K, BW=42MiB/s, IOS/call=32/31\n"
		"Exiting on timeout\n"
		"Maximum IOPS=3.54M\n"
		"second run:\n"
		"> IOPS=3536512, IOS/call=32/31, inflight=(75)\n"
		"> IOPS=3541888, IOS/call=32/32, inflight=(64)\n";
	static const char bench[] =
		"{\"version\":1,\"tool\":\"perflab-bench\",\"params\":{},"
		"\"samples\":[{\"t\":1,\"iops\":1000},{\"t\":2,\"iops\":2000},{\"t\":3,\"iops\":2002}],"
		"\"summary\":{\"warmup\":1,\"ns_per_io\":4264.39},"
		"\"cpu\":{\"user_ns_per_io\":120.5,\"sys_ns_per_io\":3900.25},"
		"\"profile\":{\"event\":\"cpu-clock\",\"total\":200,\"lost\":0,"
		"\"symbols\":[{\"dso\":\"[kernel.kallsyms]\",\"sym\":\"blk_mq_get_tag\",\"samples\":50}]}}";
	static const char fio1[] =
		"{\"fio version\":\"fio-3.33\",\"timestamp_ms\":1000,\"jobs\":["
		"{\"jobname\":\"a\",\"read\":{\"iops\":1500.5,\"total_ios\":15005},\"write\":{\"iops\":0,\"total_ios\":0}},"
		"{\"jobname\":\"b\",\"read\":{\"iops\":499.5,\"total_ios\":4995},\"write\":{\"iops\":0,\"total_ios\":0}}]}";
	static const char fio_status[] =
		"{\"fio version\":\"fio-3.33\",\"timestamp_ms\":1000,\"jobs\":[{\"read\":{\"iops\":0,\"total_ios\":0}}]}\n"
		"{\"fio version\":\"fio-3.33\",\"timestamp_ms\":2000,\"jobs\":[{\"read\":{\"iops\":900,\"total_ios\":900}}]}\n"
		"{\"fio version\":\"fio-3.33\",\"timestamp_ms\":3000,\"jobs\":[{\"read\":{\"iops\":950,\"total_ios\":1900}}]}\n";
	struct li_log l;
	struct verdict_run vr;
	char err[200];
	double v;

	CHECK(parse(newform, 1, &l, err) == 0, "new form: %s", err);
	CHECK(l.format == LI_TEXT && l.nruns == 2, "runs %zu", l.nruns);
	if (l.nruns == 2) {
		CHECK(l.runs[0].n == 3 && l.runs[0].iops[0] == 3.54e6 &&
			      l.runs[0].iops[2] == 86400,
		      "run 0: n %zu first %g third %g", l.runs[0].n,
		      l.runs[0].iops[0], l.runs[0].iops[2]);
		CHECK(l.runs[1].n == 2 && l.runs[1].iops[1] == 3541888,
		      "run 1 n %zu", l.runs[1].n);
		CHECK(!strcmp(l.runs[1].label, "second run"), "label '%s'",
		      l.runs[1].label);
		CHECK(l.runs[0].warmup == 1, "warmup");
		logimport_verdict_run(&l.runs[0], &vr);
		CHECK(fabs(verdict_run_mean(&vr) - (3.53e6 + 86400) / 2) < 1e-6,
		      "mean after warm-up %g", verdict_run_mean(&vr));
	}
	logimport_free(&l);

	CHECK(parse(bench, 0, &l, err) == 0, "bench: %s", err);
	CHECK(l.format == LI_BENCH_JSON && l.nruns == 1 && l.runs[0].n == 3 &&
		      l.runs[0].warmup == 1 && l.runs[0].ns_per_io == 4264.39 &&
		      fabs(l.runs[0].cpu_ns_per_io - 4020.75) < 1e-9 &&
		      l.runs[0].nsyms == 1 && l.runs[0].prof_total == 200,
	      "bench fields");
	logimport_free(&l);

	CHECK(parse(fio1, 0, &l, err) == 0, "fio: %s", err);
	CHECK(l.format == LI_FIO_JSON && l.nruns == 1 && l.runs[0].n == 0 &&
		      l.runs[0].mean == 2000, "fio single: n %zu mean %g",
	      l.nruns ? l.runs[0].n : 0, l.nruns ? l.runs[0].mean : 0);
	logimport_free(&l);

	CHECK(parse(fio_status, 0, &l, err) == 0, "fio status: %s", err);
	CHECK(l.nruns == 1 && l.runs[0].n == 2 && l.runs[0].iops[0] == 900 &&
		      l.runs[0].iops[1] == 1000, "fio status samples");
	logimport_free(&l);

	CHECK(logimport_iops_value("3.54M", &v, NULL) == 0 && v == 3.54e6, "M");
	CHECK(logimport_iops_value("12x", &v, NULL) < 0, "garbage accepted");
	CHECK(parse("hello\nworld\n", 0, &l, err) < 0 && strstr(err, "no IOPS"),
	      "text without IOPS: %s", err);
	CHECK(parse("{\"a\":1}", 0, &l, err) < 0, "unknown JSON accepted");
	CHECK(parse("{\"samples\": [", 0, &l, err) < 0 && strstr(err, "JSON"),
	      "broken JSON: %s", err);
	CHECK(parse("IOPS=abc\n", 0, &l, err) < 0, "bad value accepted");
	CHECK(parse("   \n", 0, &l, err) < 0, "empty accepted");
	/* fio: one run a side has nothing to compare; two a side do. */
	{
		static const char fa[] = "{\"fio version\":\"fio-3.33\",\"jobs\":[{\"read\":{\"iops\":1000}}]}";
		static const char fb[] = "{\"fio version\":\"fio-3.33\",\"jobs\":[{\"read\":{\"iops\":1010}}]}";
		struct compare_log logs[4] = {
			{ "a", fa, sizeof(fa) - 1 }, { "b", fb, sizeof(fb) - 1 },
			{ "a", fa, sizeof(fa) - 1 }, { "b", fb, sizeof(fb) - 1 },
		};
		struct verdict_opts o;
		json_t *out;

		verdict_opts_default(&o);
		out = compare_logs(logs, 2, 0, &o, err, sizeof(err));
		CHECK(!out && strstr(err, "fio"), "fio 1 vs 1: %s", out ? "accepted" : err);
		json_decref(out);
		out = compare_logs(logs, 4, 0, &o, err, sizeof(err));
		CHECK(out && json_integer_value(json_object_get(json_array_get(
			      json_object_get(out, "comparisons"), 0), "n_control")) == 2,
		      "fio 2 vs 2: %s", out ? "wrong n" : err);
		json_decref(out);
	}
	if (fails)
		return 1;
	printf("logimport formats ok\n");
	return 0;
}
