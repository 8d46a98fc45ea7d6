// SPDX-License-Identifier: MIT
/*
 * E-Divisive means change-point detection; see changepoint.h.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/analysis/changepoint.h"
#include "daemon/analysis/stats.h"

void cp_opts_default(struct cp_opts *o)
{
	o->window = 50;
	o->min_size = 5;
	o->permutations = 999;
	o->max_p = 0.001;
	o->seed = 0xed1;
}

void cp_opts_track(struct cp_opts *o, int min_size, double max_p)
{
	cp_opts_default(o);
	if (min_size > 0)
		o->min_size = min_size;
	if (max_p > 0)
		o->max_p = max_p;
}

struct cpscan {
	double *colL, *rowR;	/* scratch, m + 1 each */
	double *perm;		/* scratch copy for permutations */
};

/*
 * Energy statistic of x = y[0..t), z = y[t..k) (alpha = 1) from the sum
 * of distances between (b) and within the two sides (wl, wr):
 * Q = t (k - t) / k * (2 b / (t r) - 2 wl / (t (t-1)) - 2 wr / (r (r-1))).
 */
static double energy(double t, double r, double b, double wl, double wr)
{
	return t * r / (t + r) *
	       (2 * b / (t * r) - 2 * wl / (t * (t - 1)) - 2 * wr / (r * (r - 1)));
}

/*
 * Largest energy statistic over splits tau and right edges kappa of
 * y[0..m) (Matteson & James 2014: the segment [0, kappa) is split at tau,
 * both sides >= min): a shift followed by another one within the window
 * is measured on the stretch before the second. Returns it and the split
 * in @tau (0 when no split is allowed). O(m^2) with running sums: for each
 * tau, kappa grows and the distances of the new point to [tau, kappa)
 * are added (s->rowR[j] holds sum_{tau <= i < j} |y_i - y_j|).
 */
static double best_split(const double *y, size_t m, size_t min,
			 struct cpscan *s, size_t *tau)
{
	double best = -INFINITY, wl = 0;

	*tau = 0;
	if (min < 2)
		min = 2;
	if (m < 2 * min)
		return -INFINITY;
	/* colL[j]: sum_{i < j} |y_i - y_j| */
	for (size_t j = 0; j < m; j++) {
		s->colL[j] = 0;
		for (size_t i = 0; i < j; i++)
			s->colL[j] += fabs(y[i] - y[j]);
		s->rowR[j] = s->colL[j];
	}
	for (size_t t = 1; t + min <= m; t++) {
		double wr = 0, cross = 0;

		/* Move y[t-1] to the left side. */
		wl += s->colL[t - 1];
		for (size_t j = t; j < m; j++)
			s->rowR[j] -= fabs(y[t - 1] - y[j]);
		/* cross: distances between [0, t) and [t, k) */
		for (size_t k = t + 1; k <= m; k++) {
			size_t j = k - 1;

			wr += s->rowR[j];
			cross += s->colL[j] - s->rowR[j];
			if (t < min || k - t < min)
				continue;
			{
				double q = energy(t, k - t, cross, wl, wr);

				if (q > best) {
					best = q;
					*tau = t;
				}
			}
		}
	}
	return best;
}

double cp_best_split(const double *y, size_t m, size_t min, size_t *tau)
{
	struct cpscan s = { 0 };
	double q = NAN;

	*tau = 0;
	s.colL = malloc((m + 1) * sizeof(double));
	s.rowR = malloc((m + 1) * sizeof(double));
	if (s.colL && s.rowR)
		q = best_split(y, m, min, &s, tau);
	free(s.colL);
	free(s.rowR);
	return q;
}

/* Permutation p-value of @q for y[0..m); stops once p > max_p. */
static double perm_p(const double *y, size_t m, size_t min, double q,
		     const struct cp_opts *o, struct stats_rng *rng,
		     struct cpscan *s)
{
	int hits = 0, done = 0;
	size_t tau;

	memcpy(s->perm, y, m * sizeof(*y));
	for (int b = 0; b < o->permutations; b++) {
		for (size_t i = m - 1; i > 0; i--) {
			size_t j = stats_rng_below(rng, (uint32_t)(i + 1));
			double t = s->perm[i];

			s->perm[i] = s->perm[j];
			s->perm[j] = t;
		}
		hits += best_split(s->perm, m, min, s, &tau) >= q;
		done++;
		if ((1.0 + hits) / (1.0 + o->permutations) > o->max_p)
			break;
	}
	(void)done;
	return (1.0 + hits) / (1.0 + o->permutations);
}

struct cplist {
	struct cp *v;
	size_t n, max;
	int overflow;
};

static int near_accepted(const struct cplist *l, size_t idx, size_t min)
{
	for (size_t i = 0; i < l->n; i++) {
		size_t a = l->v[i].index;

		if ((a > idx ? a - idx : idx - a) < min)
			return 1;
	}
	return 0;
}

/* Binary segmentation of x[a, b) found from the window at @win. */
static void search(const double *x, size_t a, size_t b, size_t win,
		   const struct cp_opts *o, struct stats_rng *rng,
		   struct cpscan *s, struct cplist *l)
{
	size_t tau, min = (size_t)o->min_size;
	double q, p;

	q = best_split(x + a, b - a, min, s, &tau);
	if (!tau || !(q > 0))
		return;
	p = perm_p(x + a, b - a, min, q, o, rng, s);
	if (p > o->max_p)
		return;
	if (!near_accepted(l, a + tau, min)) {
		if (l->n == l->max) {
			l->overflow = 1;
			return;
		}
		l->v[l->n++] = (struct cp){ .index = a + tau, .p = p, .q = q,
					    .window = win };
	}
	search(x, a, a + tau, win, o, rng, s, l);
	search(x, a + tau, b, win, o, rng, s, l);
}

static int cmp_cp(const void *a, const void *b)
{
	size_t x = ((const struct cp *)a)->index, y = ((const struct cp *)b)->index;

	return (x > y) - (x < y);
}

static double seg_mean(const double *x, size_t a, size_t b)
{
	double s = 0;

	for (size_t i = a; i < b; i++)
		s += x[i];
	return b > a ? s / (b - a) : NAN;
}

static void fill_means(const double *x, size_t n, struct cp *v, size_t k)
{
	qsort(v, k, sizeof(*v), cmp_cp);
	for (size_t i = 0; i < k; i++) {
		size_t a = i ? v[i - 1].index : 0;
		size_t b = i + 1 < k ? v[i + 1].index : n;

		v[i].mean_before = seg_mean(x, a, v[i].index);
		v[i].mean_after = seg_mean(x, v[i].index, b);
		v[i].delta_pct = v[i].mean_before ?
			100 * (v[i].mean_after - v[i].mean_before) /
				fabs(v[i].mean_before) : NAN;
	}
}

/* Process the windows starting at @s0 and later; @l holds earlier ones. */
static int scan_from(const double *x, size_t n, size_t s0,
		     const struct cp_opts *o, struct cplist *l)
{
	size_t w = (size_t)o->window, step = w / 2 ? w / 2 : 1;
	struct cpscan s;
	int ret = -ENOMEM;

	s.colL = malloc((w + 1) * sizeof(double));
	s.rowR = malloc((w + 1) * sizeof(double));
	s.perm = malloc((w + 1) * sizeof(double));
	if (!s.colL || !s.rowR || !s.perm)
		goto out;
	for (size_t st = s0; st < n; st += step) {
		size_t e = st + w < n ? st + w : n;
		struct stats_rng rng;

		stats_rng_seed(&rng, o->seed ^ (st * 0x9e3779b97f4a7c15ULL));
		if (e - st >= 2 * (size_t)o->min_size)
			search(x, st, e, st, o, &rng, &s, l);
		if (e == n)
			break;
	}
	ret = l->overflow ? -ENOSPC : 0;
out:
	free(s.colL);
	free(s.rowR);
	free(s.perm);
	return ret;
}

/* Energy statistic of the split of y[0..m) at t, right edge m. */
static double split_q(const double *y, size_t m, size_t t)
{
	double b = 0, wl = 0, wr = 0;

	for (size_t i = 0; i < m; i++)
		for (size_t j = i + 1; j < m; j++) {
			double d = fabs(y[i] - y[j]);

			if (j < t)
				wl += d;
			else if (i >= t)
				wr += d;
			else
				b += d;
		}
	return energy(t, m - t, b, wl, wr);
}

/*
 * Permutation p of change point @idx on x[a, b): its split's statistic
 * against the best split of each permutation of that stretch (so the
 * selection of the split is paid for).
 */
static double retest(const double *x, size_t a, size_t b, size_t idx,
		     const struct cp_opts *o, struct cpscan *s)
{
	size_t m = b - a, min = (size_t)o->min_size;
	struct stats_rng rng;

	if (idx - a < min || b - idx < min)
		return 1;
	stats_rng_seed(&rng, o->seed ^ (idx * 0xc2b2ae3d27d4eb4fULL));
	return perm_p(x + a, m, min, split_q(x + a, m, idx - a), o, &rng, s);
}

int cp_merge(const double *x, size_t n, const struct cp_opts *o,
	     struct cp *v, size_t k)
{
	size_t w = (size_t)o->window, half = w / 2;
	struct cpscan s;
	int ret = -ENOMEM;

	s.colL = malloc((w + 1) * sizeof(double));
	s.rowR = malloc((w + 1) * sizeof(double));
	s.perm = malloc((w + 1) * sizeof(double));
	if (!s.colL || !s.rowR || !s.perm)
		goto out;
	qsort(v, k, sizeof(*v), cmp_cp);
	while (k) {
		size_t worst = 0;

		for (size_t i = 0; i < k; i++) {
			size_t lo = i ? v[i - 1].index : 0;
			size_t hi = i + 1 < k ? v[i + 1].index : n;

			/* The stretch between the neighbours, within a window. */
			if (v[i].index - lo > half)
				lo = v[i].index - half;
			if (hi - v[i].index > half)
				hi = v[i].index + half;
			v[i].p = retest(x, lo, hi, v[i].index, o, &s);
			if (v[i].p > v[worst].p)
				worst = i;
		}
		if (v[worst].p <= o->max_p)
			break;
		/* Drop the weakest; its neighbours are re-tested on the join. */
		memmove(&v[worst], &v[worst + 1], (k - worst - 1) * sizeof(*v));
		k--;
	}
	fill_means(x, n, v, k);
	ret = (int)k;
out:
	free(s.colL);
	free(s.rowR);
	free(s.perm);
	return ret;
}

long cp_find(const struct cp *v, size_t n, size_t idx, size_t min_size)
{
	size_t dist = SIZE_MAX;
	long best = -1;

	for (size_t c = 0; c < n; c++) {
		size_t d = v[c].index > idx ? v[c].index - idx : idx - v[c].index;

		if (d < min_size && d < dist) {
			dist = d;
			best = (long)c;
		}
	}
	return best;
}

int cp_reconcile(struct cp_mark *marks, size_t nmarks, const struct cp *cur,
		 size_t ncur, size_t min_size, unsigned char *fresh)
{
	int promoted = 0;

	for (size_t c = 0; c < ncur; c++)
		fresh[c] = 1;
	for (size_t i = 0; i < nmarks; i++) {
		long best = cp_find(cur, ncur, marks[i].index, min_size);

		if (best < 0) {
			marks[i].state = CP_RETRACTED;
			continue;
		}
		fresh[best] = 0;
		if (marks[i].state == CP_RETRACTED) {
			/* Back again: a candidate, to be confirmed anew. */
			marks[i].state = CP_CANDIDATE;
		} else if (marks[i].state == CP_CANDIDATE) {
			marks[i].state = CP_CONFIRMED;
			promoted++;
		}
	}
	return promoted;
}

static int valid(const struct cp_opts *o)
{
	return o->window >= 4 && o->min_size >= 2 &&
	       o->window >= 2 * o->min_size && o->permutations >= 1 &&
	       o->max_p > 0;
}

int cp_detect(const double *x, size_t n, const struct cp_opts *o,
	      struct cp *out, size_t max)
{
	struct cplist l = { out, 0, max, 0 };

	if (!valid(o))
		return -EINVAL;
	if (scan_from(x, n, 0, o, &l))
		return -1;
	fill_means(x, n, out, l.n);
	return (int)l.n;
}

int cp_update(const double *x, size_t n, size_t nold, const struct cp *prev,
	      size_t nprev, const struct cp_opts *o, struct cp *out,
	      size_t max)
{
	size_t w = (size_t)o->window, step = w / 2 ? w / 2 : 1, s0 = 0;
	struct cplist l = { out, 0, max, 0 };

	if (!valid(o) || nold > n)
		return -EINVAL;
	/* First window whose end moved: it reached past the old end. */
	while (s0 + w <= nold)
		s0 += step;
	/* Windows are processed in start order; keep what earlier ones found. */
	for (size_t i = 0; i < nprev; i++) {
		if (prev[i].window >= s0)
			continue;
		if (l.n == max)
			return -1;
		out[l.n++] = prev[i];
	}
	if (scan_from(x, n, s0, o, &l))
		return -1;
	fill_means(x, n, out, l.n);
	return (int)l.n;
}
