// SPDX-License-Identifier: MIT
/*
 * Paired verdicts for toggle experiments; see paired.h.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/analysis/paired.h"
#include "daemon/analysis/stats.h"
#include "daemon/analysis/verdict.h"

static int by_boot_pos(const void *a, const void *b)
{
	const struct paired_run *x = *(const struct paired_run *const *)a;
	const struct paired_run *y = *(const struct paired_run *const *)b;
	int k = strcmp(x->boot, y->boot);

	return k ? k : (x->pos > y->pos) - (x->pos < y->pos);
}

/* Pointers to the runs with a boot, sorted by boot then position. */
static const struct paired_run **sorted(const struct paired_run *r, size_t n,
					size_t *out)
{
	const struct paired_run **p = calloc(n + 1, sizeof(*p));

	*out = 0;
	if (!p)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (r[i].boot && r[i].boot[0] && r[i].value > 0)
			p[(*out)++] = &r[i];
	qsort(p, *out, sizeof(*p), by_boot_pos);
	return p;
}

/*
 * Pair by boot and position: differences into @d (%), the boot index of
 * each into @b. Returns the number of pairs and the boots in @nboots.
 */
static size_t make_pairs(const struct paired_run **c, size_t nc,
			 const struct paired_run **v, size_t nv, double *d,
			 size_t *b, size_t *nboots)
{
	size_t i = 0, j = 0, n = 0;

	*nboots = 0;
	while (i < nc && j < nv) {
		int k = strcmp(c[i]->boot, v[j]->boot);
		size_t i0 = i, j0 = j, before = n;

		if (k < 0) {
			i++;
			continue;
		}
		if (k > 0) {
			j++;
			continue;
		}
		while (i < nc && !strcmp(c[i]->boot, c[i0]->boot))
			i++;
		while (j < nv && !strcmp(v[j]->boot, v[j0]->boot))
			j++;
		for (size_t k2 = 0; i0 + k2 < i && j0 + k2 < j; k2++) {
			d[n] = 100 * (v[j0 + k2]->value - c[i0 + k2]->value) /
			       c[i0 + k2]->value;
			b[n++] = *nboots;
		}
		if (n > before)
			(*nboots)++;
	}
	return n;
}

/* The units: pair differences, or (several boots) per-boot means. */
static size_t units(const double *d, const size_t *b, size_t n, size_t nboots,
		    double *u)
{
	if (nboots <= 1) {
		memcpy(u, d, n * sizeof(*d));
		return n;
	}
	for (size_t k = 0; k < nboots; k++) {
		double s = 0;
		size_t m = 0;

		for (size_t i = 0; i < n; i++)
			if (b[i] == k) {
				s += d[i];
				m++;
			}
		u[k] = s / m;
	}
	return nboots;
}

static void test(const double *u, size_t n, double alpha_look, double power,
		 double floor_pct, struct paired_result *r)
{
	double se, q, sd;

	r->df = (double)n - 1;
	r->mean_pct = stats_mean(u, n);
	r->sd_pct = stats_stddev(u, n);
	se = r->sd_pct / sqrt((double)n);
	if (se > 0) {
		r->t = r->mean_pct / se;
		r->p = stats_t_tail2(r->t, r->df);
	} else {
		/* Identical differences: certain unless they are all 0. */
		r->t = r->mean_pct ? copysign(INFINITY, r->mean_pct) : 0;
		r->p = r->mean_pct ? 0 : 1;
	}
	q = stats_t_quantile(0.975, r->df);
	r->ci_lo = r->mean_pct - q * se;
	r->ci_hi = r->mean_pct + q * se;
	sd = r->sd_pct > floor_pct ? r->sd_pct : floor_pct;
	r->mde_pct = (stats_t_quantile(1 - alpha_look / 2, r->df) +
		      stats_t_quantile(power, r->df)) *
		     sd / sqrt((double)n);
}

int paired_compare(const struct paired_run *c, size_t nc,
		   const struct paired_run *v, size_t nv, double alpha_look,
		   double power, double floor_pct, struct paired_result *r)
{
	const struct paired_run **sc, **sv;
	size_t n1, n2, *b = NULL;
	double *d = NULL, *u = NULL;
	int ret = -1;

	memset(r, 0, sizeof(*r));
	sc = sorted(c, nc, &n1);
	sv = sorted(v, nv, &n2);
	d = calloc(nc + 1, sizeof(*d));
	u = calloc(nc + 1, sizeof(*u));
	b = calloc(nc + 1, sizeof(*b));
	if (!sc || !sv || !d || !u || !b)
		goto out;
	r->pairs = make_pairs(sc, n1, sv, n2, d, b, &r->boots);
	r->by_boot = r->boots > 1;
	r->units = units(d, b, r->pairs, r->boots, u);
	if (r->units < 2)
		goto out;
	test(u, r->units, alpha_look, power, floor_pct, r);
	ret = 0;
out:
	free(sc);
	free(sv);
	free(d);
	free(u);
	free(b);
	return ret;
}

int paired_verdict(const struct paired_run *pc, size_t nc,
		   const struct paired_run *pv, size_t nv,
		   const struct verdict_opts *o, struct verdict_result *r)
{
	/* This look's level as the planner spends alpha (verdict.h). */
	double alpha_look = o->alpha_look > 0 && o->alpha_look <= o->alpha ?
				    o->alpha_look :
				    o->alpha / (o->looks > 0 ? o->looks : 1);
	struct paired_result p;

	if (paired_compare(pc, nc, pv, nv, alpha_look, o->power,
			   r->resolution_pct, &p) ||
	    p.pairs < VERDICT_MIN_RUNS) {
		r->kind = VERDICT_INCONCLUSIVE;
		r->mde_pct = NAN;
		snprintf(
			r->design, sizeof(r->design),
			"toggle design: %zu"
			" pairs of runs (by position within a boot) in %zu"
			" boots; a paired verdict needs %d pairs and two units",
			p.pairs, p.boots, VERDICT_MIN_RUNS);
		snprintf(r->reason, sizeof(r->reason), "too few pairs");
		return 0;
	}
	r->delta_pct = p.mean_pct;
	r->ci_lo = p.ci_lo;
	r->ci_hi = p.ci_hi;
	r->p = p.p;
	r->mde_pct = p.mde_pct;
	r->sigma_pct = p.sd_pct;
	r->alpha_look = alpha_look;
	r->mde_from_host = 0;
	r->mde_source =
		p.by_boot ?
			"the toggle design over boots (sd of the boots' mean differences)" :
			"the within-boot toggle design (sd of the pair differences)";
	snprintf(
		r->design, sizeof(r->design),
		"toggle design, paired: %zu"
		" pairs by position in %zu boot%s; paired t test on %s (%.0f"
		" df): mean difference %+.4f %% (95 %% CI %+.4f .. %+.4f), p %.3g;"
		" the unpaired MWU p %.3g is not decided on",
		p.pairs, p.boots, p.boots == 1 ? "" : "s",
		p.by_boot ? "the boots' mean differences (boot is the unit)" :
			    "the within-boot pair differences",
		p.df, p.mean_pct, p.ci_lo, p.ci_hi, p.p, r->p_mwu);
	if (p.p < alpha_look && fabs(p.mean_pct) > r->resolution_pct) {
		bool worse = verdict_metric_up_is_better(r->metric) ?
			     p.mean_pct < 0 : p.mean_pct > 0;

		r->kind = worse ? VERDICT_REGRESSION : VERDICT_IMPROVEMENT;
		snprintf(r->reason, sizeof(r->reason), "paired p %.3g < %.3g",
			 p.p, alpha_look);
	} else {
		r->kind = VERDICT_NO_CHANGE;
		snprintf(
			r->reason, sizeof(r->reason),
			p.p < alpha_look ?
				"paired p %.3g < %.3g but within the resolution" :
				"paired p %.3g >= %.3g",
			p.p, alpha_look);
	}
	return 0;
}
