/* SPDX-License-Identifier: MIT */
/*
 * local: the local backend (no kernel change: a variant is its `setup`
 * shell commands, run before each run on the current kernel), and the
 * host-side bench run the kexec backend reuses after its reboot.
 */
#ifndef PERFLAB_LOCAL_H
#define PERFLAB_LOCAL_H

#include "runners/runner/exec.h"

/* Target: the runner's --target, else the job's bench.target. */
const char *local_target(const struct runner_cfg *cfg, const struct job *j);
/* perflab-bench on the host against the target; fills o->bench. */
int local_bench(const struct exec_ctx *c, const struct job *j,
		struct outcome *o);
/* Run variant setup (sh -c) then local_bench. */
int exec_local(const struct exec_ctx *c, const struct job *j,
	       struct outcome *o);

#endif
