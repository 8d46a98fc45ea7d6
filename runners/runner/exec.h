/* SPDX-License-Identifier: MIT */
/*
 * exec: what a backend (backend.h) is given to run one job, and how it
 * says what happened: an outcome the protocol layer turns into a result
 * upload or a failure report. Plus the steps backends share.
 */
#ifndef PERFLAB_EXEC_H
#define PERFLAB_EXEC_H

#include <jansson.h>
#include <signal.h>
#include <sys/types.h>

#include "runners/runner/job.h"
#include "runners/runner/kbuild.h"
#include "runners/runner/proto.h"

struct runner_cfg {
	const char *backend;	/* the backend's name (backend.h) */
	const char *workdir;
	const char *kcache;
	const char *tree;	/* pristine base tree */
	const char *configs;	/* dir of NAME.config fragments */
	const char *base_config; /* full config to start from, NULL: tinyconfig */
	const char *bench;	/* perflab-bench (local, kexec) */
	const char *bench_static; /* static perflab-bench (initramfs) */
	const char *busybox;
	const char *target;	/* local/kexec: device or file */
	int jobs;		/* make -j */
	uid_t build_uid;	/* (uid_t)-1: build as the runner's user */
	gid_t build_gid;
	/* The backend's own options: the store of its table (backend.h). */
	void *backend_opts;
	/* Build once: the shared compiler caches (NULL: ccache file storage
	 * only), and whether this host uploads what it builds. */
	const struct kbuild_ccache *cc;
};

typedef void (*exec_phase_fn)(void *arg, const char *phase, const char *msg);

struct outcome;

/*
 * A toggle boot's run @i (job->runs[i]) ended with @o (a result, or a
 * failure); the callee uploads or reports it and may take o->bench.
 */
typedef void (*exec_run_fn)(void *arg, int i, struct outcome *o);

struct exec_ctx {
	const struct runner_cfg *cfg;
	const volatile sig_atomic_t *abort;
	exec_phase_fn phase;
	void *arg;
	exec_run_fn run_done;	/* toggle jobs */
	void *run_arg;
	/* The image store (the claim's image): NULL in try mode. */
	const struct proto *proto;
};

struct outcome {
	const char *reason;	/* NULL: success; else the fail reason */
	char *log;		/* failure log */
	json_t *bench;		/* bench JSON (success) */
	json_t *build;		/* {cache_key, cached, seconds, log} */
	char *boot_log;
	double build_s, boot_s, run_s;
	char boot_id[64];	/* the boot the run came from, "" unknown */
	int boot_pos;		/* its position in that boot */
	int runs_done;		/* toggle: runs of job->runs handed to run_done */
	int image_stored;	/* upload to the store: 1 done, -1 failed, 0 none */
};

void outcome_fail(struct outcome *o, const char *reason, char *log);
void outcome_free(struct outcome *o);
/* The result upload body for a successful outcome (lease added). */
json_t *outcome_result_body(const struct outcome *o, const char *lease);

/* Tell c->phase (when set) the job entered @phase. */
void exec_phase(const struct exec_ctx *c, const char *phase, const char *msg);
/* Build (or fetch from cache) the job's kernel; 0 ok, else o failed. */
int exec_build(const struct exec_ctx *c, const struct job *j,
	       struct kbuild_result *kr, struct outcome *o);
/* Parse and sanity-check a bench JSON text into o->bench. */
int exec_take_bench(const char *text, struct outcome *o);

#endif
