/* SPDX-License-Identifier: MIT */
/*
 * Bisection driver: the first-parent history good..bad of a git base is
 * bisected by experiments, through the usual planner and verdict. The
 * first step is an interleaved experiment of "good" (the good commit, the
 * control) and "step" (the bad commit): unless it is a regression or an
 * improvement the step did not reproduce and the bisection fails saying
 * so (mailing no one); its sign is the bisection's direction. Every
 * other step is one experiment of three variants, "good", "step" (the
 * commit under test) and "bad" (fresh runs of both ends, so the step is
 * re-measured each time rather than reusing the first, significance-
 * selected, estimate), decided three ways by bisect_call()
 * (analysis/bisect.h): bad when the step's 95 % CI vs good lies past half
 * the re-measured step, good when it lies short of it, else unknown.
 * An unknown step gets twice its runs, up to 4x the bisection's runs;
 * still unknown there, the bisection fails with the figures (no culprit
 * is guessed). A step whose "step" variant fails with reason `build` is
 * skipped, like `git bisect skip`. The next commit and the stop rule are
 * bisect_next()'s.
 *
 * On a culprit, bisect_notify_culprit() (bisect_report.h) raises the report.
 */
#ifndef PERFLAB_BISECT_RUN_H
#define PERFLAB_BISECT_RUN_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "daemon/store/conn.h"
#include "daemon/lab/jobs.h"
#include "daemon/lab/status.h"
#include "daemon/lab/trust.h"

struct bisect_spec {
	const char *base;	/* base name (a git base) */
	int64_t base_id;	/* or its id: no fetch unless a commit is new */
	const char *good, *bad;	/* commits, prefixes or refs */
	const char *label;	/* free text shown with it */
	const char *host_label;	/* NULL: any host */
	const char *backend;	/* NULL: any backend */
	const char *bench_json;	/* canonical bench parameters */
	int runs;		/* runs per variant of each step */
	int64_t track_id;	/* 0: started by hand */
	int64_t change_point_id;	/* 0: none */
	int64_t key_id;		/* submitter, 0: the daemon */
	/* The submitter's quota, counted in the transaction that queues the
	 * first step; NULL: none (the daemon's own bisections). */
	const struct trust_who *who;
};

/*
 * Start a bisection: resolve good and bad in the mirror (fetching only
 * what it lacks, fetcher.h), check that good is an ancestor of bad, then
 * in one transaction check s->who's quota, store the bisection and queue
 * its first step (bad vs good). The first-parent list (up to 64 MiB) is
 * read off the request path, by bisect_run_prepare(); until then the
 * bisection's commits are []. 0 with *@id, or -1: LAB_REJECTED (unknown
 * base or commit, good not an ancestor of bad, a request over the cap),
 * LAB_QUOTA, LAB_CONFLICT (the change point has one), LAB_UPSTREAM (git
 * failed), LAB_PENDING (still fetching).
 */
int bisect_run_start(store_conn *db, const struct bisect_spec *s, int64_t *id,
		     struct lab_err *e);

/*
 * The level the first step (bad against good, @runs a side, capped at
 * twice that) decides at on its first look: what the MDE gate of a
 * track's change point measures a step against (track_gate.h).
 */
double bisect_run_first_alpha(int runs);

/*
 * The bisect worker: read and store the first-parent list of bisections
 * that have none yet (a good commit off bad's first-parent line, or a
 * history git cannot read, fails the bisection and cancels its first
 * step with @jc). Returns the number stored, -1 on error.
 */
int bisect_run_prepare(store_conn *db, const struct jobs_ctx *jc);

/*
 * Experiment @exp finished (analysed, or failed): when it is a step of a
 * running bisection, record its outcome and queue the next step or finish.
 * Returns 1 when it was a step, 0 when not, -1 on error.
 */
int bisect_run_experiment_done(store_conn *db, int64_t exp);

/*
 * Steps whose experiment failed or was cancelled have no analysis to
 * continue from, and a step analysed before its bisection's list was
 * read could not be taken then: the bisect worker hands them to
 * bisect_run_experiment_done(). Returns the number of steps taken, -1.
 */
int bisect_run_sweep(store_conn *db);

#endif
