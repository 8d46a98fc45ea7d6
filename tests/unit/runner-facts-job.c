// SPDX-License-Identifier: MIT
/*
 * Description: host facts come from /proc and sysfs (CPU model and count,
 * memory, kernel, the target NVMe's model/firmware, io_poll), and a
 * claimed job in the contracts.md shape parses, while jobs missing their
 * lease, variant or bench, or with a hostile config name, are refused.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runners/runner/facts.h"
#include "runners/runner/job.h"
#include "runners/runner/rutil.h"
#include "unit/check.h"

static char root[] = "/tmp/perflab-facts-XXXXXX";

static const char *s(json_t *f, const char *k)
{
	const char *v = json_string_value(json_object_get(f, k));

	return v ? v : "(null)";
}

static const char job[] =
	"{\"job_id\": 7, \"lease\": \"abc\", \"lease_seconds\": 60,"
	" \"lease_expires\": 1764450000, \"attempt\": 1, \"experiment_id\": 3,"
	" \"run_index\": 0, \"seq\": 0, \"backend\": \"qemu-icount\","
	" \"label\": \"qemu-icount\", \"base\": {\"name\": \"linux-6.1\","
	" \"tree\": \"debian-linux-source-6.1\", \"ref\": \"\"},"
	" \"config\": \"qemu\", \"variant\": {\"id\": 11, \"name\": \"tag\","
	" \"is_control\": false, \"patches\": [{\"id\": 5, \"sha256\": \"..\","
	" \"subject\": \"s\", \"raw\": \"diff --git a/x b/x\"}],"
	" \"cmdline\": \"perflab_canary=4\", \"setup\": \"\"},"
	" \"bench\": {\"depth\":128,\"runtime\":5,\"warmup\":1,"
	" \"target\":\"nullb\"}}";

int main(void)
{
	char err[256];
	struct job j;
	json_t *f;

	fixture_root = root;	/* mkdtemp fills it in place */
	if (!mkdtemp(root))
		return 1;
	put("proc/cpuinfo", "processor\t: 0\nmodel name\t: AMD EPYC 7B13\n\n"
	    "processor\t: 1\nmodel name\t: AMD EPYC 7B13\n");
	put("proc/meminfo", "MemTotal:       24000000 kB\nMemFree: 1 kB\n");
	put("proc/sys/kernel/osrelease", "6.1.0-13-amd64\n");
	put("sys/block/nvme0n1/device/model", "Samsung SSD 980 PRO 1TB\n");
	put("sys/block/nvme0n1/device/firmware_rev", "5B2QGXA7\n");
	put("sys/block/nvme0n1/queue/io_poll", "1\n");
	f = facts_collect(root, "kexec", "/dev/nvme0n1", -1);
	CHECK(!strcmp(s(f, "cpu_model"), "AMD EPYC 7B13"));
	CHECK(json_integer_value(json_object_get(f, "cpus")) == 2);
	CHECK(json_integer_value(json_object_get(f, "mem_bytes")) ==
	      24000000LL * 1024);
	CHECK(!strcmp(s(f, "kernel"), "6.1.0-13-amd64"));
	CHECK(!strcmp(s(f, "nvme_model"), "Samsung SSD 980 PRO 1TB"));
	CHECK(!strcmp(s(f, "nvme_firmware"), "5B2QGXA7"));
	CHECK(json_is_true(json_object_get(f, "poll_ok")));
	CHECK(!strcmp(s(f, "backend"), "kexec"));
	json_decref(f);
	put("sys/block/nvme0n1/queue/io_poll", "0\n");
	f = facts_collect(root, "local", "/dev/nvme0n1", -1);
	CHECK(json_is_false(json_object_get(f, "poll_ok")));
	json_decref(f);
	f = facts_collect(root, "local", "/tmp/file", -1);	/* not a bdev */
	CHECK(json_is_false(json_object_get(f, "poll_ok")));
	CHECK(!strcmp(s(f, "nvme_model"), ""));
	json_decref(f);

	CHECK(job_parse(job, &j, err, sizeof(err)) == 0);
	CHECK(j.id == 7 && !strcmp(j.lease, "abc") && j.lease_seconds == 60);
	CHECK(j.experiment_id == 3 && !strcmp(j.variant, "tag"));
	CHECK(j.npatches == 1 && !strcmp(j.patches[0].raw,
					 "diff --git a/x b/x"));
	CHECK(!strcmp(j.cmdline, "perflab_canary=4"));
	CHECK(!strcmp(j.config, "qemu") && !strcmp(j.target, "nullb"));
	CHECK(!strcmp(j.base_name, "linux-6.1"));
	job_free(&j);
	CHECK(job_parse("{\"job_id\":1}", &j, err, sizeof(err)) == -1);
	CHECK(strstr(err, "lease"));
	CHECK(job_parse("{\"job_id\":1,\"lease\":\"x\",\"bench\":{}}", &j, err,
			sizeof(err)) == -1);
	CHECK(strstr(err, "variant"));
	CHECK(job_parse("{\"job_id\":1,\"lease\":\"x\",\"variant\":{},"
			"\"config\":\"../../etc/x\",\"bench\":{}}", &j, err,
			sizeof(err)) == -1);
	CHECK(strstr(err, "config"));
	CHECK(job_parse("not json", &j, err, sizeof(err)) == -1);
	rutil_rm_rf(root);
	DONE();
}
