// SPDX-License-Identifier: MIT
/*
 * hostbench: perflab-bench on the running kernel (the local backend, and
 * the kexec backend once it runs the variant kernel).
 */
#include "runners/runner/hostbench.h"
#include "common/benchargs.h"
#include "runners/runner/rutil.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *hostbench_target(const struct runner_cfg *cfg, const struct job *j)
{
	if (cfg->target && *cfg->target)
		return cfg->target;
	if (j->target && j->target[0] == '/')
		return j->target;
	return NULL;
}

int hostbench_run(const struct exec_ctx *c, const struct job *j,
		  struct outcome *o)
{
	const struct runner_cfg *cfg = c->cfg;
	const char *target = hostbench_target(cfg, j);
	char json[4200], log[4200], how[64], err[512];
	char *argv[64];
	struct benchargs ba;
	struct rutil_cmd cmd;
	int n = 0, rc, st, ret = -1;
	double start;
	char *text;

	if (!target) {
		outcome_fail(o, "internal", strdup("no bench target: give "
			     "--target DEV or bench.target as a path"));
		return -1;
	}
	if (benchargs_from_json(j->bench, &ba, err, sizeof(err))) {
		outcome_fail(o, "internal", strdup(err));
		return -1;
	}
	snprintf(json, sizeof(json), "%s/bench-%lld.json", cfg->workdir, j->id);
	snprintf(log, sizeof(log), "%s/bench-%lld.log", cfg->workdir, j->id);
	unlink(json);
	unlink(log);
	argv[n++] = (char *)cfg->bench;
	for (int i = 0; i < ba.n; i++)
		argv[n++] = ba.v[i];
	argv[n++] = "-j";
	argv[n++] = json;
	argv[n++] = (char *)target;
	argv[n] = NULL;
	rutil_cmd_init(&cmd, argv);
	cmd.log = log;
	cmd.cancel = c->abort;
	cmd.timeout_s = 60 + 3 * ba.runtime;
	if (c->phase)
		c->phase(c->arg, "run", target);
	start = rutil_now();
	rc = rutil_run(&cmd, &st);
	o->run_s = rutil_now() - start;
	text = rutil_read_file(json, NULL);
	if (rc == RUTIL_EXITED && st == 0 && text) {
		ret = exec_take_bench(text, o);
	} else {
		char *out = rutil_read_tail(log, 65536);

		rutil_outcome(rc, st, how, sizeof(how));
		outcome_fail(o, rc == RUTIL_CANCELLED ? "internal" : "bench",
			     rutil_strdupf("perflab-bench %s (%s):\n%s", target,
					   how, out));
		free(out);
	}
	if (!ret) {
		char *out = rutil_read_tail(log, 65536);
		char *bl = rutil_strdupf("%s%s", o->boot_log ? o->boot_log :
					 "", out);

		free(o->boot_log);
		o->boot_log = bl;
		free(out);
	}
	free(text);
	unlink(json);
	benchargs_free(&ba);
	return ret;
}
