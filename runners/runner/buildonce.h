/* SPDX-License-Identifier: MIT */
/*
 * buildonce: the runner's part of "build once, test on many hosts"
 * (docs/api.md "Kernel images"): the config hashes it registers, the
 * shared ccache's Redis credentials, and build tasks.
 */
#ifndef PERFLAB_BUILDONCE_H
#define PERFLAB_BUILDONCE_H

#include <jansson.h>
#include <signal.h>
#include <stddef.h>

#include "runners/runner/exec.h"
#include "runners/runner/job.h"
#include "runners/runner/proto.h"

/* {"NAME": config hash} of every NAME.config in cfg->configs. */
json_t *buildonce_configs(const struct runner_cfg *cfg);
/*
 * --ccache-redis-auth FILE: lines "rw USER PASSWORD" and "ro USER
 * PASSWORD" (root's file: base builds get the first, patched ones the
 * second). 0, or -1 with @err.
 */
int buildonce_redis_auth(const char *file, struct kbuild_ccache *cc, char *err,
			 size_t errlen);
/* Run a build task (j->build_id): build, upload, or report its failure. */
void buildonce_task(const struct proto *p, const struct runner_cfg *cfg,
		    const struct job *j, const volatile sig_atomic_t *stop);

#endif
