// SPDX-License-Identifier: MIT
/*
 * Description: the qemu and qemu-icount command lines: icount tier uses
 * TCG, -icount shift=0,sleep=off and one vCPU; no network; null_blk or
 * NVMe poll queues on the kernel command line; bench flags from the job
 * validated and comma-joined; hostile variant cmdlines refused; the
 * perflab-insn plugin with its out= file when set (and cache=on with the
 * bench's "cache"), and the sampled -P
 * dropped from the flags (the exact profile replaces it on qemu-icount).
 */
#include <stdlib.h>
#include <string.h>

#include "common/benchargs.h"
#include "runners/runner/qemu.h"
#include "unit/check.h"

static int has_pair(char **v, const char *a, const char *b)
{
	for (int i = 0; v[i] && v[i + 1]; i++)
		if (!strcmp(v[i], a) && (!b || !strcmp(v[i + 1], b)))
			return 1;
	return 0;
}

static const char *after(char **v, const char *a)
{
	for (int i = 0; v[i] && v[i + 1]; i++)
		if (!strcmp(v[i], a))
			return v[i + 1];
	return "";
}

int main(void)
{
	struct qemu_spec s = { .kernel = "/k/bzImage", .initrd = "/k/i.cpio",
			       .target = "nullb", .nvme_img = "/k/nvme.img",
			       .bench_args = "-d,128,-r,3", .extra =
			       "perflab_canary=4", .console = "/k/con.log",
			       .icount = 1, .kvm = 1, .smp = 4 };
	struct benchargs ba;
	char err[256], *j, **v;
	json_t *b;

	v = qemu_argv(&s);
	CHECK(v != NULL);
	CHECK(has_pair(v, "-icount", "shift=0,sleep=off"));
	CHECK(has_pair(v, "-smp", "1"));	/* icount forces one vCPU */
	CHECK(has_pair(v, "-accel", "tcg"));	/* and TCG, never KVM */
	CHECK(has_pair(v, "-nic", "none"));
	CHECK(has_pair(v, "-no-reboot", NULL));
	CHECK(has_pair(v, "-kernel", "/k/bzImage"));
	CHECK(has_pair(v, "-initrd", "/k/i.cpio"));
	CHECK(has_pair(v, "-chardev", "file,id=con,path=/k/con.log"));
	CHECK(!has_pair(v, "-device", NULL));
	j = (char *)after(v, "-append");
	CHECK(strstr(j, "console=ttyS0"));
	CHECK(strstr(j, " noapictimer "));	/* icount: no APIC calibration */
	CHECK(strstr(j, "null_blk.queue_mode=2 null_blk.irqmode=0 "
		      "null_blk.poll_queues=1"));
	/* deeper than QD128, or half the IOs would wait for tags */
	CHECK(strstr(j, " null_blk.hw_queue_depth=1024 "));
	CHECK(strstr(j, "perflab_target=nullb"));
	CHECK(strstr(j, "perflab_bench=-d,128,-r,3"));
	CHECK(strstr(j, " perflab_canary=4"));
	CHECK(!has_pair(v, "-plugin", NULL));
	qemu_argv_free(v);
	s.plugin = "/b/perflab-insn.so";
	s.plugin_out = "/w/insn-1.prof";
	v = qemu_argv(&s);
	CHECK(has_pair(v, "-plugin", "/b/perflab-insn.so,out=/w/insn-1.prof"));
	qemu_argv_free(v);
	s.plugin_cache = 1;	/* bench "cache": true */
	v = qemu_argv(&s);
	CHECK(has_pair(v, "-plugin",
		       "/b/perflab-insn.so,out=/w/insn-1.prof,cache=on"));
	s.plugin_cache = 0;
	qemu_argv_free(v);
	s.plugin = s.plugin_out = NULL;

	s.icount = 0;
	s.target = "nvme";
	v = qemu_argv(&s);
	CHECK(!has_pair(v, "-icount", NULL));
	CHECK(has_pair(v, "-accel", "kvm") && has_pair(v, "-cpu", "host"));
	CHECK(has_pair(v, "-smp", "4"));
	CHECK(has_pair(v, "-device", "nvme,serial=perflab0,drive=nvm"));
	CHECK(has_pair(v, "-drive", "file=/k/nvme.img,if=none,id=nvm,"
		       "format=raw"));
	CHECK(strstr(after(v, "-append"), "nvme.poll_queues=1"));
	CHECK(!strstr(after(v, "-append"), "null_blk"));
	CHECK(!strstr(after(v, "-append"), "noapictimer"));
	qemu_argv_free(v);

	CHECK(qemu_check_extra("perflab_canary=16 mitigations=off", err,
			       sizeof(err)) == 0);
	CHECK(qemu_check_extra("a\"b", err, sizeof(err)) == -1);
	CHECK(qemu_check_extra("a\nb", err, sizeof(err)) == -1);
	CHECK(qemu_check_extra("perflab_bench=-d,1", err, sizeof(err)) == -1);

	b = json_loads("{\"depth\":64,\"submit_batch\":16,\"polled\":true,"
		       "\"fixedbufs\":false,\"runtime\":5,\"warmup\":1,"
		       "\"ios\":0,\"profile\":true,\"target\":\"nullb\"}", 0,
		       NULL);
	CHECK(benchargs_from_json(b, &ba, err, sizeof(err)) == 0);
	j = benchargs_join(&ba, ',');
	CHECK(j && !strcmp(j, "-d,64,-s,16,-p,1,-B,0,-r,5,-w,1,-P"));
	CHECK(ba.runtime == 5 && ba.warmup == 1);
	free(j);
	CHECK(benchargs_drop(&ba, "-P") == 1 && benchargs_drop(&ba, "-P") == 0);
	j = benchargs_join(&ba, ',');
	CHECK(j && !strcmp(j, "-d,64,-s,16,-p,1,-B,0,-r,5,-w,1"), "%s", j);
	free(j);
	benchargs_free(&ba);
	json_decref(b);

	b = json_loads("{\"depth\":\"128 -j /etc/x\"}", 0, NULL);
	CHECK(benchargs_from_json(b, &ba, err, sizeof(err)) == -1);
	CHECK(strstr(err, "bench.depth"));
	json_decref(b);
	b = json_loads("{\"depth\":0}", 0, NULL);
	CHECK(benchargs_from_json(b, &ba, err, sizeof(err)) == -1);
	json_decref(b);
	DONE();
}
