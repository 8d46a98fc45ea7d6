// SPDX-License-Identifier: MIT
/*
 * Variant-versus-control verdicts and the LKP-style table; see verdict.h.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/metric_defs.h"
#include "stats.h"
#include "verdict.h"

void verdict_opts_default(struct verdict_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->alpha = 0.01;
	o->power = 0.80;
	o->resamples = 2000;
	o->seed = 0x5eed001;
}

const char *verdict_kind_str(enum verdict_kind k)
{
	switch (k) {
	case VERDICT_NO_CHANGE:
		return "no change";
	case VERDICT_REGRESSION:
		return "regression";
	case VERDICT_IMPROVEMENT:
		return "improvement";
	default:
		return "inconclusive";
	}
}

_Static_assert((int)VERDICT_IOPS == METRIC_IOPS &&
	       (int)VERDICT_NS_PER_IO == METRIC_NS_PER_IO,
	       "verdict metrics are rows of the metric table");

const char *verdict_metric_str(enum verdict_metric m)
{
	return metric_defs[m].name;
}

/* 1 when a positive delta of @m is an improvement. */
int verdict_metric_up_is_better(enum verdict_metric m)
{
	return metric_defs[m].dir == METRIC_HIGHER_IS_BETTER;
}

/*
 * The decision rests on medians (robust to one odd boot), whose asymptotic
 * efficiency against the mean is 2/pi for normal noise: the same power
 * needs an effect sqrt(pi/2) times larger than the t formula says.
 * bench/stats-power checks that the resulting MDE is detected >= 80 %.
 */
#define MEDIAN_ARE_FACTOR 1.2533141373155001

/* Upper confidence bound of sigma from a sample sd: one-sided 90 %. */
#define SIGMA_UCB_LEVEL 0.90

static double sd_pct(const double *x, size_t n)
{
	double m = stats_mean(x, n);

	return n > 1 && m != 0 ? 100 * stats_stddev(x, n) / fabs(m) : 0;
}

/* Pooled within-group sd as % of the control mean. */
static double pooled_sd_pct(const double *a, size_t n1, const double *b,
			    size_t n2)
{
	double sa = stats_stddev(a, n1), sb = stats_stddev(b, n2);
	double m = stats_mean(a, n1);

	if (n1 + n2 < 3 || m == 0)
		return NAN;
	return 100 / fabs(m) *
	       sqrt(((n1 - 1) * sa * sa + (n2 - 1) * sb * sb) / (n1 + n2 - 2));
}

/*
 * Largest sample sd (df degrees of freedom) consistent at level alpha with
 * a true sd of @sd: sd * sqrt(chi2_{1-alpha}(df) / df).
 */
static double noise_limit(double sd, double df, double alpha)
{
	return sd * sqrt(stats_chi2_quantile(1 - alpha, df) / df);
}

double verdict_sigma_ucb(double sd, double df)
{
	return sd * sqrt(df / stats_chi2_quantile(1 - SIGMA_UCB_LEVEL, df));
}

/*
 * The values' decimal quantum: the largest 10^-k (k <= 9) of which every
 * value is a multiple (2408.60 and 2415.81: 0.01); 0 when none is.
 */
static double decimal_quantum(const double *x, size_t n)
{
	double q = 1, big = 0;

	for (size_t i = 0; i < n; i++)
		big = fmax(big, fabs(x[i]));
	/* Below ~1e4 ulps every double looks like a multiple. */
	for (int k = 0; k <= 9 && q > 1e4 * DBL_EPSILON * big; k++, q /= 10) {
		size_t i;

		for (i = 0; i < n; i++) {
			double m = q * nearbyint(x[i] / q);

			if (fabs(x[i] - m) > 4 * DBL_EPSILON * fabs(x[i]))
				break;
		}
		if (i == n)
			return q;
	}
	return 0;
}

static double look_alpha(const struct verdict_opts *o)
{
	if (o->alpha_look > 0 && o->alpha_look <= o->alpha)
		return o->alpha_look;
	return o->alpha / (o->looks > 1 ? o->looks : 1);
}

double verdict_mde(double noise_pct, size_t n1, size_t n2,
		   const struct verdict_opts *o)
{
	double a = look_alpha(o), df = (double)n1 + n2 - 2;

	if (n1 < 2 || n2 < 2 || !(noise_pct >= 0))
		return NAN;
	return MEDIAN_ARE_FACTOR * noise_pct * sqrt(1.0 / n1 + 1.0 / n2) *
	       (stats_t_quantile(1 - a / 2, df) + stats_t_quantile(o->power, df));
}

/* Too few units for any verdict; 1 when decided. */
static int too_few(struct verdict_result *r)
{
	const char *unit = r->per_second ? "seconds" : "runs";
	double pmin;

	if (r->n_ctrl < VERDICT_MIN_RUNS || r->n_var < VERDICT_MIN_RUNS) {
		r->kind = VERDICT_INCONCLUSIVE;
		snprintf(r->reason, sizeof(r->reason),
			 "need at least %d %s a side (have %zu/%zu)",
			 VERDICT_MIN_RUNS, unit, r->n_ctrl, r->n_var);
		return 1;
	}
	pmin = r->n_ctrl <= STATS_MWU_EXACT_MAX && r->n_var <= STATS_MWU_EXACT_MAX ?
		       stats_mwu_min_p(r->n_ctrl, r->n_var) : 0;
	if (pmin >= r->alpha_look) {
		r->kind = VERDICT_INCONCLUSIVE;
		snprintf(r->reason, sizeof(r->reason),
			 "%zu/%zu %s cannot reach p < %.3g (alpha %g spread over %d looks; best p %.3g)",
			 r->n_ctrl, r->n_var, unit, r->alpha_look, r->alpha,
			 r->looks, pmin);
		return 1;
	}
	return 0;
}

/*
 * sigma behind the MDE (see verdict.h). Returns 0, or 1 when the runs are
 * noisier than the calibration and more runs can come (inconclusive).
 */
static int pick_sigma(struct verdict_result *r, const struct verdict_opts *o)
{
	double df = (double)r->n_ctrl + r->n_var - 2, own = NAN;

	if (df >= 1 && isfinite(r->pooled_sd_pct) && r->pooled_sd_pct > 0)
		own = verdict_sigma_ucb(r->pooled_sd_pct, df);
	if (o->host_noise_pct > 0) {
		r->mde_from_host = 1;
		r->host_noise_pct = o->host_noise_pct;
		r->noise_limit_pct = df >= 1 ? noise_limit(o->host_noise_pct, df,
							   o->alpha) : NAN;
		if (!(r->pooled_sd_pct > r->noise_limit_pct)) {
			r->mde_source = "the host's A/A calibration";
			r->sigma_pct = fmax(o->host_noise_pct,
					    isfinite(r->pooled_sd_pct) ?
						    r->pooled_sd_pct : 0);
		} else if (o->more_runs) {
			r->sigma_pct = own;
			r->mde_source = "this experiment's noise (90 % upper bound)";
			return 1;
		} else {
			r->mde_from_host = 0;
			r->sigma_pct = own;
			r->mde_source = "this experiment's noise (90 % upper bound), above the host's calibration";
		}
	} else {
		r->sigma_pct = own;
		r->mde_source = "this comparison's own noise (90 % upper bound; host not calibrated)";
		r->no_noise = !isfinite(own);
	}
	if (isfinite(r->sigma_pct))
		r->sigma_pct = fmax(r->sigma_pct, r->resolution_pct);
	return 0;
}

static void decide(struct verdict_result *r, const struct verdict_opts *o)
{
	int better = verdict_metric_up_is_better(r->metric) ?
		     r->delta_pct > 0 : r->delta_pct < 0;
	int noisy = pick_sigma(r, o), ci_out = r->dci_lo > 0 || r->dci_hi < 0;
	double diff = fabs(r->var_median - r->ctrl_median);
	/* One quantum apart is within the resolution (rounding slack). */
	double res = r->resolution_pct * fabs(r->ctrl_median) / 100 * (1 + 1e-6);

	r->mde_pct = verdict_mde(r->sigma_pct, r->n_ctrl, r->n_var, o);
	if (too_few(r))
		return;
	if (r->p < r->alpha_look && ci_out && diff > res) {
		r->kind = better ? VERDICT_IMPROVEMENT : VERDICT_REGRESSION;
		snprintf(r->reason, sizeof(r->reason),
			 "MWU p %.3g < %.3g (alpha %g spread over %d looks; the rule's level %.3g) and the %g %% CI excludes 0",
			 r->p, r->alpha_look, r->alpha, r->looks, r->level,
			 100 * (1 - r->alpha_look));
		return;
	}
	r->kind = VERDICT_INCONCLUSIVE;
	if (noisy) {
		snprintf(r->reason, sizeof(r->reason),
			 "not significant (p %.3g) but run noise %.3g %% exceeds the host's calibrated %.3g %% (limit %.3g %%): more runs",
			 r->p, r->pooled_sd_pct, r->host_noise_pct,
			 r->noise_limit_pct);
		return;
	}
	if (r->no_noise || !isfinite(r->mde_pct)) {
		r->no_noise = 1;
		snprintf(r->reason, sizeof(r->reason),
			 "no noise estimate: identical runs and no host calibration");
		return;
	}
	r->kind = VERDICT_NO_CHANGE;
	if (r->p >= r->alpha_look)
		snprintf(r->reason, sizeof(r->reason), "p %.3g >= %.3g", r->p,
			 r->alpha_look);
	else if (!ci_out)
		snprintf(r->reason, sizeof(r->reason),
			 "p %.3g < %.3g but the %g %% CI includes 0", r->p,
			 r->alpha_look, 100 * (1 - r->alpha_look));
	else
		snprintf(r->reason, sizeof(r->reason),
			 "p %.3g < %.3g but the medians differ by no more than the metric's resolution",
			 r->p, r->alpha_look);
}

int verdict_compare_values(const double *ctrl, size_t n1, const double *var,
			   size_t n2, enum verdict_metric metric,
			   const struct verdict_opts *o,
			   struct verdict_result *r)
{
	struct stats_mwu mwu;
	struct stats_ks ks;
	double *dist, *all, q;
	int ret;

	memset(r, 0, sizeof(*r));
	if (!n1 || !n2)
		return -EINVAL;
	r->metric = metric;
	r->n_ctrl = n1;
	r->n_var = n2;
	r->alpha = o->alpha;
	r->looks = o->looks > 1 ? o->looks : 1;
	r->alpha_look = look_alpha(o);
	r->mde_source = "";
	r->resamples = o->resamples;
	r->ctrl_median = stats_median(ctrl, n1);
	r->var_median = stats_median(var, n2);
	r->ctrl_sd_pct = sd_pct(ctrl, n1);
	r->var_sd_pct = sd_pct(var, n2);
	if (o->resamples < 1000 || !(o->alpha > 0 && o->alpha < 0.5))
		return -EINVAL;
	dist = stats_bootstrap_dist(ctrl, n1, var, n2, STATS_MEDIAN,
				    o->resamples, o->seed, &r->delta_pct);
	if (!dist)
		return -ENOMEM;
	r->ci_lo = stats_quantile_sorted(dist, o->resamples, 0.025);
	r->ci_hi = stats_quantile_sorted(dist, o->resamples, 0.975);
	r->dci_lo = stats_quantile_sorted(dist, o->resamples, r->alpha_look / 2);
	r->dci_hi = stats_quantile_sorted(dist, o->resamples,
					  1 - r->alpha_look / 2);
	free(dist);
	r->pooled_sd_pct = pooled_sd_pct(ctrl, n1, var, n2);
	ret = stats_mwu(ctrl, n1, var, n2, &mwu);
	if (!ret)
		ret = stats_ks(ctrl, n1, var, n2, &ks);
	if (ret)
		return ret;
	r->p_mwu = mwu.p;
	r->p_ks = ks.p;
	r->p = mwu.p;
	r->level = mwu.exact ? stats_mwu_level(n1, n2, r->alpha_look) :
			       r->alpha_look;
	r->hedges_g = stats_hedges_g(ctrl, n1, var, n2);
	r->cliffs_delta = stats_cliffs_delta(ctrl, n1, var, n2);
	all = malloc((n1 + n2) * sizeof(*all));
	if (!all)
		return -ENOMEM;
	memcpy(all, ctrl, n1 * sizeof(*all));
	memcpy(all + n1, var, n2 * sizeof(*all));
	q = fmax(o->resolution, decimal_quantum(all, n1 + n2));
	free(all);
	r->resolution_pct = r->ctrl_median ? 100 * q / fabs(r->ctrl_median) : 0;
	decide(r, o);
	return 0;
}

double verdict_run_mean(const struct verdict_run *run)
{
	size_t w = run->warmup > 0 ? (size_t)run->warmup : 0;

	if (!run->nsamples && run->mean > 0)
		return run->mean;
	if (run->nsamples <= w)
		return NAN;
	return stats_mean(run->iops + w, run->nsamples - w);
}

/* Run values of one side; returns how many were usable. */
size_t verdict_run_values(const struct verdict_run *runs, size_t n,
			 enum verdict_metric m, double *out)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		double v = m == VERDICT_NS_PER_IO ? runs[i].ns_per_io :
						    verdict_run_mean(&runs[i]);

		if (isfinite(v) && v > 0)
			out[k++] = v;
	}
	return k;
}

/* Every post-warm-up second of every run of one side; caller frees. */
static double *second_values(const struct verdict_run *runs, size_t n,
			     size_t *count)
{
	size_t total = 0, k = 0;
	double *v;

	for (size_t i = 0; i < n; i++)
		if (runs[i].nsamples > (size_t)(runs[i].warmup > 0 ? runs[i].warmup : 0))
			total += runs[i].nsamples - (runs[i].warmup > 0 ? runs[i].warmup : 0);
	v = malloc((total ? total : 1) * sizeof(*v));
	if (!v)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		size_t w = runs[i].warmup > 0 ? (size_t)runs[i].warmup : 0;

		for (size_t s = w; s < runs[i].nsamples; s++)
			v[k++] = runs[i].iops[s];
	}
	*count = k;
	return v;
}

static int all_have_ns(const struct verdict_run *runs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!(runs[i].ns_per_io > 0))
			return 0;
	return n > 0;
}

enum verdict_metric verdict_pick_metric(const struct verdict_run *ctrl,
					size_t n1,
					const struct verdict_run *var,
					size_t n2)
{
	return all_have_ns(ctrl, n1) && all_have_ns(var, n2) ?
		       VERDICT_NS_PER_IO : VERDICT_IOPS;
}

/*
 * IOPS quantum: per-second samples count whole batches, so their greatest
 * common divisor (of the integral ones; 1 when some are not) is one batch
 * per second.
 */
static double iops_quantum(const struct verdict_run *runs, size_t n)
{
	unsigned long long g = 0;

	for (size_t i = 0; i < n; i++)
		for (size_t s = 0; s < runs[i].nsamples; s++) {
			double v = runs[i].iops[s];
			unsigned long long x, t;

			if (!(v >= 1 && v < 1e15) || v != nearbyint(v))
				return 1;
			x = (unsigned long long)v;
			while (x) {
				t = g % x;
				g = x;
				x = t;
			}
		}
	return g ? (double)g : 1;
}

int verdict_compare_runs(const struct verdict_run *ctrl, size_t n1,
			 const struct verdict_run *var, size_t n2,
			 const struct verdict_opts *o, struct verdict_result *r)
{
	struct verdict_opts oo = *o;
	enum verdict_metric m;
	double *a = NULL, *b = NULL;
	size_t k1, k2;
	int ret = -ENOMEM;

	if (!n1 || !n2)
		return -EINVAL;
	m = verdict_pick_metric(ctrl, n1, var, n2);
	if (m == VERDICT_IOPS)
		oo.resolution = fmax(o->resolution,
				     fmax(iops_quantum(ctrl, n1),
					  iops_quantum(var, n2)));
	a = malloc(n1 * sizeof(*a));
	b = malloc(n2 * sizeof(*b));
	if (!a || !b)
		goto out;
	k1 = verdict_run_values(ctrl, n1, m, a);
	k2 = verdict_run_values(var, n2, m, b);
	ret = -EINVAL;
	if ((k1 >= 2 && k2 >= 2) || (!o->allow_per_second && k1 && k2)) {
		/* Experiments: runs are the unit, too few is inconclusive. */
		ret = verdict_compare_values(a, k1, b, k2, m, &oo, r);
		goto out;
	}
	if (!o->allow_per_second)
		goto out;
	/* Imported logs with one run a side: per-second IOPS of those runs. */
	free(a);
	free(b);
	b = NULL;
	ret = -ENOMEM;
	a = second_values(ctrl, n1, &k1);
	if (a)
		b = second_values(var, n2, &k2);
	if (!a || !b)
		goto out;
	ret = -EINVAL;
	if (!k1 || !k2)
		goto out;
	oo.looks = 1;
	oo.more_runs = 0;
	ret = verdict_compare_values(a, k1, b, k2, VERDICT_IOPS, &oo, r);
	if (!ret) {
		r->per_second = 1;
		decide(r, &oo);
	}
out:
	free(a);
	free(b);
	return ret;
}

/* Enough digits to show a small percentage: 0.12, 0.0043. */
static void fmt_pct(char *buf, size_t len, double x)
{
	int dec = 2;

	if (!isfinite(x)) {
		snprintf(buf, len, "?");
		return;
	}
	if (fabs(x) > 0 && fabs(x) < 0.1)
		dec = 1 - (int)floor(log10(fabs(x))) + 1;
	if (dec > 6)
		dec = 6;
	snprintf(buf, len, "%.*f", dec, x);
}

void verdict_summary(const struct verdict_result *r, char *buf, size_t len)
{
	const char *unit = r->per_second ? "seconds" : "runs";
	char mde[48] = "no noise estimate", n[48];

	if (r->n_ctrl == 1 && r->n_var == 1)
		unit = r->per_second ? "second" : "run";

	if (r->n_ctrl == r->n_var)
		snprintf(n, sizeof(n), "%zu %s", r->n_var, unit);
	else
		snprintf(n, sizeof(n), "%zu/%zu %s", r->n_ctrl, r->n_var, unit);
	if (r->no_noise) {
		snprintf(buf, len, "%s (no noise estimate, %s)",
			 verdict_kind_str(r->kind), n);
		return;
	}
	if (isfinite(r->mde_pct)) {
		fmt_pct(mde + 4, sizeof(mde) - 4, r->mde_pct);
		memcpy(mde, "MDE ", 4);
		strcat(mde, " %");
	} else {
		snprintf(mde, sizeof(mde), "MDE unknown");
	}
	snprintf(buf, len, "%s (%s at %s%s)", verdict_kind_str(r->kind), mde, n,
		 r->per_second ? " of one boot a side" : "");
}

/* ---- LKP table -------------------------------------------------------------- */

static void row_init(struct verdict_row *row, const char *name,
		     const double *a, size_t na, const double *b, size_t nb)
{
	memset(row, 0, sizeof(*row));
	snprintf(row->name, sizeof(row->name), "%s", name);
	row->base = stats_mean(a, na);
	row->new = stats_mean(b, nb);
	row->base_sd_pct = sd_pct(a, na);
	row->new_sd_pct = sd_pct(b, nb);
	row->has_sd = na > 1 || nb > 1;
	row->change = row->base ? 100 * (row->new - row->base) / row->base : 0;
}

size_t verdict_rows(const struct verdict_run *ctrl, size_t n1,
		    const struct verdict_run *var, size_t n2,
		    struct verdict_row *rows, size_t max)
{
	double *a = malloc((n1 + 1) * sizeof(*a));
	double *b = malloc((n2 + 1) * sizeof(*b));
	size_t nrows = 0, k1, k2;

	if (!a || !b)
		goto out;
	k1 = verdict_run_values(ctrl, n1, VERDICT_IOPS, a);
	k2 = verdict_run_values(var, n2, VERDICT_IOPS, b);
	if (nrows < max && (k1 < 2 || k2 < 2)) {
		/* One run a side: mean and sd of its seconds, as compared. */
		double *sa = second_values(ctrl, n1, &k1), *sb = NULL;

		if (sa)
			sb = second_values(var, n2, &k2);
		if (sa && sb && k1 && k2)
			row_init(&rows[nrows++], "iops", sa, k1, sb, k2);
		free(sa);
		free(sb);
	} else if (nrows < max && k1 && k2) {
		row_init(&rows[nrows++], "iops", a, k1, b, k2);
	}
	if (nrows < max && all_have_ns(ctrl, n1) && all_have_ns(var, n2)) {
		k1 = verdict_run_values(ctrl, n1, VERDICT_NS_PER_IO, a);
		k2 = verdict_run_values(var, n2, VERDICT_NS_PER_IO, b);
		row_init(&rows[nrows++], "ns_per_io", a, k1, b, k2);
	}
	k1 = k2 = 0;
	for (size_t i = 0; i < n1; i++)
		if (ctrl[i].cpu_ns_per_io > 0)
			a[k1++] = ctrl[i].cpu_ns_per_io;
	for (size_t i = 0; i < n2; i++)
		if (var[i].cpu_ns_per_io > 0)
			b[k2++] = var[i].cpu_ns_per_io;
	if (nrows < max && k1 == n1 && k2 == n2 && k1 && k2)
		row_init(&rows[nrows++], "cpu_ns_per_io", a, k1, b, k2);
out:
	free(a);
	free(b);
	return nrows;
}

void verdict_symbol_row(struct verdict_row *row, const char *sym,
			double base_share, double new_share)
{
	memset(row, 0, sizeof(*row));
	snprintf(row->name, sizeof(row->name), "perf-profile.self.%s", sym);
	row->base = base_share;
	row->new = new_share;
	row->change = new_share - base_share;
	row->points = 1;
}

static double sym_share(const struct verdict_sym *s, size_t n, double total,
			const char *name)
{
	for (size_t k = 0; k < n; k++)
		if (!strcmp(s[k].name, name))
			return 100 * s[k].samples / total;
	return 0;
}

size_t verdict_symbol_rows(const struct verdict_sym *a, size_t na, double ta,
			   const struct verdict_sym *b, size_t nb, double tb,
			   struct verdict_row *rows, size_t max)
{
	const size_t skip = strlen("perf-profile.self.");
	size_t n = 0;

	if (!(ta > 0) || !(tb > 0) || !max)
		return 0;
	for (int side = 0; side < 2; side++) {
		const struct verdict_sym *g = side ? b : a;
		size_t ng = side ? nb : na;

		for (size_t k = 0; k < ng; k++) {
			const char *name = g[k].name;
			double sa = sym_share(a, na, ta, name);
			double sb = sym_share(b, nb, tb, name);
			double m = fmax(sa, sb);
			size_t pos, dup = 0;

			for (size_t i = 0; i < n; i++)
				dup |= !strcmp(rows[i].name + skip, name);
			if (dup)
				continue;
			/* insertion into the list sorted by larger share */
			for (pos = n; pos > 0 && fmax(rows[pos - 1].base,
						      rows[pos - 1].new) < m; pos--)
				;
			if (pos >= max)
				continue;
			if (n < max)
				n++;
			memmove(&rows[pos + 1], &rows[pos],
				(n - 1 - pos) * sizeof(*rows));
			verdict_symbol_row(&rows[pos], name, sa, sb);
		}
	}
	return n;
}

static void fmt_value(char *buf, size_t len, double v, int share)
{
	if (share)
		snprintf(buf, len, "%.2f%%", v);
	else if (fabs(v) >= 1000)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.2f", v);
}

static void print_row(FILE *f, const struct verdict_row *row)
{
	char b[32], n[32], bs[16] = "", ns[16] = "", ch[32];

	fmt_value(b, sizeof(b), row->base, row->points);
	fmt_value(n, sizeof(n), row->new, row->points);
	if (row->has_sd) {
		snprintf(bs, sizeof(bs), "±%5.2f%%", row->base_sd_pct);
		snprintf(ns, sizeof(ns), "±%5.2f%%", row->new_sd_pct);
	}
	if (row->points)
		snprintf(ch, sizeof(ch), "%+.2f", row->change);
	else
		snprintf(ch, sizeof(ch), "%+.3f%%", row->change);
	fprintf(f, "%12s %-8s %10s %12s %-8s %s\n", b, bs, ch, n, ns, row->name);
}

/* Table header: the last path component (names are often log files). */
static const char *short_name(const char *s)
{
	const char *slash = strrchr(s, '/');

	return slash && slash[1] ? slash + 1 : s;
}

char *verdict_text(const struct verdict_result *r, const char *ctrl_name,
		   const char *var_name, const struct verdict_row *rows,
		   size_t nrows)
{
	char *buf = NULL, sum[160], d[32], lo[32], hi[32], mde[32];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	fprintf(f, "%21.20s %23.22s\n", short_name(ctrl_name), short_name(var_name));
	fprintf(f, "--------------------- --------------------------------\n");
	fprintf(f, "%21s %10s %19s\n", "%stddev", "%change", "%stddev");
	fprintf(f, "%21s %10s %19s\n", "\\", "|", "\\");
	for (size_t i = 0; i < nrows; i++)
		print_row(f, &rows[i]);
	verdict_summary(r, sum, sizeof(sum));
	snprintf(d, sizeof(d), "%+.3f", r->delta_pct);
	snprintf(lo, sizeof(lo), "%+.3f", r->ci_lo);
	snprintf(hi, sizeof(hi), "%+.3f", r->ci_hi);
	fmt_pct(mde, sizeof(mde), r->mde_pct);
	fprintf(f, "\n%s: %s %s\n", var_name, verdict_metric_str(r->metric), sum);
	if (r->design[0])
		fprintf(f, "  %s\n", r->design);
	else
		fprintf(f, "  delta of medians %s %% (95 %% CI %s .. %s, %d resamples), p %.3g (MWU, exact up to 60 a side; KS %.3g shown, not decided on), Hedges g %.2f, Cliff's delta %.2f\n",
			d, lo, hi, r->resamples, r->p, r->p_ks, r->hedges_g,
			r->cliffs_delta);
	fprintf(f, "  test at %.3g (alpha %g spread over %d planned looks), real level %.3g\n",
		r->alpha_look, r->alpha, r->looks, r->level);
	if (isfinite(r->mde_pct))
		fprintf(f, "  MDE %s %% from %s (sigma %.3g %%); %s\n", mde,
			r->mde_source, r->sigma_pct, r->reason);
	else
		fprintf(f, "  %s\n", r->reason);
	if (r->per_second)
		fprintf(f, "  note: one run a side, so the unit is the second; seconds of one boot are not independent, this speaks for these two boots only and never raises an alert\n");
	fclose(f);
	return buf;
}

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

json_t *verdict_json(const struct verdict_result *r)
{
	char sum[160];
	json_t *j;

	verdict_summary(r, sum, sizeof(sum));
	j = json_pack("{s:s, s:s, s:s, s:s, s:I, s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:b, s:f, s:i, s:s}",
		      "verdict", verdict_kind_str(r->kind),
		      "summary", sum,
		      "metric", verdict_metric_str(r->metric),
		      "unit", r->per_second ? "second" : "run",
		      "n_control", (json_int_t)r->n_ctrl,
		      "n_variant", (json_int_t)r->n_var,
		      "control_median", num(r->ctrl_median),
		      "variant_median", num(r->var_median),
		      "control_sd_pct", num(r->ctrl_sd_pct),
		      "variant_sd_pct", num(r->var_sd_pct),
		      "delta_pct", num(r->delta_pct),
		      "ci_low", num(r->ci_lo),
		      "ci_high", num(r->ci_hi),
		      "p", num(r->p),
		      "p_mwu", num(r->p_mwu),
		      "p_ks", num(r->p_ks),
		      "hedges_g", num(r->hedges_g),
		      "cliffs_delta", num(r->cliffs_delta),
		      "mde_pct", num(r->mde_pct),
		      "mde_from_host", r->mde_from_host,
		      "alpha", r->alpha,
		      "resamples", r->resamples,
		      "reason", r->reason);
	if (!j)
		return NULL;
	/* Added fields; readers of the older shape ignore them. */
	json_object_set_new(j, "alpha_look", num(r->alpha_look));
	json_object_set_new(j, "looks", json_integer(r->looks));
	json_object_set_new(j, "level", num(r->level));
	json_object_set_new(j, "sigma_pct", num(r->sigma_pct));
	json_object_set_new(j, "resolution_pct", num(r->resolution_pct));
	json_object_set_new(j, "no_noise_estimate", json_boolean(r->no_noise));
	json_object_set_new(j, "mde_source", json_string(r->mde_source ?
							  r->mde_source : ""));
	if (r->design[0])
		json_object_set_new(j, "design", json_string(r->design));
	return j;
}
