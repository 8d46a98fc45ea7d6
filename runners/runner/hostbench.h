/* SPDX-License-Identifier: MIT */
/*
 * hostbench: perflab-bench on the running kernel, against the runner's
 * --target or the job's bench.target. The local backend runs it after a
 * variant's setup; the kexec backend after its reboot; toggle_local once
 * per run of a toggle boot.
 */
#ifndef PERFLAB_HOSTBENCH_H
#define PERFLAB_HOSTBENCH_H

#include "runners/runner/exec.h"

/* Target: the runner's --target, else the job's bench.target. */
const char *hostbench_target(const struct runner_cfg *cfg, const struct job *j);
/* perflab-bench on the host against the target; fills o->bench. */
int hostbench_run(const struct exec_ctx *c, const struct job *j,
		  struct outcome *o);

#endif
