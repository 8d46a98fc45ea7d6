/* SPDX-License-Identifier: MIT */
/*
 * Comparison of one variant against the control.
 *
 * The unit of comparison is the run: each run's per-second IOPS after the
 * warm-up seconds are averaged into a run mean (or the run's exact ns/IO
 * is taken when every run reports it; lower is better there). Per side:
 * median of the run values; delta % of the medians; a seeded percentile
 * bootstrap 95 % CI of that delta over runs; Mann-Whitney U and KS
 * p-values, combined as their minimum (like Pinpoint); effect sizes.
 *
 * Experiments need at least VERDICT_MIN_RUNS runs a side for a verdict;
 * fewer is inconclusive and more runs get planned. Only imported logs
 * (verdict_opts.allow_per_second, `perflab compare`) with fewer than two
 * runs a side fall back to per-second samples, and the text says so:
 * seconds of one boot are not independent, such a verdict speaks about
 * that pair of boots only and never alerts.
 *
 * Verdict at alpha = 0.01 spread over the experiment's planned looks
 * (alpha / looks at each, or as planner_look_alpha() spends it;
 * Bonferroni), MDE at 80 % power:
 *   - fewer than 5 runs a side, or too few for the exact MWU to reach
 *     this look's level: inconclusive;
 *   - MWU p < this look's alpha, the (1 - that alpha) bootstrap CI
 *     excludes 0 and the medians differ by more than the metric's
 *     resolution: regression or improvement. KS is reported, not decided
 *     on, so the rule's level is the MWU's (stats_mwu_level());
 *   - otherwise no change with the MDE of sigma = max(host calibration,
 *     pooled run sd, resolution). When the runs are noisier than the
 *     calibration (chi-square test at alpha) and more runs can come:
 *     inconclusive; at the last look, sigma is the 90 % upper confidence
 *     bound of this experiment's own sd. Without a calibration, sigma is
 *     that upper bound; with no calibration and identical runs there is
 *     no noise estimate: inconclusive.
 */
#ifndef PERFLAB_VERDICT_H
#define PERFLAB_VERDICT_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

enum verdict_kind {
	VERDICT_NO_CHANGE,
	VERDICT_REGRESSION,
	VERDICT_IMPROVEMENT,
	VERDICT_INCONCLUSIVE,
};

/* Rows of common/metric_defs.c: names and directions come from there. */
enum verdict_metric {
	VERDICT_IOPS,		/* METRIC_IOPS */
	VERDICT_NS_PER_IO,	/* METRIC_NS_PER_IO */
};

/* One run as measured. Pointers are borrowed. */
struct verdict_run {
	const double *iops;	/* per-second samples, warm-up included */
	size_t nsamples;
	int warmup;		/* leading seconds to drop */
	double mean;		/* run value when there are no samples (fio) */
	double ns_per_io;	/* exact per-IO cost, 0 if absent */
	double cpu_ns_per_io;	/* user + sys CPU per IO, 0 if absent */
};

struct verdict_opts {
	double alpha;		/* 0.01 */
	double power;		/* 0.80 */
	int resamples;		/* >= 1000 */
	uint64_t seed;
	double host_noise_pct;	/* calibrated sd of run values, % (0: none) */
	int host_noise_runs;	/* runs the calibration used */
	int looks;		/* planned looks, >= 1: alpha/looks each by default */
	double alpha_look;	/* this look's alpha if > 0 (planner_look_alpha) */
	int more_runs;		/* 1: more runs can still be planned */
	int allow_per_second;	/* 1: < 2 runs a side compares seconds (logs) */
	double resolution;	/* metric quantum in its unit (0: from the data) */
};

/* Fewest runs a side for a verdict other than inconclusive. */
#define VERDICT_MIN_RUNS 5

void verdict_opts_default(struct verdict_opts *o);

struct verdict_result {
	enum verdict_kind kind;
	enum verdict_metric metric;
	int per_second;		/* 1: unit is the second, not the run */
	size_t n_ctrl, n_var;	/* units compared */
	double ctrl_median, var_median;
	double ctrl_sd_pct, var_sd_pct;	/* sd of units, % of their mean */
	double delta_pct, ci_lo, ci_hi;	/* 95 % CI */
	double dci_lo, dci_hi;		/* (1 - alpha) CI, for the decision */
	double p, p_mwu, p_ks;
	double hedges_g, cliffs_delta;
	double mde_pct;
	int mde_from_host;
	double host_noise_pct;		/* calibrated sd, when given */
	double pooled_sd_pct;		/* this comparison's pooled sd */
	double noise_limit_pct;		/* largest pooled sd consistent with it */
	double alpha;
	double alpha_look;		/* this look's test level */
	double level;			/* null probability of the MWU rule */
	int looks;
	double sigma_pct;		/* sd behind the MDE */
	double resolution_pct;		/* metric quantum, % of the control */
	int no_noise;			/* no calibration and no observed noise */
	const char *mde_source;
	int resamples;
	char reason[240];
	/*
	 * A design other than independent runs decided the verdict (toggle
	 * experiments, paired.h): the test as one line of text, printed in
	 * place of the MWU line; "" for the default comparison.
	 */
	char design[480];
	/*
	 * 1: a toggle verdict of one boot, exact for that boot only: it
	 * raises no alert (the effect may vary from boot to boot).
	 */
	int one_boot;
};

const char *verdict_kind_str(enum verdict_kind k);
const char *verdict_metric_str(enum verdict_metric m);
/* 1 when a larger value of @m is better (from the metric table). */
int verdict_metric_up_is_better(enum verdict_metric m);

/* Compare unit values (run values, or seconds) of one metric. 0 or -errno. */
int verdict_compare_values(const double *ctrl, size_t n1, const double *var,
			   size_t n2, enum verdict_metric metric,
			   const struct verdict_opts *o,
			   struct verdict_result *r);

/* Compare runs: picks the metric and the unit as described above. */
int verdict_compare_runs(const struct verdict_run *ctrl, size_t n1,
			 const struct verdict_run *var, size_t n2,
			 const struct verdict_opts *o, struct verdict_result *r);

/* ns/IO when every run of both sides reports it, else IOPS. */
enum verdict_metric verdict_pick_metric(const struct verdict_run *ctrl,
					size_t n1,
					const struct verdict_run *var,
					size_t n2);
/* Usable run values of @m (run means or ns/IO) into @out; the count. */
size_t verdict_run_values(const struct verdict_run *runs, size_t n,
			  enum verdict_metric m, double *out);

/* Mean of a run's samples after the warm-up; NAN when none are left. */
double verdict_run_mean(const struct verdict_run *run);

/* "no change (MDE 0.12 % at 10 runs)" */
void verdict_summary(const struct verdict_result *r, char *buf, size_t len);

/* One line of the LKP-style table. */
struct verdict_row {
	char name[96];
	double base, base_sd_pct;
	double new, new_sd_pct;
	double change;		/* % change, or points when @points */
	int has_sd;
	int points;		/* shares in %: change in percentage points */
};

/*
 * Standard rows for two groups of runs: iops (mean of run means), and
 * ns_per_io / cpu_ns_per_io when every run reports them. Returns the
 * number of rows written (at most @max).
 */
size_t verdict_rows(const struct verdict_run *ctrl, size_t n1,
		    const struct verdict_run *var, size_t n2,
		    struct verdict_row *rows, size_t max);

/* A profile symbol's share of samples (in %) on each side. */
void verdict_symbol_row(struct verdict_row *row, const char *sym,
			double base_share, double new_share);

/* Profile samples of one symbol, summed over a side's runs. */
struct verdict_sym {
	const char *name;
	double samples;
};

/*
 * Rows for the top @max symbols by their larger share on either side;
 * @ta/@tb are the sides' total profile samples. Returns the row count.
 */
size_t verdict_symbol_rows(const struct verdict_sym *a, size_t na, double ta,
			   const struct verdict_sym *b, size_t nb, double tb,
			   struct verdict_row *rows, size_t max);

/*
 * MDE (in %) the verdict reports for a per-run noise sd of @noise_pct and
 * n1/n2 runs at this look's alpha (@o->alpha_look, else alpha / looks):
 * the two-sided alpha and the power quantiles of Student's t with
 * n1 + n2 - 2 df, times sqrt(pi/2) for the median (see verdict.c). NAN
 * for fewer than 2 runs a side.
 */
double verdict_mde(double noise_pct, size_t n1, size_t n2,
		   const struct verdict_opts *o);

/*
 * The sd that the true one stays below with probability 0.90, from an
 * observed sd @sd of @df degrees of freedom (chi-square).
 */
double verdict_sigma_ucb(double sd, double df);

/*
 * LKP-shaped text: a header with both names, one line per row
 * "base ±%sd  %change  new ±%sd  metric", then the verdict line with the
 * delta, its CI, the p-values and the MDE. Returns a malloc'd string.
 */
char *verdict_text(const struct verdict_result *r, const char *ctrl_name,
		   const char *var_name, const struct verdict_row *rows,
		   size_t nrows);

/* The result as a JSON object (new reference). */
json_t *verdict_json(const struct verdict_result *r);

#endif
