// SPDX-License-Identifier: MIT
/*
 * Statistics toolkit; see stats.h. The rank tests (Mann-Whitney U,
 * Kolmogorov-Smirnov) are ranktests.c. Efron & Tibshirani (1993) for the
 * percentile bootstrap.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

/* ---- PRNG ------------------------------------------------------------- */

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void stats_rng_seed(struct stats_rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t stats_rng_next(struct stats_rng *r)
{
	uint64_t *s = r->s;
	uint64_t res = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return res;
}

double stats_rng_uniform(struct stats_rng *r)
{
	return (stats_rng_next(r) >> 11) * 0x1.0p-53;
}

uint32_t stats_rng_below(struct stats_rng *r, uint32_t n)
{
	/* Lemire's multiply-shift with rejection of the biased low zone. */
	uint64_t m = (uint64_t)(uint32_t)stats_rng_next(r) * n;
	uint32_t lo = (uint32_t)m;

	if (lo < n) {
		uint32_t thresh = -n % n;

		while (lo < thresh) {
			m = (uint64_t)(uint32_t)stats_rng_next(r) * n;
			lo = (uint32_t)m;
		}
	}
	return m >> 32;
}

double stats_rng_normal(struct stats_rng *r)
{
	double u1, u2;

	do
		u1 = stats_rng_uniform(r);
	while (u1 <= 0.0);
	u2 = stats_rng_uniform(r);
	return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

/* ---- location and spread ---------------------------------------------- */

double stats_mean(const double *x, size_t n)
{
	double s = 0;

	if (!n)
		return NAN;
	/*
	 * Summed as offsets from x[0]: exact for constant data (7 and 10
	 * copies of 2408.6 have the same mean, so Hedges' g is 0, not NaN)
	 * and less rounding for values far from 0.
	 */
	for (size_t i = 1; i < n; i++)
		s += x[i] - x[0];
	return x[0] + s / n;
}

double stats_stddev(const double *x, size_t n)
{
	double m, s = 0;
	size_t i;

	if (n < 2)
		return 0;
	/*
	 * Identical values: exactly 0. The two-pass formula below leaves a
	 * rounding residue of the mean for some n (2408.6 x 7 gives ~1e-13),
	 * which turned Hedges' g into 1e13 or NaN.
	 */
	for (i = 1; i < n && x[i] == x[0]; i++)
		;
	if (i == n)
		return 0;
	m = stats_mean(x, n);
	for (i = 0; i < n; i++)
		s += (x[i] - m) * (x[i] - m);
	return sqrt(s / (n - 1));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double stats_median_inplace(double *x, size_t n)
{
	if (!n)
		return NAN;
	qsort(x, n, sizeof(*x), cmp_double);
	if (n & 1)
		return x[n / 2];
	return (x[n / 2 - 1] + x[n / 2]) / 2;
}

double stats_median(const double *x, size_t n)
{
	double *c, m;

	if (!n)
		return NAN;
	c = malloc(n * sizeof(*c));
	if (!c)
		return NAN;
	memcpy(c, x, n * sizeof(*c));
	m = stats_median_inplace(c, n);
	free(c);
	return m;
}

/* ---- normal distribution ---------------------------------------------- */

double stats_norm_cdf(double z)
{
	return 0.5 * erfc(-z / M_SQRT2);
}

double stats_norm_quantile(double p)
{
	double lo = -40, hi = 40;

	if (!(p > 0 && p < 1))
		return NAN;
	/* Bisection on the CDF: slow but exact to double precision. */
	for (int i = 0; i < 200 && hi - lo > 1e-15; i++) {
		double mid = (lo + hi) / 2;

		if (stats_norm_cdf(mid) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/*
 * Student t quantile: the Cornish-Fisher expansion of Abramowitz & Stegun
 * 26.7.5 around the normal quantile (within 1e-3 of the tables for df >= 4
 * at the 0.995 quantile; the MDE uses df >= 8).
 */
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

double stats_betai(double a, double b, double x)
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

double stats_t_tail2(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return 0;
	/* P(|T| >= t) = I_{df/(df+t^2)}(df/2, 1/2) */
	return stats_betai(df / 2, 0.5, df / (df + t * t));
}

double stats_t_quantile(double p, double df)
{
	double lo = 0, hi = 1, mid, want;
	int i;

	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	if (p == 0.5)
		return 0;
	if (p < 0.5)
		return -stats_t_quantile(1 - p, df);
	want = 2 * (1 - p); /* two-sided tail at the quantile */
	while (stats_t_tail2(hi, df) > want && hi < 1e300)
		hi *= 2;
	/* the tail falls monotonically in t: bisect to the last bit */
	for (i = 0; i < 200 && hi - lo > DBL_EPSILON * hi; i++) {
		mid = (lo + hi) / 2;
		if (stats_t_tail2(mid, df) > want)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/*
 * T' = (Z + ncp) / sqrt(V / df), V ~ chi2(df): P(|T'| > c) given V = v is
 * Phi(ncp - c s) + Phi(-ncp - c s), s = sqrt(v / df); integrated over
 * w = sqrt(v) (its density 2 w f(w^2) stays finite at 0 for df >= 1) by
 * Simpson's rule on [0, sqrt(df + 12 sqrt(2 df) + 12)].
 */
static double nct_power_c(double ncp, double df, double c)
{
	double top, h, sum = 0;
	int n = 400;

	if (!(df >= 1) || !isfinite(c))
		return NAN;
	top = sqrt(df + 12 * sqrt(2 * df) + 12);
	h = top / n;
	for (int i = 0; i <= n; i++) {
		double w = i * h, g, wt;

		g = w > 0 ? exp(log(2) + (df - 1) * log(w) - w * w / 2 -
				(df / 2) * log(2) - lgamma(df / 2)) :
			    (df == 1 ? sqrt(2 / M_PI) : 0);
		wt = i == 0 || i == n ? 1 : i % 2 ? 4 : 2;
		sum += wt * g * (stats_norm_cdf(ncp - c * w / sqrt(df)) +
				 stats_norm_cdf(-ncp - c * w / sqrt(df)));
	}
	return sum * h / 3;
}

double stats_nct_power(double ncp, double df, double alpha)
{
	return nct_power_c(ncp, df, stats_t_quantile(1 - alpha / 2, df));
}

double stats_nct_ncp(double power, double df, double alpha)
{
	double lo = 0, hi = 1, c = stats_t_quantile(1 - alpha / 2, df);

	if (!(df >= 1) || !(power > 0 && power < 1) || !isfinite(c))
		return NAN;
	while (nct_power_c(hi, df, c) < power && hi < 1e6) {
		lo = hi;
		hi *= 2;
	}
	/* to 1e-5 of the ncp: far below what an MDE is printed to */
	while (hi - lo > 1e-5 * hi) {
		double mid = (lo + hi) / 2;

		if (nct_power_c(mid, df, c) < power)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* Chi-square quantile, Wilson-Hilferty (relative error < 1e-2 at df 4). */
double stats_chi2_quantile(double p, double df)
{
	double z = stats_norm_quantile(p), k = 2 / (9 * df), c;

	if (!(df > 0) || isnan(z))
		return NAN;
	c = 1 - k + z * sqrt(k);
	return c > 0 ? df * c * c * c : 0;
}

/* ---- bootstrap ------------------------------------------------------------ */

/* The k-th smallest of x[0..n) (Hoare's selection); reorders @x. */
static double select_kth(double *x, size_t n, size_t k)
{
	long lo = 0, hi = (long)n - 1, kk = (long)k;

	while (lo < hi) {
		double pivot = x[lo + (hi - lo) / 2], t;
		long i = lo, j = hi;

		while (i <= j) {
			while (x[i] < pivot)
				i++;
			while (x[j] > pivot)
				j--;
			if (i <= j) {
				t = x[i];
				x[i++] = x[j];
				x[j--] = t;
			}
		}
		/* Now x[lo..j] <= pivot <= x[i..hi], x(j..i) == pivot. */
		if (kk <= j)
			hi = j;
		else if (kk >= i)
			lo = i;
		else
			break;
	}
	return x[kk];
}

/* Median in O(n): the bootstrap takes thousands of them. */
static double estimate(double *buf, size_t n, enum stats_estimator est)
{
	double hi, lo = -INFINITY;

	if (est == STATS_MEAN)
		return stats_mean(buf, n);
	hi = select_kth(buf, n, n / 2);
	if (n & 1)
		return hi;
	/* The lower middle is the largest of the lower half. */
	for (size_t i = 0; i < n / 2; i++)
		lo = fmax(lo, buf[i]);
	return (lo + hi) / 2;
}

double stats_quantile_sorted(const double *s, size_t n, double q)
{
	double pos = q * (n - 1);
	size_t k = (size_t)pos;

	if (!n)
		return NAN;
	if (k + 1 >= n)
		return s[n - 1];
	return s[k] + (pos - k) * (s[k + 1] - s[k]);
}

double *stats_bootstrap_dist(const double *x, size_t nx, const double *y,
			     size_t ny, enum stats_estimator est, int resamples,
			     uint64_t seed, double *point)
{
	struct stats_rng rng;
	double *bx, *by, *d, ex, ey;

	if (!nx || !ny || resamples < 100)
		return NULL;
	bx = malloc(nx * sizeof(*bx));
	by = malloc(ny * sizeof(*by));
	d = malloc(resamples * sizeof(*d));
	if (!bx || !by || !d)
		goto fail;
	memcpy(bx, x, nx * sizeof(*bx));
	memcpy(by, y, ny * sizeof(*by));
	ex = estimate(bx, nx, est);
	ey = estimate(by, ny, est);
	if (ex == 0)
		goto fail;
	*point = 100 * (ey - ex) / ex;
	stats_rng_seed(&rng, seed);
	for (int b = 0; b < resamples; b++) {
		for (size_t k = 0; k < nx; k++)
			bx[k] = x[stats_rng_below(&rng, nx)];
		for (size_t k = 0; k < ny; k++)
			by[k] = y[stats_rng_below(&rng, ny)];
		ex = estimate(bx, nx, est);
		ey = estimate(by, ny, est);
		d[b] = ex ? 100 * (ey - ex) / ex : 0;
	}
	qsort(d, resamples, sizeof(*d), cmp_double);
	free(bx);
	free(by);
	return d;
fail:
	free(bx);
	free(by);
	free(d);
	return NULL;
}

int stats_bootstrap_delta(const double *x, size_t nx, const double *y,
			  size_t ny, enum stats_estimator est, int resamples,
			  double level, uint64_t seed, struct stats_boot *out)
{
	double *d;

	if (!nx || !ny || resamples < 100 || !(level > 0 && level < 1))
		return -EINVAL;
	d = stats_bootstrap_dist(x, nx, y, ny, est, resamples, seed, &out->point);
	if (!d)
		return -ENOMEM;
	out->lo = stats_quantile_sorted(d, resamples, (1 - level) / 2);
	out->hi = stats_quantile_sorted(d, resamples, 1 - (1 - level) / 2);
	out->resamples = resamples;
	free(d);
	return 0;
}

/* ---- effect sizes, MDE ----------------------------------------------------- */

double stats_hedges_g(const double *x, size_t nx, const double *y, size_t ny)
{
	double sx = stats_stddev(x, nx), sy = stats_stddev(y, ny), sp, df;

	if (nx + ny < 3)
		return NAN;
	df = nx + ny - 2;
	sp = sqrt(((nx - 1) * sx * sx + (ny - 1) * sy * sy) / df);
	if (sp == 0)
		return stats_mean(y, ny) == stats_mean(x, nx) ? 0 : NAN;
	return (stats_mean(y, ny) - stats_mean(x, nx)) / sp *
	       (1 - 3 / (4 * df - 1));
}

double stats_cliffs_delta(const double *x, size_t nx, const double *y,
			  size_t ny)
{
	long long gt = 0, lt = 0;

	if (!nx || !ny)
		return NAN;
	for (size_t i = 0; i < nx; i++)
		for (size_t j = 0; j < ny; j++) {
			gt += y[j] > x[i];
			lt += y[j] < x[i];
		}
	return (double)(gt - lt) / ((double)nx * ny);
}

double stats_mde(double sd1, size_t n1, double sd2, size_t n2, double alpha,
		 double power)
{
	if (!n1 || !n2)
		return NAN;
	return (stats_norm_quantile(1 - alpha / 2) + stats_norm_quantile(power)) *
	       sqrt(sd1 * sd1 / n1 + sd2 * sd2 / n2);
}

/* ---- regression --------------------------------------------------------- */

int stats_linfit(const double *x, const double *y, size_t n,
		 struct stats_linfit *out)
{
	double mx, my, sxx = 0, sxy = 0, syy = 0, sse;

	if (n < 2)
		return -EINVAL;
	mx = stats_mean(x, n);
	my = stats_mean(y, n);
	for (size_t i = 0; i < n; i++) {
		sxx += (x[i] - mx) * (x[i] - mx);
		sxy += (x[i] - mx) * (y[i] - my);
		syy += (y[i] - my) * (y[i] - my);
	}
	if (sxx == 0)
		return -EDOM;
	out->n = n;
	out->slope = sxy / sxx;
	out->intercept = my - out->slope * mx;
	sse = syy - out->slope * sxy;
	if (sse < 0)
		sse = 0;
	out->r2 = syy > 0 ? 1 - sse / syy : 1;
	out->slope_se = n > 2 ? sqrt(sse / (n - 2) / sxx) : NAN;
	return 0;
}
