// SPDX-License-Identifier: MIT
/*
 * Student t tail and quantile, Welch's test and Benjamini-Hochberg for
 * the perf diff noise mark (see perfdiff_noise.h). Kept here rather than
 * in stats.c: they serve the per-symbol table only, and the t quantile
 * needs real (Welch) degrees of freedom.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "daemon/perfdiff_noise.h"

/* Continued fraction of I_x(a, b) (modified Lentz), x < (a+1)/(a+b+2). */
static double betacf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h, num, del;
	int m;

	d = 1 / (fabs(d) < tiny ? tiny : d);
	h = d;
	for (m = 1; m <= 1000; m++) {
		/* even step */
		num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		d = 1 + num * d;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = 1 + num / c;
		c = fabs(c) < tiny ? tiny : c;
		h *= d * c;
		/* odd step */
		num = -(a + m) * (a + b + m) * x /
		      ((a + 2 * m) * (a + 2 * m + 1));
		d = 1 + num * d;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = 1 + num / c;
		c = fabs(c) < tiny ? tiny : c;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-15)
			break;
	}
	return h;
}

double pd_betai(double a, double b, double x)
{
	double front;

	if (!(a > 0 && b > 0) || !(x >= 0 && x <= 1))
		return NAN;
	if (x == 0 || x == 1)
		return x;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
		    b * log1p(-x));
	/* the fraction converges fast on the side below the mean */
	if (x < (a + 1) / (a + b + 2))
		return front * betacf(a, b, x) / a;
	return 1 - front * betacf(b, a, 1 - x) / b;
}

double pd_t_tail2(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return 0;
	/* P(|T| >= t) = I_{df/(df+t^2)}(df/2, 1/2) */
	return pd_betai(df / 2, 0.5, df / (df + t * t));
}

double pd_t_quantile(double p, double df)
{
	double lo = 0, hi = 1, mid, want;
	int i;

	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	if (p == 0.5)
		return 0;
	if (p < 0.5)
		return -pd_t_quantile(1 - p, df);
	want = 2 * (1 - p); /* two-sided tail at the quantile */
	while (pd_t_tail2(hi, df) > want && hi < 1e300)
		hi *= 2;
	/* the tail falls monotonically in t: bisect to the last bit */
	for (i = 0; i < 200 && hi - lo > DBL_EPSILON * hi; i++) {
		mid = (lo + hi) / 2;
		if (pd_t_tail2(mid, df) > want)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

double pd_welch_df(double va, size_t na, double vb, size_t nb)
{
	double a = va / (double)na, b = vb / (double)nb;
	double den = a * a / (double)(na - 1) + b * b / (double)(nb - 1);

	if (na < 2 || nb < 2)
		return NAN;
	if (den <= 0)
		return (double)(na + nb - 2);
	return (a + b) * (a + b) / den;
}

double pd_welch_p(double delta, double va, size_t na, double vb, size_t nb)
{
	double se;

	if (na < 2 || nb < 2 || isnan(delta))
		return NAN;
	se = sqrt(va / (double)na + vb / (double)nb);
	if (delta == 0)
		return 1;
	if (!(se > 0))
		return 0;
	return pd_t_tail2(delta / se, pd_welch_df(va, na, vb, nb));
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

int pd_bh(const double *p, size_t n, double q, unsigned char *real)
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
