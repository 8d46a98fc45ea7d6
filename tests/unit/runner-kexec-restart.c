// SPDX-License-Identifier: MIT
/*
 * Description: a kexec job whose host restarts tells a lost run from a
 * failed boot. kexec_resume_run marks the state "running" before the
 * bench; back on the default kernel a "running" state resumes as
 * KEXEC_RESTARTED (the variant had booted: power loss or reset, retried as
 * "internal") while a "booting" one stays KEXEC_WRONG_KERNEL ("boot"); a
 * runner restarted on the variant itself during the run benches again.
 * The "boot" failure log carries the tail of --console-log when given;
 * kexec_on_variant tells a kexec'd kernel (job token on its command line)
 * from the default one, so a wrong kernel that a kexec started reboots;
 * such a kernel's release mismatch says the image is not its build's.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runners/runner/kexec.h"
#include "runners/runner/rutil.h"
#include "unit/check.h"

static char root[] = "/tmp/perflab-kexec-restart-XXXXXX";

static int ok_exec(void *arg, char *const argv[], char **out)
{
	(void)arg;
	(void)argv;
	*out = strdup("");
	return 0;
}

static const char job_json[] =
	"{\"job_id\":7,\"lease\":\"00112233445566778899\",\"lease_seconds\":60,"
	"\"attempt\":1,\"experiment_id\":1,\"backend\":\"kexec\","
	"\"base\":{\"name\":\"linux-6.1\"},\"config\":\"host\","
	"\"variant\":{\"name\":\"v\",\"patches\":[],\"cmdline\":\"\"},"
	"\"bench\":{\"runtime\":2,\"warmup\":1,\"target\":\"/dev/nvme0n1\"}}";

/* A bench that records that it ran and fails, so nothing is uploaded. */
static const char fake_bench[] = "#!/bin/sh\necho ran >> \"$0.ran\"\nexit 3\n";

static void save_state(const struct runner_cfg *cfg, const char *stage)
{
	struct kexec_state s = { .started = 1 };

	snprintf(s.stage, sizeof(s.stage), "%s", stage);
	snprintf(s.release, sizeof(s.release), "6.1.0-perflab");
	snprintf(s.token, sizeof(s.token), "perflab_job=7-0011223344556677");
	s.job = json_loads(job_json, 0, NULL);
	CHECK(kexec_state_save(kexec_opts(cfg)->state_file, &s) == 0);
	json_decref(s.job);
}

static void on_variant(void)
{
	put("sys/proc/sys/kernel/osrelease", "6.1.0-perflab\n");
	put("sys/proc/cmdline", "console=ttyS0 perflab_job=7-0011223344556677\n");
}

static void on_default(void)
{
	put("sys/proc/sys/kernel/osrelease", "6.1.0-perflab\n");
	put("sys/proc/cmdline", "console=ttyS0 panic=-1\n");
}

int main(void)
{
	struct kexec_env env = { .exec = ok_exec };
	struct kexec_opts k = { .poll_queues = 1 };
	struct runner_cfg cfg = { .backend = "kexec", .backend_opts = &k };
	struct exec_ctx c = { .cfg = &cfg };
	struct outcome o = { 0 };
	struct kexec_state s;
	char err[256], why[512], *log, *ran;
	struct job j;

	fixture_root = root;	/* mkdtemp fills it in place */
	if (!mkdtemp(root))
		return 1;
	env.sysroot = rutil_strdupf("%s/sys", root);
	cfg.workdir = root;
	k.state_file = rutil_strdupf("%s/state.json", root);
	cfg.bench = rutil_strdupf("%s/bench.sh", root);
	cfg.target = "/dev/nvme0n1";
	ran = rutil_strdupf("%s.ran", cfg.bench);
	put("bench.sh", fake_bench);
	chmod(cfg.bench, 0755);

	/* On the variant: the bench runs and the state says "running". */
	save_state(&cfg, "booting");
	on_variant();
	CHECK(kexec_resume_prepare(&cfg, &env, &j, why, sizeof(why)) ==
	      KEXEC_RUN);
	CHECK(kexec_resume_run(&c, &j, &o) == -1 && o.reason &&
	      !strcmp(o.reason, "bench"));
	outcome_free(&o);
	job_free(&j);
	CHECK(kexec_state_load(k.state_file, &s, err, sizeof(err)) == 0);
	CHECK(!strcmp(s.stage, "running"));
	kexec_state_free(&s);

	CHECK(kexec_on_variant(&env) == 1);

	/* The runner restarted on the variant mid-run: bench again. */
	CHECK(kexec_resume_prepare(&cfg, &env, &j, why, sizeof(why)) ==
	      KEXEC_RUN);
	job_free(&j);

	/* Power lost mid-run: back on the default kernel. */
	on_default();
	CHECK(kexec_on_variant(&env) == 0);
	CHECK(kexec_resume_prepare(&cfg, &env, &j, why, sizeof(why)) ==
	      KEXEC_RESTARTED);
	CHECK(j.id == 7);
	CHECK(strstr(why, "restarted during the run") != NULL, "%s", why);
	job_free(&j);
	CHECK(kexec_finish(&cfg, &env, 0) == 0);
	CHECK(access(k.state_file, F_OK) != 0);

	/* Never came up (panic): still a boot failure, with the console. */
	save_state(&cfg, "booting");
	CHECK(kexec_resume_prepare(&cfg, &env, &j, why, sizeof(why)) ==
	      KEXEC_WRONG_KERNEL);
	job_free(&j);
	log = kexec_failure_log(&cfg, why);
	CHECK(!strcmp(log, why));
	free(log);
	k.console_log = rutil_strdupf("%s/console.log", root);
	log = kexec_failure_log(&cfg, why);
	CHECK(!strcmp(log, why), "a missing console log adds nothing");
	free(log);
	put("console.log", "[    1.0] Kernel panic - not syncing: boom\r\n");
	log = kexec_failure_log(&cfg, why);
	CHECK(strstr(log, why) == log && strstr(log, "Kernel panic - not "
						 "syncing: boom\n"), "%s", log);
	CHECK(!strchr(log, '\r'));
	free(log);

	/* The kexec'd kernel (token present) reports another release. */
	save_state(&cfg, "booting");
	on_variant();
	put("sys/proc/sys/kernel/osrelease", "6.1.0-perflab-other\n");
	CHECK(kexec_resume_prepare(&cfg, &env, &j, why, sizeof(why)) ==
	      KEXEC_WRONG_KERNEL);
	CHECK(strstr(why, "the kernel this job loaded reports release "
		      "6.1.0-perflab-other, its build produced 6.1.0-perflab"),
	      "%s", why);
	job_free(&j);
	CHECK(access(ran, F_OK) == 0);
	rutil_rm_rf(root);
	DONE();
}
