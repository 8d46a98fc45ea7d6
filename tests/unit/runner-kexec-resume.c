// SPDX-License-Identifier: MIT
/*
 * Description: every step of the kexec backend around the reboot, with the
 * reboot behind its interface: kexec -l / systemctl kexec command lines,
 * the job state file round trip, resume after the restart on the right
 * kernel (bench runs, build info kept), wrong-kernel detection (release,
 * missing token, build id), the return reboot and the cleanup after it.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runners/runner/kexec.h"
#include "runners/runner/rutil.h"
#include "unit/check.h"

static char root[] = "/tmp/perflab-kexec-XXXXXX";
static char cmds[8][4096];
static int ncmds, fail_exec;

static int rec_exec(void *arg, char *const argv[], char **out)
{
	char *p = cmds[ncmds % 8];

	(void)arg;
	p[0] = 0;
	for (int i = 0; argv[i]; i++) {
		strcat(p, i ? " " : "");
		strncat(p, argv[i], 4000 - strlen(p));
	}
	ncmds++;
	*out = strdup(fail_exec ? "kexec: not supported" : "");
	return fail_exec ? -1 : 0;
}

/* ELF note blob with a GNU build id 0xab 0xcd 0xef 0x01. */
static void put_notes(unsigned char last)
{
	unsigned char n[] = { 4, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0, 'X', 'e',
			      'n', 0, 1, 2, 3, 4,
			      4, 0, 0, 0, 4, 0, 0, 0, 3, 0, 0, 0, 'G', 'N',
			      'U', 0, 0xab, 0xcd, 0xef, last };

	put_bytes("sys/sys/kernel/notes", n, sizeof(n));
}

static const char job_json[] =
	"{\"job_id\":42,\"lease\":\"0123456789abcdef0123\",\"lease_seconds\":60,"
	"\"attempt\":1,\"experiment_id\":3,\"backend\":\"kexec\","
	"\"base\":{\"name\":\"linux-6.1\"},\"config\":\"host\","
	"\"variant\":{\"name\":\"tag\",\"patches\":[{\"subject\":\"p\","
	"\"raw\":\"--- a/x\\n+++ b/x\\n\"}],\"cmdline\":\"perflab_canary=4\"},"
	"\"bench\":{\"runtime\":2,\"warmup\":1,\"target\":\"/dev/nvme0n1\"}}";

static const char fake_bench[] =
	"#!/bin/sh\n"
	"while [ $# -gt 1 ]; do [ \"$1\" = -j ] && out=$2; shift; done\n"
	"echo 'IOPS=1000, IOS/call=32/32, inflight=(128)'\n"
	"echo \"{\\\"samples\\\":[{\\\"t\\\":1,\\\"iops\\\":1000}],"
	"\\\"summary\\\":{\\\"mean\\\":1000},\\\"target\\\":\\\"$1\\\"}\" > $out\n";

static void setup_image(struct runner_cfg *cfg, const struct job *j)
{
	char ps[65], ch[65], key[65];
	char *dir, *cfgfile = rutil_strdupf("%s/host.config", cfg->configs);

	CHECK(kbuild_config_hash(cfgfile, NULL, ch) == 0);
	kbuild_patchset_hash(j->patches, j->npatches, ps);
	kbuild_key(j->base_name, j->base_git ? j->base_commit : NULL, ps, ch,
		   j->npatches ? (j->trust_domain ? j->trust_domain : "local") :
		   NULL, key);
	dir = rutil_strdupf("kcache/images/%s/", key);
	put(rutil_strdupf("%sbzImage", dir), "MZ");
	put(rutil_strdupf("%sbuild.log", dir), "built\n");
	put(rutil_strdupf("%smeta", dir), "release=6.1.0-perflab\n"
	    "build_id=abcdef01\nseconds=12.5\n");
	free(dir);
	free(cfgfile);
}

int main(void)
{
	struct kexec_env env = { .exec = rec_exec };
	struct kexec_opts k = { .poll_queues = 2 };
	struct runner_cfg cfg = { .backend = "kexec", .backend_opts = &k,
				  .build_uid = (uid_t)-1,
				  .build_gid = (gid_t)-1 };
	struct exec_ctx c = { .cfg = &cfg };
	struct outcome o = { 0 };
	struct kexec_state s;
	char err[256], why[512], tok[96], *cl;
	struct job j, j2;

	fixture_root = root;	/* mkdtemp fills it in place */
	if (!mkdtemp(root))
		return 1;
	env.sysroot = rutil_strdupf("%s/sys", root);
	cfg.workdir = root;
	cfg.kcache = rutil_strdupf("%s/kcache", root);
	cfg.configs = rutil_strdupf("%s/configs", root);
	k.state_file = rutil_strdupf("%s/state.json", root);
	cfg.bench = rutil_strdupf("%s/bench.sh", root);
	cfg.target = "/dev/nvme0n1";
	put("configs/host.config", "CONFIG_SMP=y\n");
	put("bench.sh", fake_bench);
	chmod(cfg.bench, 0755);
	put("sys/proc/cmdline", "BOOT_IMAGE=/vmlinuz-6.1.0-13-amd64 "
	    "root=UUID=1234 ro quiet nvme.poll_queues=0 initrd=/x\n");
	put("sys/proc/sys/kernel/osrelease", "6.1.0-13-amd64\n");
	CHECK(job_parse(job_json, &j, err, sizeof(err)) == 0);

	/* Pure helpers. */
	kexec_token(42, "0123456789abcdef0123", tok, sizeof(tok));
	CHECK(!strcmp(tok, "perflab_job=42-0123456789abcdef"));
	cl = kexec_cmdline("BOOT_IMAGE=/v root=/dev/sda1 ro nvme.poll_queues=0"
			   " perflab_job=1-aa", 2, tok, "perflab_canary=4");
	CHECK(!strcmp(cl, "root=/dev/sda1 ro nvme.poll_queues=2 "
		      "perflab_job=42-0123456789abcdef perflab_canary=4"));
	free(cl);

	/* Step 1: kexec -l + systemctl kexec, state saved. */
	setup_image(&cfg, &j);
	CHECK(kexec_start(&c, &env, &j, &o) == KEXEC_REBOOTING);
	CHECK(ncmds == 2);
	CHECK(strstr(cmds[0], "kexec -l ") == cmds[0]);
	CHECK(strstr(cmds[0], "/bzImage --command-line=root=UUID=1234 ro "
		     "quiet nvme.poll_queues=2 perflab_job=42-0123456789abcdef "
		     "perflab_canary=4"));
	CHECK(!strstr(cmds[0], "BOOT_IMAGE") && !strstr(cmds[0], "initrd"));
	CHECK(!strcmp(cmds[1], "systemctl kexec"));
	CHECK(kexec_state_load(k.state_file, &s, err, sizeof(err)) == 0);
	CHECK(!strcmp(s.stage, "booting"));
	CHECK(!strcmp(s.release, "6.1.0-perflab"));
	CHECK(!strcmp(s.build_id, "abcdef01"));
	CHECK(!strcmp(s.token, tok));
	CHECK(json_integer_value(json_object_get(s.job, "job_id")) == 42);
	CHECK(json_is_object(s.build));
	kexec_state_free(&s);
	outcome_free(&o);

	/* Restart on the default kernel (kexec did not happen). */
	CHECK(kexec_resume_prepare(&cfg, &env, &j2, why, sizeof(why)) ==
	      KEXEC_WRONG_KERNEL);
	CHECK(strstr(why, "booted kernel 6.1.0-13-amd64, expected "
		     "6.1.0-perflab"));
	job_free(&j2);

	/* Right release, token missing from the command line. */
	put("sys/proc/sys/kernel/osrelease", "6.1.0-perflab\n");
	CHECK(kexec_resume_prepare(&cfg, &env, &j2, why, sizeof(why)) ==
	      KEXEC_WRONG_KERNEL);
	CHECK(strstr(why, "perflab_job=42-0123456789abcdef"));
	job_free(&j2);

	/* Token present, build id differs. */
	put("sys/proc/cmdline", "root=UUID=1234 nvme.poll_queues=2 "
	    "perflab_job=42-0123456789abcdef perflab_canary=4\n");
	put_notes(0x02);
	CHECK(kexec_resume_prepare(&cfg, &env, &j2, why, sizeof(why)) ==
	      KEXEC_WRONG_KERNEL);
	CHECK(strstr(why, "build id abcdef02, expected abcdef01"));
	job_free(&j2);

	/* The kernel we loaded: run the bench, keep the build info. */
	put_notes(0x01);
	CHECK(kexec_resume_prepare(&cfg, &env, &j2, why, sizeof(why)) ==
	      KEXEC_RUN);
	CHECK(j2.id == 42 && !strcmp(j2.variant, "tag"));
	memset(&o, 0, sizeof(o));
	CHECK(kexec_resume_run(&c, &j2, &o) == 0);
	if (o.reason)
		fprintf(stderr, "%s: %s\n", o.reason, o.log);
	CHECK(o.reason == NULL);
	CHECK(json_integer_value(json_object_get(json_array_get(
		json_object_get(o.bench, "samples"), 0), "iops")) == 1000);
	CHECK(!strcmp(json_string_value(json_object_get(o.bench, "target")),
		      "/dev/nvme0n1"));
	CHECK(json_is_object(o.build) && o.build_s > 0);
	CHECK(o.boot_log && strstr(o.boot_log, "IOPS=1000"));
	outcome_free(&o);
	job_free(&j2);

	/* Return to the default kernel. */
	ncmds = 0;
	CHECK(kexec_finish(&cfg, &env, 1) == KEXEC_REBOOTING);
	CHECK(ncmds == 1 && !strcmp(cmds[0], "systemctl reboot"));
	CHECK(kexec_state_load(k.state_file, &s, err, sizeof(err)) == 0);
	CHECK(!strcmp(s.stage, "returning"));
	kexec_state_free(&s);
	put("sys/proc/sys/kernel/osrelease", "6.1.0-13-amd64\n");
	CHECK(kexec_resume_prepare(&cfg, &env, &j2, why, sizeof(why)) ==
	      KEXEC_NOTHING);
	CHECK(access(k.state_file, F_OK) != 0);

	/* kexec -l failing: job fails "boot" with kexec's output, no state. */
	ncmds = 0;
	fail_exec = 1;
	memset(&o, 0, sizeof(o));
	CHECK(kexec_start(&c, &env, &j, &o) == -1);
	CHECK(o.reason && !strcmp(o.reason, "boot"));
	CHECK(o.log && strstr(o.log, "kexec: not supported"));
	CHECK(access(k.state_file, F_OK) != 0);
	outcome_free(&o);

	/* A variant cmdline that would run code as root on the host: the
	 * job fails before anything is run (the image is in the cache). */
	ncmds = 0;
	fail_exec = 0;
	memset(&o, 0, sizeof(o));
	j.cmdline = "perflab_canary=4 init=/bin/sh";
	CHECK(kexec_start(&c, &env, &j, &o) == -1);
	CHECK(ncmds == 0, "%d commands run", ncmds);
	CHECK(o.reason && !strcmp(o.reason, "internal"));
	CHECK(o.log && strstr(o.log, "init=/bin/sh"));
	CHECK(access(k.state_file, F_OK) != 0);
	outcome_free(&o);
	j.cmdline = "perflab_canary=4";

	/* A corrupt state file is moved aside, not fatal. */
	put("state.json", "{not json");
	CHECK(kexec_resume_prepare(&cfg, &env, &j2, why, sizeof(why)) ==
	      KEXEC_NOTHING);
	CHECK(access(rutil_strdupf("%s.corrupt", k.state_file), F_OK) == 0);
	job_free(&j);
	rutil_rm_rf(root);
	DONE();
}
