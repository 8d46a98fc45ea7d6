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

	if (!k)
		k = (x->round > y->round) - (x->round < y->round);
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

/* One pair: its difference, its boot and which side ran first. */
static void add_pair(const struct paired_run *c, const struct paired_run *v,
		     size_t boot, double *d, size_t *b, int *cfirst, size_t *n)
{
	d[*n] = 100 * (v->value - c->value) / c->value;
	b[*n] = boot;
	cfirst[*n] = c->pos < v->pos;
	(*n)++;
}

/* The pairs of one boot: runs of one round, else by position. */
static void boot_pairs(const struct paired_run **c, size_t nc,
		       const struct paired_run **v, size_t nv, size_t boot,
		       double *d, size_t *b, int *cfirst, size_t *n)
{
	size_t i = 0, j = 0;

	if (nc && nv && c[0]->round > 0 && v[0]->round > 0) {
		while (i < nc && j < nv) {
			if (c[i]->round < v[j]->round)
				i++;
			else if (c[i]->round > v[j]->round)
				j++;
			else
				add_pair(c[i++], v[j++], boot, d, b, cfirst, n);
		}
		return;
	}
	for (; i < nc && i < nv; i++)
		add_pair(c[i], v[i], boot, d, b, cfirst, n);
}

/*
 * Pair by boot and round: differences into @d (%), the boot index of
 * each into @b, 1 in @cfirst when the control ran first. Returns the
 * number of pairs and the boots in @nboots.
 */
static size_t make_pairs(const struct paired_run **c, size_t nc,
			 const struct paired_run **v, size_t nv, double *d,
			 size_t *b, int *cfirst, size_t *nboots)
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
		boot_pairs(c + i0, i - i0, v + j0, j - j0, *nboots, d, b, cfirst,
			   &n);
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
	r->sd_ucb_pct = verdict_sigma_ucb(r->sd_pct, r->df);
	sd = r->sd_ucb_pct > floor_pct ? r->sd_ucb_pct : floor_pct;
	r->mde_pct = stats_nct_ncp(power, r->df, alpha_look) * sd / sqrt((double)n);
}

/* Half the difference of the mean pair difference by who ran first. */
static void carry_over(const double *d, const int *cfirst, size_t n,
		       struct paired_result *r)
{
	double s[2] = { 0 }, q[2] = { 0 }, m[2], var[2], se, t;
	size_t k[2] = { 0 };

	r->carry_pct = r->carry_lo = r->carry_hi = NAN;
	for (size_t i = 0; i < n; i++) {
		s[cfirst[i]] += d[i];
		k[cfirst[i]]++;
	}
	if (k[0] < 2 || k[1] < 2)
		return;
	for (int g = 0; g < 2; g++)
		m[g] = s[g] / k[g];
	for (size_t i = 0; i < n; i++)
		q[cfirst[i]] += (d[i] - m[cfirst[i]]) * (d[i] - m[cfirst[i]]);
	for (int g = 0; g < 2; g++)
		var[g] = q[g] / (k[g] - 1) / k[g];
	se = sqrt(var[0] + var[1]) / 2;
	t = stats_t_quantile(0.975, (double)(k[0] < k[1] ? k[0] : k[1]) - 1);
	r->carry_pct = (m[1] - m[0]) / 2;
	r->carry_lo = r->carry_pct - t * se;
	r->carry_hi = r->carry_pct + t * se;
}

int paired_compare(const struct paired_run *c, size_t nc,
		   const struct paired_run *v, size_t nv, double alpha_look,
		   double power, double floor_pct, struct paired_result *r)
{
	const struct paired_run **sc, **sv;
	size_t n1, n2, *b = NULL;
	double *d = NULL, *u = NULL;
	int *cfirst = NULL, ret = -1;

	memset(r, 0, sizeof(*r));
	sc = sorted(c, nc, &n1);
	sv = sorted(v, nv, &n2);
	d = calloc(nc + 1, sizeof(*d));
	u = calloc(nc + 1, sizeof(*u));
	b = calloc(nc + 1, sizeof(*b));
	cfirst = calloc(nc + 1, sizeof(*cfirst));
	if (!sc || !sv || !d || !u || !b || !cfirst)
		goto out;
	r->pairs = make_pairs(sc, n1, sv, n2, d, b, cfirst, &r->boots);
	carry_over(d, cfirst, r->pairs, r);
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
	free(cfirst);
	return ret;
}

/* The design line: the test, the boots caveat, the carry-over. */
static void design_text(const struct paired_result *p, struct verdict_result *r)
{
	char boots[160] = "", carry[120] = "";

	if (p->boots == 1)
		snprintf(boots, sizeof(boots), "; this boot only: exact for the"
			 " one boot measured, not for the kernel (the effect can"
			 " differ from boot to boot), so no alert");
	else if (p->boots < PAIRED_MIN_BOOTS)
		snprintf(boots, sizeof(boots), "; only %zu boots: the boot-to-boot"
			 " spread is barely known (%d or more advised)", p->boots,
			 PAIRED_MIN_BOOTS);
	if (isfinite(p->carry_pct))
		snprintf(carry, sizeof(carry), "; carry-over (order effect) %+.4f %%"
			 " (95 %% CI %+.4f .. %+.4f), cancelled by the ABBA order",
			 p->carry_pct, p->carry_lo, p->carry_hi);
	snprintf(r->design, sizeof(r->design),
		 "toggle design, paired: %zu pairs by round in %zu boot%s;"
		 " paired t test on %s (%.0f df): mean difference %+.4f %%"
		 " (95 %% CI %+.4f .. %+.4f), p %.3g; the unpaired MWU p %.3g is"
		 " not decided on%s%s", p->pairs, p->boots,
		 p->boots == 1 ? "" : "s",
		 p->by_boot ? "the boots' mean differences (boot is the unit)" :
			      "the within-boot pair differences",
		 p->df, p->mean_pct, p->ci_lo, p->ci_hi, p->p, r->p_mwu, boots,
		 carry);
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
			" pairs of runs (by round within a boot) in %zu"
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
	r->sigma_pct = p.sd_ucb_pct;
	r->alpha_look = alpha_look;
	r->mde_from_host = 0;
	r->mde_source =
		p.by_boot ?
			"the toggle design over boots (90 % upper bound of the sd of the boots' mean differences, non-central t)" :
			"the within-boot toggle design (90 % upper bound of the sd of the pair differences, non-central t)";
	r->one_boot = p.boots == 1;
	design_text(&p, r);
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
