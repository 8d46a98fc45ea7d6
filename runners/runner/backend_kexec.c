// SPDX-License-Identifier: MIT
/*
 * backend_kexec: dedicated hosts. Build the variant kernel, kexec into
 * it, bench --target after the reboot, reboot into the host's default
 * kernel. The steps and the state file that carries a job across the
 * reboots are kexec.c's; this file is what the runner sees of them.
 */
#include "runners/runner/backend.h"
#include "runners/runner/kexec.h"
#include "runners/runner/rutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(KEXEC_REBOOTING == BACKEND_REBOOTING,
	       "kexec_start's reboot is the backend's");

static struct kexec_opts kexec_store;

/* --state: in the workdir unless given. */
static int kexec_validate(struct runner_cfg *cfg, char *err, size_t len)
{
	struct kexec_opts *k = cfg->backend_opts;

	(void)err;
	(void)len;
	if (!k->state_file)
		k->state_file = rutil_strdupf("%s/kexec-state.json",
					      cfg->workdir);
	return 0;
}

static int kexec_run(const struct exec_ctx *c, const struct job *j,
		     struct outcome *o)
{
	return kexec_start(c, NULL, j, o);
}

static void kexec_abandon_default(const struct runner_cfg *cfg)
{
	kexec_abandon(cfg, NULL);
}

/* After a restart: finish the job whose kernel we kexec'd into. */
static int kexec_resume(const struct runner_cfg *cfg,
			const struct backend_host *h)
{
	struct exec_ctx c = { .cfg = cfg };
	struct outcome out = { 0 };
	char why[512];
	struct job j;
	int kind;

	kind = kexec_resume_prepare(cfg, NULL, &j, why, sizeof(why));
	if (kind == KEXEC_NOTHING)
		return 0;
	fprintf(stderr, "perflab-runner: resuming kexec job %lld\n", j.id);
	if (h->begin(h->arg, &j, &c)) {
		job_free(&j);
		return 0;
	}
	/* Not "build", where a new heartbeat starts: the kexec is behind us. */
	exec_phase(&c, "boot", kind == KEXEC_RUN ? "up on the variant kernel "
		   "(release, build id and job token verified)" :
		   "not on the kernel this job loaded");
	if (kind == KEXEC_WRONG_KERNEL)
		outcome_fail(&out, "boot", kexec_failure_log(cfg, why));
	else if (kind == KEXEC_RESTARTED)
		outcome_fail(&out, "internal", strdup(why));
	else
		kexec_resume_run(&c, &j, &out);
	h->end(h->arg, &j, &out);
	outcome_free(&out);
	job_free(&j);
	/*
	 * A wrong kernel that a kexec started (a variant that booted with
	 * another release) must not run the next jobs: back to the default.
	 */
	return kexec_finish(cfg, NULL, kind == KEXEC_RUN ||
			    kexec_on_variant(NULL));
}

#define OFF(f) offsetof(struct kexec_opts, f)

static const struct opt_def kexec_defs[] = {
	{ .name = "state", .kind = OPT_STR, .off = OFF(state_file),
	  .arg = "FILE", .dflt = "WORKDIR/kexec-state.json",
	  .flags = OPT_DOC_DEFAULT, .help = "kexec state file" },
	{ .name = "poll-queues", .kind = OPT_INT, .off = OFF(poll_queues),
	  .arg = "N", .min = 1, .max = 100000, .dflt = "1",
	  .hint = "not a positive number",
	  .help = "nvme.poll_queues on the variant cmdline" },
	{ .name = "kexec-initrd", .kind = OPT_STR, .off = OFF(initrd),
	  .arg = "FILE", .help = "initrd for the variant kernel" },
	{ .name = "console-log", .kind = OPT_STR, .off = OFF(console_log),
	  .arg = "FILE",
	  .help = "the previous boot's console (pstore file, BMC\n"
		  "capture); its tail goes with a \"boot\" failure" },
};

static const struct opt_table kexec_table = {
	.defs = kexec_defs,
	.n = sizeof(kexec_defs) / sizeof(kexec_defs[0]),
	.store = &kexec_store,
};

const struct backend_ops backend_kexec = {
	.name = "kexec",
	.usage = "dedicated host: kexec into the variant kernel, bench the\n"
		 "NVMe --target, reboot to the default kernel (needs the\n"
		 "systemd unit in dist/systemd/ and root)",
	.opts = &kexec_table,
	.needs_root = 1,
	.needs_target = 1,
	.validate = kexec_validate,
	.run = kexec_run,
	.resume = kexec_resume,
	.abandon = kexec_abandon_default,
};
