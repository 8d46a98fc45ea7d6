/* SPDX-License-Identifier: MIT */
/*
 * kexec: the kexec backend for dedicated NVMe hosts.
 *
 *  1. build the variant kernel (kbuild), write the job state file,
 *     `kexec -l IMAGE --command-line="<host cmdline> nvme.poll_queues=N
 *     perflab_job=TOKEN <variant cmdline>"`, then `systemctl kexec`;
 *  2. after the reboot systemd starts the runner again
 *     (dist/systemd/perflab-runner.service); it finds the state, checks
 *     it runs the expected kernel (uname -r, build id from
 *     /sys/kernel/notes, the TOKEN on /proc/cmdline), runs the bench on
 *     --target, uploads, marks the state "returning" and `systemctl
 *     reboot`s into the host's default kernel;
 *  3. on the default kernel the runner removes the state and claims again.
 * Everything that touches the machine goes through struct kexec_env, so
 * tests drive every step with a fake root and a command recorder.
 */
#ifndef PERFLAB_KEXEC_H
#define PERFLAB_KEXEC_H

#include <jansson.h>

#include "runners/runner/exec.h"

#define KEXEC_REBOOTING 1

/* The kexec backend's options (backend_kexec.c's table), found at
 * runner_cfg.backend_opts. */
struct kexec_opts {
	const char *state_file;
	int poll_queues;
	const char *initrd;
	const char *console_log; /* previous boot's console, for "boot" fails */
};

static inline const struct kexec_opts *kexec_opts(const struct runner_cfg *cfg)
{
	return cfg->backend_opts;
}

struct kexec_env {
	const char *sysroot;	/* "" or a test root with proc/ and sys/ */
	/* Run argv; 0 when it exited 0; *out gets its output (heap). */
	int (*exec)(void *arg, char *const argv[], char **out);
	void *arg;
};

struct kexec_state {
	char stage[16];		/* "booting", "running" or "returning" */
	json_t *job;		/* the claimed job, verbatim */
	char image[4096];
	char release[128];
	char build_id[128];
	char token[96];
	json_t *build;		/* build object for the result upload */
	double build_s;
	long long started;	/* unix time of the kexec */
};

const struct kexec_env *kexec_default_env(void);

int kexec_state_save(const char *path, const struct kexec_state *s);
/* 0 loaded, 1 no state file, -1 unreadable (err set). */
int kexec_state_load(const char *path, struct kexec_state *s, char *err,
		     size_t errlen);
void kexec_state_free(struct kexec_state *s);

/* "perflab_job=<job>-<lease prefix>" */
void kexec_token(long long job, const char *lease, char *out, size_t len);
/*
 * Variant cmdline check for kexec: the qemu check (printable ASCII, no
 * quotes or backslashes, none of our perflab_* keys), and nothing that
 * would run code as root on the host's own root filesystem or boot
 * another one (init=, rdinit=, root=, systemd.*, rd.*, runlevels, ...),
 * nor the parameters the runner sets. 0 ok, -1 with err.
 */
int kexec_check_extra(const char *extra, char *err, size_t errlen);
/* Host cmdline minus BOOT_IMAGE=, initrd=, nvme.poll_queues=, perflab_job=,
 * plus ours. Heap string. */
char *kexec_cmdline(const char *host, int poll_queues, const char *token,
		    const char *extra);
/* kexec -l IMAGE --command-line=... [--initrd=FILE]; heap argv. */
char **kexec_load_argv(const char *image, const char *cmdline,
		       const char *initrd);
void kexec_argv_free(char **argv);
/* GNU build id (hex) from an ELF notes blob such as /sys/kernel/notes. */
int kexec_notes_build_id(const unsigned char *buf, size_t len, char *out,
			 size_t outlen);
/* 1 when the running kernel was started by a job's kexec (its command
 * line has a perflab_job= token), not the host's default kernel. */
int kexec_on_variant(const struct kexec_env *env);
/* 0 when the running kernel is the state's; else why. */
int kexec_verify(const struct kexec_env *env, const struct kexec_state *s,
		 char *why, size_t len);

/* Step 1. KEXEC_REBOOTING when the reboot was issued; -1 with o failed. */
int kexec_start(const struct exec_ctx *c, const struct kexec_env *env,
		const struct job *j, struct outcome *o);

enum kexec_resume_kind {
	KEXEC_NOTHING = 0,	/* no state, or stale state cleaned up */
	KEXEC_RUN,		/* on the variant kernel: run the bench */
	KEXEC_WRONG_KERNEL,	/* booted something else: fail "boot" */
	KEXEC_RESTARTED,	/* the variant booted, then the host restarted
				 * mid-run (power, reset): fail "internal" */
};
/* Step 2, first half: what to do after a restart; j filled for RUN and
 * WRONG_KERNEL, why for WRONG_KERNEL. */
int kexec_resume_prepare(const struct runner_cfg *cfg,
			 const struct kexec_env *env, struct job *j,
			 char *why, size_t len);
/* Bench on the variant kernel; o gets the build info from the state,
 * which is marked "running" first. */
int kexec_resume_run(const struct exec_ctx *c, const struct job *j,
		     struct outcome *o);
/* After upload: mark "returning" and reboot to the default kernel
 * (KEXEC_REBOOTING); after a wrong kernel just drop the state (0). */
int kexec_finish(const struct runner_cfg *cfg, const struct kexec_env *env,
		 int reboot);
/* The failure log of a job that did not come back: why, then the tail of
 * --console-log (the previous boot's console: pstore, a BMC capture),
 * when there is one. Heap string. */
char *kexec_failure_log(const struct runner_cfg *cfg, const char *why);
/* Unload a loaded kernel and forget the state. */
void kexec_abandon(const struct runner_cfg *cfg, const struct kexec_env *env);

#endif
