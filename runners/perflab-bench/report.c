// SPDX-License-Identifier: MIT
/*
 * Output of a run: console lines and the version 1 JSON document.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "jw.h"
#include "profile.h"
#include "report.h"
#include "stats.h"
#include "worker.h"

void report_print_header(FILE *f, const struct bench_opts *o,
			 const struct target *t, unsigned int flags)
{
	const char *names[8];
	unsigned int i, n = worker_flag_names(flags, names, 8);

	fprintf(f,
		"perflab-bench: %s%s%s%s, threads=%u, QD=%u, bs=%u, polled=%d, "
		"fixedbufs=%d, regfiles=%d, random=%d, ring flags:",
		o->target, t->name[0] ? " (" : "", t->name, t->name[0] ? ")" : "",
		o->threads, o->depth, o->bs, o->polled, o->fixedbufs,
		o->regfiles, o->random);
	for (i = 0; i < n; i++)
		fprintf(f, " %s", names[i]);
	fputc('\n', f);
	fflush(f);
}

void report_print_second(FILE *f, const struct sample *s,
			 const uint64_t *inflight, unsigned int nthreads)
{
	long long rpc = -1, ipc = -1;
	unsigned int i;

	if (s->calls) {
		rpc = (long long)(s->submitted / s->calls);
		ipc = (long long)(s->reaped / s->calls);
	}
	fprintf(f, "IOPS=%" PRIu64 ", IOS/call=%lld/%lld, inflight=(", s->iops,
		rpc, ipc);
	for (i = 0; i < nthreads; i++)
		fprintf(f, "%s%" PRIu64, i ? " " : "", inflight[i]);
	fputs(")\n", f);
	fflush(f);
}

void report_summarise(struct bench_result *r)
{
	struct summary *s = &r->sum;
	unsigned int w = r->o->warmup, n = 0, i;
	uint64_t *v;

	s->warmup = w;
	s->seconds = 0;
	s->mean = s->median = s->stddev = 0;
	if (r->nsamples <= w)
		return;
	v = malloc((r->nsamples - w) * sizeof(*v));
	if (!v)
		return;
	for (i = w; i < r->nsamples; i++)
		v[n++] = r->samples[i].iops;
	s->seconds = n;
	s->mean = stats_mean(v, n);
	s->median = stats_median(v, n);
	s->stddev = stats_stddev(v, n);
	free(v);
}

void report_print_summary(FILE *f, const struct bench_result *r)
{
	const struct summary *s = &r->sum;

	fprintf(f,
		"Summary: IOPS mean=%.1f, median=%.1f, stddev=%.1f over %u s "
		"(warm-up %u s dropped); CPU/IO user=%.1f ns, sys=%.1f ns",
		s->mean, s->median, s->stddev, s->seconds, s->warmup,
		s->user_ns_per_io, s->sys_ns_per_io);
	if (s->ios_measured)
		fprintf(f, "; ns/IO=%.6f over %" PRIu64 " IOs", s->ns_per_io,
			s->ios_measured);
	if (s->eagain)
		fprintf(f, "; EAGAIN completions=%" PRIu64, s->eagain);
	fputc('\n', f);
	fflush(f);
}

static void json_params(struct jw *j, const struct bench_opts *o)
{
	jw_key(j, "params");
	jw_obj_open(j);
	jw_key(j, "target");
	jw_str(j, o->target);
	jw_key(j, "depth");
	jw_u64(j, o->depth);
	jw_key(j, "submit_batch");
	jw_u64(j, o->submit_batch);
	jw_key(j, "complete_batch");
	jw_u64(j, o->complete_batch);
	jw_key(j, "bs");
	jw_u64(j, o->bs);
	jw_key(j, "polled");
	jw_bool(j, o->polled);
	jw_key(j, "fixedbufs");
	jw_bool(j, o->fixedbufs);
	jw_key(j, "regfiles");
	jw_bool(j, o->regfiles);
	jw_key(j, "random");
	jw_bool(j, o->random);
	jw_key(j, "threads");
	jw_u64(j, o->threads);
	jw_key(j, "runtime");
	jw_u64(j, o->runtime);
	jw_key(j, "warmup");
	jw_u64(j, o->warmup);
	jw_key(j, "seed");
	jw_u64(j, o->seed);
	jw_key(j, "ios");
	jw_u64(j, o->ios);
	jw_key(j, "profile");
	jw_bool(j, o->profile);
	jw_obj_close(j);
}

static void json_device(struct jw *j, const struct target *t)
{
	jw_key(j, "device");
	jw_obj_open(j);
	jw_key(j, "name");
	jw_str(j, t->name);
	jw_key(j, "type");
	jw_str(j, t->is_block ? "block" : "file");
	jw_key(j, "model");
	jw_str(j, t->model);
	jw_key(j, "firmware");
	jw_str(j, t->firmware);
	jw_key(j, "logical_block_size");
	jw_u64(j, t->lbs);
	jw_key(j, "io_poll");
	jw_i64(j, t->io_poll);
	jw_key(j, "scheduler");
	jw_str(j, t->scheduler);
	jw_key(j, "nr_requests");
	jw_u64(j, t->nr_requests);
	jw_key(j, "size_bytes");
	jw_u64(j, t->size);
	jw_obj_close(j);
}

static void json_samples(struct jw *j, const struct bench_result *r)
{
	unsigned int i;

	jw_key(j, "samples");
	jw_arr_open(j);
	for (i = 0; i < r->nsamples; i++) {
		const struct sample *s = &r->samples[i];
		double c = s->calls ? (double)s->calls : 0;

		jw_nl(j);
		jw_obj_open(j);
		jw_key(j, "t");
		jw_u64(j, i + 1);
		jw_key(j, "iops");
		jw_u64(j, s->iops);
		jw_key(j, "ios_per_submit");
		jw_double(j, c ? s->submitted / c : 0, 2);
		jw_key(j, "ios_per_reap");
		jw_double(j, c ? s->reaped / c : 0, 2);
		jw_key(j, "inflight");
		jw_u64(j, s->inflight);
		jw_obj_close(j);
	}
	jw_arr_close(j);
}

static void json_summary(struct jw *j, const struct summary *s)
{
	jw_key(j, "summary");
	jw_obj_open(j);
	jw_key(j, "warmup");
	jw_u64(j, s->warmup);
	jw_key(j, "seconds");
	jw_u64(j, s->seconds);
	jw_key(j, "mean");
	jw_double(j, s->mean, 1);
	jw_key(j, "median");
	jw_double(j, s->median, 1);
	jw_key(j, "stddev");
	jw_double(j, s->stddev, 1);
	jw_key(j, "total_ios");
	jw_u64(j, s->total_ios);
	jw_key(j, "ns_per_io");
	jw_double(j, s->ns_per_io, 6);
	jw_key(j, "ios_measured");
	jw_u64(j, s->ios_measured);
	jw_key(j, "window_ios");
	jw_u64(j, s->window_ios);
	jw_key(j, "eagain");
	jw_u64(j, s->eagain);
	jw_obj_close(j);
	jw_nl(j);
	jw_key(j, "cpu");
	jw_obj_open(j);
	jw_key(j, "user_ns_per_io");
	jw_double(j, s->user_ns_per_io, 1);
	jw_key(j, "sys_ns_per_io");
	jw_double(j, s->sys_ns_per_io, 1);
	jw_key(j, "scope");
	jw_str(j, "bench threads, measured window");
	jw_obj_close(j);
}

static void json_doc(struct jw *j, const struct bench_result *r)
{
	const char *names[8];
	unsigned int i, n = worker_flag_names(r->flags, names, 8);

	jw_obj_open(j);
	jw_key(j, "version");
	jw_u64(j, 1);
	jw_key(j, "tool");
	jw_str(j, "perflab-bench");
	jw_nl(j);
	json_params(j, r->o);
	jw_nl(j);
	jw_key(j, "ring_flags");
	jw_arr_open(j);
	for (i = 0; i < n; i++)
		jw_str(j, names[i]);
	jw_arr_close(j);
	jw_key(j, "kernel");
	jw_str(j, r->kernel);
	jw_nl(j);
	json_device(j, r->t);
	jw_nl(j);
	json_samples(j, r);
	jw_nl(j);
	json_summary(j, &r->sum);
	if (r->prof) {
		jw_nl(j);
		jw_key(j, "profile");
		profile_write_json(r->prof, j);
	}
	jw_obj_close(j);
	fputc('\n', j->f);
}

int report_write_json(const struct bench_result *r, const char *path,
		      char *err, size_t len)
{
	struct jw j;
	FILE *f = fopen(path, "we");

	if (!f) {
		snprintf(err, len, "%s: %s", path, strerror(errno));
		return -1;
	}
	jw_init(&j, f);
	json_doc(&j, r);
	if (ferror(f) | fclose(f)) {
		snprintf(err, len, "%s: write failed", path);
		return -1;
	}
	return 0;
}
