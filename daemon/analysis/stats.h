/* SPDX-License-Identifier: MIT */
/*
 * The analysis library (daemon/analysis/, see its README.md): statistics,
 * verdicts, change points, perf diffs, flame graphs, the ladder fit, patch
 * and log parsing. Pure computation on memory: it knows neither SQLite
 * nor HTTP and includes nothing from the other daemon folders.
 *
 * Small statistics toolkit for verdicts: a seeded PRNG, location/spread
 * helpers, Mann-Whitney U (exact permutation distribution on midranks up
 * to 60 values a side, ties included; normal approximation with tie
 * correction beyond), two-sample Kolmogorov-Smirnov (exact lattice-path
 * probability up to 500 x 500, Kolmogorov distribution beyond), a percentile bootstrap of the
 * relative difference of two groups, effect sizes, the minimum detectable
 * effect, and a least-squares line with R^2.
 *
 * All functions are pure: no global state; randomness comes from a
 * caller-owned struct stats_rng.
 */
#ifndef PERFLAB_STATS_H
#define PERFLAB_STATS_H

#include <stddef.h>
#include <stdint.h>

/* xoshiro256** seeded through splitmix64; same seed, same stream. */
struct stats_rng {
	uint64_t s[4];
};

void stats_rng_seed(struct stats_rng *r, uint64_t seed);
uint64_t stats_rng_next(struct stats_rng *r);
/* Uniform in [0, 1). */
double stats_rng_uniform(struct stats_rng *r);
/* Uniform integer in [0, n), n > 0, without modulo bias. */
uint32_t stats_rng_below(struct stats_rng *r, uint32_t n);
/* Standard normal (Box-Muller). */
double stats_rng_normal(struct stats_rng *r);

double stats_mean(const double *x, size_t n);
/* Sample standard deviation (n - 1); 0 for n < 2. */
double stats_stddev(const double *x, size_t n);
/* Median (average of the middle two for even n); NAN for n == 0. */
double stats_median(const double *x, size_t n);
/* Sorts @x in place, then returns its median. */
double stats_median_inplace(double *x, size_t n);

/* Standard normal CDF and its inverse (0 < p < 1). */
double stats_norm_cdf(double z);
double stats_norm_quantile(double p);
/* Regularised incomplete beta function I_x(a, b), a, b > 0, 0 <= x <= 1. */
double stats_betai(double a, double b, double x);
/* Student t with @df > 0 (real) degrees of freedom: P(|T| >= |t|). */
double stats_t_tail2(double t, double df);
/* The t with P(T <= t) = @p, 0 < p < 1 (exact, by bisection); NAN outside. */
double stats_t_quantile(double p, double df);
/*
 * Power of the two-sided t test at level @alpha with @df degrees of
 * freedom when the true effect is @ncp standard errors: P(|T'| > t(1 -
 * alpha/2, df)) for T' non-central t (integrated over the chi-square
 * density of the variance). stats_nct_ncp(): the @ncp of power @power.
 */
double stats_nct_power(double ncp, double df, double alpha);
double stats_nct_ncp(double power, double df, double alpha);
/* Chi-square quantile (Wilson-Hilferty approximation, see stats.c). */
double stats_chi2_quantile(double p, double df);

struct stats_mwu {
	double u;		/* U of the first sample (pairs x > y, ties 1/2) */
	double p;		/* two-sided p-value */
	int exact;		/* 1: exact permutation distribution */
};

/* Largest sample size a side for which the exact distribution is used. */
#define STATS_MWU_EXACT_MAX 60

int stats_mwu(const double *x, size_t nx, const double *y, size_t ny,
	      struct stats_mwu *out);
/* Exact two-sided p-value of U = @u for sample sizes n1, n2 (no ties). */
double stats_mwu_exact_p(size_t n1, size_t n2, double u);
/* Smallest two-sided p-value the exact test can reach for n1, n2. */
double stats_mwu_min_p(size_t n1, size_t n2);
/*
 * Real level of "exact two-sided p < @a" without ties: the null
 * probability of that rejection region (at most @a, often well below:
 * 0.0079 for 5/5 runs at a = 0.01).
 */
double stats_mwu_level(size_t n1, size_t n2, double a);

struct stats_ks {
	double d;		/* sup |F1 - F2| */
	double p;		/* two-sided p-value */
	int exact;
};

/* Largest n1 * n2 for which the exact lattice-path probability is used. */
#define STATS_KS_EXACT_MAX 250000

int stats_ks(const double *x, size_t nx, const double *y, size_t ny,
	     struct stats_ks *out);
/* Two-sided p-value P(D >= d) for sample sizes n1, n2. */
double stats_ks_p(size_t n1, size_t n2, double d);

enum stats_estimator {
	STATS_MEDIAN,
	STATS_MEAN,
};

struct stats_boot {
	double point;		/* 100 * (est(y) - est(x)) / est(x) */
	double lo, hi;		/* percentile interval at @level */
	int resamples;
};

/*
 * Percentile bootstrap of the relative difference (in %) of @y against @x:
 * each resample draws nx values from x and ny from y with replacement.
 * Needs nx, ny >= 1 and @resamples >= 100. Returns 0 or -1.
 */
int stats_bootstrap_delta(const double *x, size_t nx, const double *y,
			  size_t ny, enum stats_estimator est, int resamples,
			  double level, uint64_t seed, struct stats_boot *out);

/*
 * The same resampling, returning the sorted bootstrap distribution of the
 * delta (malloc'd, @resamples values) and the point estimate in @point.
 */
double *stats_bootstrap_dist(const double *x, size_t nx, const double *y,
			     size_t ny, enum stats_estimator est, int resamples,
			     uint64_t seed, double *point);
/* Linear-interpolated quantile q in [0, 1] of sorted @s[0..n). */
double stats_quantile_sorted(const double *s, size_t n, double q);

/* Hedges' g: (mean(y) - mean(x)) / pooled sd, small-sample corrected. */
double stats_hedges_g(const double *x, size_t nx, const double *y, size_t ny);
/* Cliff's delta in [-1, 1]: P(y > x) - P(y < x). */
double stats_cliffs_delta(const double *x, size_t nx, const double *y,
			  size_t ny);

/*
 * Minimum detectable effect (same unit as @sd1/@sd2) of a two-sided test
 * at @alpha with @power, for groups of n1 and n2 with standard deviations
 * sd1 and sd2: (z(1 - alpha/2) + z(power)) * sqrt(sd1^2/n1 + sd2^2/n2).
 */
double stats_mde(double sd1, size_t n1, double sd2, size_t n2, double alpha,
		 double power);

struct stats_linfit {
	double slope, intercept;
	double r2;		/* coefficient of determination */
	double slope_se;	/* standard error of the slope (n > 2) */
	size_t n;
};

/* Ordinary least squares y = a + b x; needs n >= 2 and x not constant. */
int stats_linfit(const double *x, const double *y, size_t n,
		 struct stats_linfit *out);

#endif
