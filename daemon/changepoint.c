// SPDX-License-Identifier: MIT
/*
 * E-Divisive means change-point detection; see changepoint.h.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/changepoint.h"
#include "daemon/stats.h"

void cp_opts_default(struct cp_opts *o)
{
	o->window = 50;
	o->min_size = 5;
	o->permutations = 999;
	o->max_p = 0.001;
	o->seed = 0xed1;
}

struct cpscan {
	double *colL, *rowR;	/* scratch, m + 1 each */
	double *perm;		/* scratch copy for permutations */
};

/*
 * Largest energy statistic over splits tau of y[0..m) with both sides
 * >= min; returns it and the split in @tau (0 when no split is allowed).
 */
static double best_split(const double *y, size_t m, size_t min,
			 struct cpscan *s, size_t *tau)
{
	double total = 0, wl = 0, wr, best = -INFINITY;

	*tau = 0;
	if (min < 2)
		min = 2;
	if (m < 2 * min)
		return -INFINITY;
	for (size_t k = 0; k < m; k++) {
		s->colL[k] = 0;
		s->rowR[k] = 0;
	}
	for (size_t i = 0; i < m; i++)
		for (size_t k = i + 1; k < m; k++) {
			double d = fabs(y[i] - y[k]);

			s->colL[k] += d;	/* pairs (i, k), i < k */
			s->rowR[i] += d;	/* pairs (i, k), k > i */
			total += d;
		}
	wr = total;
	/* wl: pairs inside [0, tau); wr: pairs inside [tau, m) */
	for (size_t t = 1; t < m; t++) {
		double l = t, r = m - t, b, e, q;

		wl += s->colL[t - 1];
		wr -= s->rowR[t - 1];
		if (t < min || m - t < min)
			continue;
		b = total - wl - wr;
		e = 2 * b / (l * r) - 2 * wl / (l * (l - 1)) -
		    2 * wr / (r * (r - 1));
		q = l * r / m * e;
		if (q > best) {
			best = q;
			*tau = t;
		}
	}
	return best;
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
