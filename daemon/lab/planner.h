/* SPDX-License-Identifier: MIT */
/*
 * The lab core (daemon/lab/, see its README.md): experiments and their
 * planning, jobs and leases, result ingest, the analysis hook, series and
 * baselines, alerts, calibration, trust rules and toggles, the event ring
 * and the job queue. It works on SQLite connections it is handed (the
 * store, daemon/store/) and computes with the analysis library
 * (daemon/analysis/); it never includes an HTTP header: refusals come
 * back as a struct lab_err (status.h), which only the HTTP layer maps to
 * an HTTP status.
 *
 * Experiment planning: variants x runs become jobs, ordered so that one
 * host runs them interleaved (A B B A A B B A ... for two variants; for
 * more, each round alternates forward and reverse order), which cancels
 * linear drift.
 */
#ifndef PERFLAB_PLANNER_H
#define PERFLAB_PLANNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/store/conn.h"
#include "daemon/lab/status.h"

/*
 * Fill @variant[i] / @run[i] for i in [0, nvariants * rounds): the hand-out
 * order of rounds first_round .. first_round + rounds - 1 (a round runs
 * each variant once; odd rounds are reversed).
 */
void planner_order(int nvariants, int first_round, int rounds,
		   int *variant, int *run);

/*
 * The same for a toggle experiment of @runs_per_boot rounds a boot
 * (round r in boot r / runs_per_boot): within a boot the rounds still
 * alternate (A B B A ...), and the boots alternate which variant opens
 * them (boot 0 A B B A, boot 1 B A A B, ...), whatever the parity of
 * runs_per_boot, so a first-run warm-up or a carry-over lands on each
 * side equally often. The order is recorded in the jobs (seq) and the
 * runs' boot positions. @runs_per_boot <= 0: planner_order().
 */
void planner_order_boots(int nvariants, int first_round, int rounds,
			 int runs_per_boot, int *variant, int *run);

struct variant_spec {
	const char *name;
	bool is_control;
	const char *cmdline;
	const char *setup;	/* shell text run as root on local/kexec */
	const char *setup_script;	/* stored script it came from, or NULL */
	const char *settings;	/* toggle: JSON object path -> value, or NULL */
	const int64_t *patch_ids;
	int npatches;
	const char *base_commit;	/* git base: this commit; NULL: the experiment's */
};

struct experiment_spec {
	const char *title;
	const char *kind;	/* patch, explicit, baseline, calibration */
	const char *label;	/* NULL: any host */
	const char *backend;	/* NULL: any backend */
	const char *config;	/* "" : the base's config */
	int64_t base_id;
	const char *base_commit;	/* git base: 40 hex; NULL: tarball */
	const char *bench_json;	/* canonical bench parameters */
	int runs;
	int max_runs;
	int runs_per_boot;	/* toggle: rounds per boot; 0: one boot a run */
	int64_t submitter_key_id;	/* 0: none */
	int64_t baseline_id;		/* 0: none */
	const struct variant_spec *variants;
	int nvariants;
};

/*
 * Insert the experiment, its variants and jobs. Runs inside the caller's
 * transaction. Returns the experiment id, or -1 (LAB_INVALID without
 * variants or runs, else a database error).
 */
int64_t planner_create(store_conn *db, const struct experiment_spec *spec,
		       struct lab_err *e);

/*
 * Append @extra_runs more rounds of jobs (continuing the interleave) to
 * an experiment, e.g. when a comparison is inconclusive; the experiment
 * goes back to 'running'. Own transaction. Returns jobs added or -1.
 * Refuses to go beyond the experiment's max_runs (returns 0).
 */
int planner_extend(store_conn *db, int64_t experiment_id, int extra_runs);

/* At most this many looks: analyses whose verdict may be final. */
#define PLANNER_MAX_LOOKS 3

/*
 * Analysis points of an experiment started with @runs rounds and capped at
 * @max_runs: @runs, then max(5, twice the last) up to @max_runs. Points
 * with at least @min_runs rounds are looks (the first PLANNER_MAX_LOOKS of
 * them; none if @max_runs < @min_runs); later points are not planned.
 * Writes the points into @at (up to @max) and the number of looks into
 * @looks; returns the number of points.
 */
int planner_points(int runs, int max_runs, int min_runs, int *at, int max,
		   int *looks);

/*
 * The alpha that the look at @rounds runs a side tests at, of the looks
 * planner_points() plans; they add up to at most @alpha (Bonferroni,
 * spent in order). Each look gets an even share of what is left, except a
 * look whose exact MWU cannot reach that share but can reach what is
 * left with a tenth to spare (5 vs 5 runs: smallest p 2/252 = 0.0079): it
 * gets just that smallest p, so a default 5-run experiment can still
 * decide at 5 runs, and the later looks share the rest.
 * For @rounds off the schedule, the smallest alpha of any look.
 */
double planner_look_alpha(int runs, int max_runs, int min_runs, double alpha,
			  int rounds);

#endif
