/* SPDX-License-Identifier: MIT */
/*
 * backend: what the runner needs to know about a way of running a job
 * (local, qemu, qemu-icount, kexec). Each backend is one table in its own
 * file (backend_*.c); backend.c lists them. The rest of the runner asks
 * the table and never compares backend names, so a new backend is one
 * new file (a table named backend_NAME, with its options' table) and its
 * name in backend.c. The
 * daemon takes the names runners register (contracts.md section 2): it
 * keeps no list of its own.
 */
#ifndef PERFLAB_BACKEND_H
#define PERFLAB_BACKEND_H

#include <jansson.h>
#include <stdio.h>

#include "common/opttab.h"
#include "runners/runner/exec.h"

/* run(): the job goes on after a reboot (kexec); wait to be stopped. */
#define BACKEND_REBOOTING 1

/*
 * What the runner lends a backend that finishes, after a restart, a job
 * it started before (resume()): begin() starts the job's heartbeat and
 * fills @c's abort, phase and run_done (0 ok); end() uploads or reports
 * @o and stops the heartbeat.
 */
struct backend_host {
	int (*begin)(void *arg, const struct job *j, struct exec_ctx *c);
	void (*end)(void *arg, const struct job *j, struct outcome *o);
	void *arg;
};

struct backend_ops {
	const char *name;	/* --backend NAME, registered with perflabd */
	const char *usage;	/* --help: what it does (60-column lines) */
	/* Its own options (common/opttab.h), NULL: none. The runner reads
	 * every backend's table; the chosen one's store is
	 * runner_cfg.backend_opts. Two backends may share one table
	 * (printed once). */
	const struct opt_table *opts;
	unsigned needs_root : 1;	/* warn when started as another user */
	unsigned needs_target : 1;	/* --target DEV (not for try) */

	/* Check this backend's options and fill in their defaults: -1
	 * with @err (fatal) for options that do not fit. */
	int (*validate)(struct runner_cfg *cfg, char *err, size_t len);
	/* Run one job: 0 done, -1 failed (o->reason), BACKEND_REBOOTING. */
	int (*run)(const struct exec_ctx *c, const struct job *j,
		   struct outcome *o);
	/* Before the first claim: finish a job left under way before a
	 * restart. BACKEND_REBOOTING when that rebooted the host again. */
	int (*resume)(const struct runner_cfg *cfg,
		      const struct backend_host *h);
	/* A reboot that run() started did not come: undo what it set up. */
	void (*abandon)(const struct runner_cfg *cfg);
	/* Adjust the registration facts (facts.c's, already in @f). */
	void (*facts)(const struct runner_cfg *cfg, json_t *f);
	/* -1: probe the target's io_poll for the facts; else the answer. */
	int (*poll_ok)(const struct runner_cfg *cfg);
	/* After a successful job: 1 when the facts changed (re-register). */
	int (*after_run)(const struct runner_cfg *cfg,
			 const struct outcome *o);
};

/* The registered backend called @name, NULL when there is none. */
const struct backend_ops *backend_find(const char *name);
/* The @i-th registered backend, NULL past the last. */
const struct backend_ops *backend_at(int i);
/* "local, qemu, qemu-icount, kexec": the registered names. */
const char *backend_names(void);
/* The --help sections "Backends:" and "Backend options:". */
void backend_usage(FILE *f);

#endif
