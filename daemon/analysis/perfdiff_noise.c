// SPDX-License-Identifier: MIT
/*
 * Welch's test and Benjamini-Hochberg for the perf diff noise mark (see
 * perfdiff_noise.h); the t distribution is stats.c's.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "daemon/analysis/perfdiff_noise.h"
#include "daemon/analysis/stats.h"

double perfdiff_noise_welch_df(double va, size_t na, double vb, size_t nb)
{
	double a = va / (double)na, b = vb / (double)nb;
	double den = a * a / (double)(na - 1) + b * b / (double)(nb - 1);

	if (na < 2 || nb < 2)
		return NAN;
	if (den <= 0)
		return (double)(na + nb - 2);
	return (a + b) * (a + b) / den;
}

double perfdiff_noise_welch_p(double delta, double va, size_t na, double vb,
			      size_t nb)
{
	double se;

	if (na < 2 || nb < 2 || isnan(delta))
		return NAN;
	se = sqrt(va / (double)na + vb / (double)nb);
	if (delta == 0)
		return 1;
	if (!(se > 0))
		return 0;
	return stats_t_tail2(delta / se,
			     perfdiff_noise_welch_df(va, na, vb, nb));
}

struct pidx {
	double p;
	size_t i;
};

static int cmp_p(const void *a, const void *b)
{
	const struct pidx *x = a, *y = b;

	if (x->p != y->p)
		return x->p < y->p ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

int perfdiff_noise_bh(const double *p, size_t n, double q, unsigned char *real)
{
	struct pidx *v = malloc((n ? n : 1) * sizeof(*v));
	size_t m = 0, k = 0, i;

	if (!v)
		return -1;
	for (i = 0; i < n; i++) {
		real[i] = 0;
		if (!isnan(p[i]))
			v[m++] = (struct pidx){ p[i], i };
	}
	qsort(v, m, sizeof(*v), cmp_p);
	/* the largest rank k with p_(k) <= k/m * q; ranks 1..k are real */
	for (i = m; i > 0; i--) {
		if (v[i - 1].p <= (double)i / (double)m * q) {
			k = i;
			break;
		}
	}
	for (i = 0; i < k; i++)
		real[v[i].i] = 1;
	free(v);
	return 0;
}
