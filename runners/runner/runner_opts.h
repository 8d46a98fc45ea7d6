/* SPDX-License-Identifier: MIT */
/*
 * runner_opts: perflab-runner's command line. Its own options (serving
 * and try mode) are two tables here (common/opttab.h); each backend's are
 * a table in its backend_*.c (backend.h), read in the same pass, so a
 * backend with options is still one file.
 */
#ifndef PERFLAB_RUNNER_OPTS_H
#define PERFLAB_RUNNER_OPTS_H

#include <limits.h>
#include <stdio.h>

#include "common/opttab.h"
#include "runners/runner/backend.h"
#include "runners/runner/kbuild.h"
#include "runners/runner/proto.h"

#define RUNNER_MAX_LABELS 16
#define RUNNER_MAX_PATCHES 16

struct runner_opts {
	struct runner_cfg cfg;
	const struct backend_ops *be;
	struct proto proto;
	const char *labels[RUNNER_MAX_LABELS];
	int nlabels;
	int once;
	int claim_wait;
	/* try mode */
	int try_mode;
	const char *try_patches[RUNNER_MAX_PATCHES];
	int try_npatches;
	const char *try_cmdline;
	const char *try_setup;
	const char *try_bench;
	const char *try_config;
	const char *try_git;	/* git base url, with try_commit */
	const char *try_commit;
	const char *try_base;
	int try_runs;
	int try_build_only;
	const char *try_domain;
	struct kbuild_ccache cc;
	int guest_mode;		/* lava-guest: write the LAVA guest */
	char top[PATH_MAX];
};

enum { RUNNER_TAB_MAIN, RUNNER_TAB_TRY, RUNNER_NTABS };

/* The runner's own tables over @o (tests/unit/opttab-tables checks them). */
void runner_opts_tables(struct opt_table t[RUNNER_NTABS],
			struct runner_opts *o);
/*
 * Defaults, then argv into @o and the backends' stores; "try" or
 * "lava-guest" set the mode. OPTTAB_OK, OPTTAB_HELP or OPTTAB_ERROR
 * (@err says why).
 */
int runner_opts_parse(struct runner_opts *o, int argc, char **argv,
		      char *err, size_t len);
/* --help: the usage lines, the backends and every table. */
void runner_opts_usage(FILE *f);

#endif
