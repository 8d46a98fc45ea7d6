// SPDX-License-Identifier: MIT
/*
 * backend_local: no kernel change. A variant is its `setup` shell
 * commands, run with `sh -ec` before each run, then perflab-bench on
 * --target (a device or a file) on the running kernel.
 */
#include "runners/runner/backend.h"
#include "runners/runner/hostbench.h"
#include "runners/runner/rutil.h"
#include "runners/runner/toggle.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* PATH of a setup script. */
#define LOCAL_SETUP_PATH "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

static int run_setup(const struct exec_ctx *c, const struct job *j,
		     struct outcome *o)
{
	char log[4200], how[64];
	/* A clean environment: the runner's (its key in PERFLAB_RUNNER_KEY
	 * among it) is not the script's, and the output is uploaded. */
	char *argv[] = { "/usr/bin/env", "-i", "PATH=" LOCAL_SETUP_PATH,
			 "HOME=/root", "LANG=C.UTF-8", "sh", "-ec",
			 (char *)j->setup, NULL };
	struct rutil_cmd cmd;
	int rc, st;

	if (!j->setup || !*j->setup)
		return 0;
	snprintf(log, sizeof(log), "%s/setup-%lld.log", c->cfg->workdir,
		 j->id);
	unlink(log);
	rutil_cmd_init(&cmd, argv);
	cmd.log = log;
	cmd.cancel = c->abort;
	cmd.timeout_s = 300;
	rc = rutil_run(&cmd, &st);
	if (rc == RUTIL_EXITED && st == 0) {
		o->boot_log = rutil_read_tail(log, 65536);
		return 0;
	}
	rutil_outcome(rc, st, how, sizeof(how));
	{
		char *out = rutil_read_tail(log, 65536);

		outcome_fail(o, "bench", rutil_strdupf(
			"variant setup failed (sh -ec: %s):\n$ %s\n%s", how,
			j->setup, out));
		free(out);
	}
	return -1;
}

static int local_run(const struct exec_ctx *c, const struct job *j,
		     struct outcome *o)
{
	if (access(c->cfg->bench, X_OK)) {
		outcome_fail(o, "internal", rutil_strdupf(
			"perflab-bench %s: %s", c->cfg->bench,
			strerror(errno)));
		return -1;
	}
	exec_phase(c, "boot", "variant setup");
	if (run_setup(c, j, o))
		return -1;
	return j->nruns ? toggle_local(c, j, o) : hostbench_run(c, j, o);
}

const struct backend_ops backend_local = {
	.name = "local",
	.usage = "current kernel; variants are setup shell commands",
	.needs_target = 1,
	.run = local_run,
};
