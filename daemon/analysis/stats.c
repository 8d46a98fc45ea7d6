// SPDX-License-Identifier: MIT
/*
 * Statistics toolkit; see stats.h. References for the methods:
 * Mann & Whitney (1947) for U and its exact null distribution (counted
 * here through the rank-sum recurrence), Hodges (1958) for the exact
 * two-sample KS distribution as a lattice-path count, Kolmogorov's limit
 * beyond 500 x 500, Efron & Tibshirani
 * (1993) for the percentile bootstrap.
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

/* Chi-square quantile, Wilson-Hilferty (relative error < 1e-2 at df 4). */
double stats_chi2_quantile(double p, double df)
{
	double z = stats_norm_quantile(p), k = 2 / (9 * df), c;

	if (!(df > 0) || isnan(z))
		return NAN;
	c = 1 - k + z * sqrt(k);
	return c > 0 ? df * c * c * c : 0;
}

/* ---- ranks -------------------------------------------------------------- */

struct tagged {
	double v;
	int grp;
};

static int cmp_tagged(const void *a, const void *b)
{
	return cmp_double(&((const struct tagged *)a)->v,
			  &((const struct tagged *)b)->v);
}

/*
 * The pooled sample sorted, with tie groups: @grp[g] values of doubled
 * midrank @w2[g] (integers: a midrank is i + 1/2 at worst). Rank sum of
 * the first sample (midranks), doubled in @r2, and the tie term
 * sum(t^3 - t) over groups. @grp and @w2 hold nx + ny entries. 0 or -1.
 */
static int rank_groups(const double *x, size_t nx, const double *y, size_t ny,
		       size_t *grp, long *w2, size_t *ng, long *r2,
		       double *ties)
{
	size_t n = nx + ny, i = 0;
	struct tagged *a = malloc(n * sizeof(*a));

	if (!a)
		return -1;
	for (size_t k = 0; k < nx; k++)
		a[k] = (struct tagged){ x[k], 0 };
	for (size_t k = 0; k < ny; k++)
		a[nx + k] = (struct tagged){ y[k], 1 };
	qsort(a, n, sizeof(*a), cmp_tagged);
	*r2 = 0;
	*ties = 0;
	*ng = 0;
	while (i < n) {
		size_t j = i;
		long rank2;
		double t;

		while (j + 1 < n && a[j + 1].v == a[i].v)
			j++;
		rank2 = (long)(i + j + 2);	/* 2 x the 1-based midrank */
		for (size_t k = i; k <= j; k++)
			if (a[k].grp == 0)
				*r2 += rank2;
		t = j - i + 1;
		*ties += t * t * t - t;
		grp[*ng] = j - i + 1;
		w2[(*ng)++] = rank2;
		i = j + 1;
	}
	free(a);
	return 0;
}

/* ---- Mann-Whitney U ---------------------------------------------------- */

/*
 * Null distribution of U for n1, n2 without ties: cnt[u] = number of
 * n1-subsets of ranks 1..N whose rank sum is u + n1(n1+1)/2. Returned
 * normalised to probabilities; caller frees. NULL on failure.
 */
static double *mwu_dist(size_t n1, size_t n2)
{
	size_t N = n1 + n2, smax = N * (N + 1) / 2, umax = n1 * n2;
	double *c, *p = NULL, total = 0;

	c = calloc((n1 + 1) * (smax + 1), sizeof(*c));
	if (!c)
		return NULL;
#define C(k, s) c[(k) * (smax + 1) + (s)]
	C(0, 0) = 1;
	for (size_t r = 1; r <= N; r++)
		for (size_t k = (r < n1 ? r : n1); k >= 1; k--)
			for (size_t s = smax; s >= r; s--)
				C(k, s) += C(k - 1, s - r);
	p = malloc((umax + 1) * sizeof(*p));
	if (!p)
		goto out;
	for (size_t u = 0; u <= umax; u++) {
		p[u] = C(n1, u + n1 * (n1 + 1) / 2);
		total += p[u];
	}
	for (size_t u = 0; u <= umax; u++)
		p[u] /= total;
#undef C
out:
	free(c);
	return p;
}

double stats_mwu_exact_p(size_t n1, size_t n2, double u)
{
	size_t umax = n1 * n2;
	double *d, lo = 0, hi = 0, p;

	if (!n1 || !n2)
		return NAN;
	d = mwu_dist(n1, n2);
	if (!d)
		return NAN;
	for (size_t k = 0; k <= umax; k++) {
		if (k <= u + 1e-9)
			lo += d[k];
		if (k + 1e-9 >= u)
			hi += d[k];
	}
	free(d);
	p = 2 * (lo < hi ? lo : hi);
	return p > 1 ? 1 : p;
}

double stats_mwu_min_p(size_t n1, size_t n2)
{
	return stats_mwu_exact_p(n1, n2, 0);
}

double stats_mwu_level(size_t n1, size_t n2, double a)
{
	size_t umax = n1 * n2;
	double *d, level = 0, lo = 0;

	if (!n1 || !n2)
		return NAN;
	d = mwu_dist(n1, n2);
	if (!d)
		return NAN;
	/* Symmetric: the rejection region is U <= c or U >= umax - c. */
	for (size_t u = 0; 2 * u < umax; u++) {
		lo += d[u];
		if (2 * lo >= a)
			break;
		level = 2 * lo;
	}
	free(d);
	return level;
}

/*
 * Exact two-sided p of the doubled rank sum @r2 of the first sample (n1
 * of N values) under the permutation distribution on midranks: all
 * C(N, n1) ways to pick the first sample are equally likely. cnt[k][s]
 * counts the ways to give k first-sample values a doubled rank sum s,
 * built tie group by tie group (C(t, j) ways to take j of a group of t).
 * With ties the distribution is not symmetric; the two-sided p doubles
 * the smaller tail (conservative; equal to the usual p without ties).
 */
static double mwu_tied_p(const size_t *grp, const long *w2, size_t ng,
			 size_t n1, size_t N, long r2)
{
	size_t smax = N * (N + 1), used = 0;
	double *c, binom[STATS_MWU_EXACT_MAX * 2 + 1], total = 0, lo = 0, hi = 0;

	c = calloc((n1 + 1) * (smax + 1), sizeof(*c));
	if (!c)
		return NAN;
#define C(k, s) c[(k) * (smax + 1) + (s)]
	C(0, 0) = 1;
	for (size_t g = 0; g < ng; g++) {
		size_t t = grp[g], top;

		binom[0] = 1;
		for (size_t j = 1; j <= t; j++)
			binom[j] = binom[j - 1] * (t - j + 1) / j;
		used += t;
		/*
		 * Descending k reads only smaller k, still of the last group.
		 * k of the first @used values have a doubled midrank sum in
		 * [k(k+1), k(2 used - k + 1)]: midranks only average ranks.
		 */
		for (size_t k = used < n1 ? used : n1; k >= 1; k--) {
			top = k * (2 * used - k + 1);
			if (top > smax)
				top = smax;
			for (size_t s = top + 1; s-- > k * (k + 1);) {
				double acc = 0;

				for (size_t j = 1; j <= t && j <= k; j++) {
					long off = (long)j * w2[g];

					if ((long)s < off)
						break;
					acc += binom[j] * C(k - j, s - off);
				}
				C(k, s) += acc;
			}
		}
	}
	for (size_t s = 0; s <= smax; s++) {
		total += C(n1, s);
		lo += (long)s <= r2 ? C(n1, s) : 0;
		hi += (long)s >= r2 ? C(n1, s) : 0;
	}
#undef C
	free(c);
	return total > 0 ? fmin(1, 2 * fmin(lo, hi) / total) : NAN;
}

int stats_mwu(const double *x, size_t nx, const double *y, size_t ny,
	      struct stats_mwu *out)
{
	size_t N = nx + ny, *grp, ng;
	double n = N, ties, mu, var, z;
	long *w2, r2;
	int ret = -ENOMEM;

	if (!nx || !ny)
		return -EINVAL;
	grp = malloc(N * sizeof(*grp));
	w2 = malloc(N * sizeof(*w2));
	if (!grp || !w2 || rank_groups(x, nx, y, ny, grp, w2, &ng, &r2, &ties))
		goto out;
	out->u = r2 / 2.0 - nx * (nx + 1) / 2.0;
	mu = nx * (double)ny / 2;
	if (nx <= STATS_MWU_EXACT_MAX && ny <= STATS_MWU_EXACT_MAX) {
		out->exact = 1;
		out->p = mwu_tied_p(grp, w2, ng, nx, N, r2);
		ret = isnan(out->p) ? -ENOMEM : 0;
		goto out;
	}
	out->exact = 0;
	ret = 0;
	var = nx * (double)ny / 12 * ((n + 1) - ties / (n * (n - 1)));
	if (var <= 0) {
		out->p = 1;
		goto out;
	}
	z = (fabs(out->u - mu) - 0.5) / sqrt(var);
	if (z < 0)
		z = 0;
	out->p = fmin(1, erfc(z / M_SQRT2));
out:
	free(grp);
	free(w2);
	return ret;
}

/* ---- Kolmogorov-Smirnov ------------------------------------------------ */

/*
 * Kolmogorov limit, used beyond 500 x 500. Without Stephens' correction:
 * that one is anti-conservative for two samples (600 x 600, D = 0.095:
 * 0.0082 against the exact 0.0089; the plain limit gives 0.0089, and
 * stays at or above the exact tail below p = 0.1 there, see
 * tests/unit/stats-ks.c).
 */
static double ks_asymp_p(size_t n1, size_t n2, double d)
{
	double lam = sqrt(n1 * (double)n2 / (n1 + n2)) * d, s = 0;

	if (lam < 0.2)
		return 1;
	for (int k = 1; k <= 100; k++) {
		double term = exp(-2.0 * k * k * lam * lam);

		s += (k & 1) ? term : -term;
		if (term < 1e-17)
			break;
	}
	s *= 2;
	return s < 0 ? 0 : (s > 1 ? 1 : s);
}

/*
 * Exact P(D >= d): one minus the probability that a uniformly random
 * monotone lattice path from (0,0) to (n1,n2) keeps |i/n1 - j/n2| < d,
 * in integer arithmetic on |i*n2 - j*n1| < d*n1*n2. The path is walked
 * with its step probabilities ((n1 - i) / (N - i - j) to the right)
 * rather than counted: the counts overflow a double near 500 x 500.
 */
static double ks_exact_p(size_t n1, size_t n2, double d)
{
	long long lim = llround(d * n1 * n2);
	size_t N = n1 + n2;
	double *u, p;

	u = calloc(n2 + 1, sizeof(*u));
	if (!u)
		return NAN;
	for (size_t j = 0; j <= n2; j++) {
		long long diff = (long long)(j * n1);

		if (diff >= lim)
			break;
		u[j] = j ? u[j - 1] * (double)(n2 - j + 1) / (N - j + 1) : 1;
	}
	for (size_t i = 1; i <= n1; i++)
		for (size_t j = 0; j <= n2; j++) {
			long long diff = (long long)(i * n2) - (long long)(j * n1);
			double left = j ? u[j - 1] * (double)(n2 - j + 1) : 0;
			double down = u[j] * (double)(n1 - i + 1);

			u[j] = llabs(diff) < lim ? (left + down) / (N - i - j + 1) : 0;
		}
	p = 1 - u[n2];
	free(u);
	return p < 0 ? 0 : (p > 1 ? 1 : p);
}

double stats_ks_p(size_t n1, size_t n2, double d)
{
	if (!n1 || !n2)
		return NAN;
	if (d <= 0)
		return 1;
	if (n1 * n2 <= STATS_KS_EXACT_MAX)
		return ks_exact_p(n1, n2, d);
	return ks_asymp_p(n1, n2, d);
}

int stats_ks(const double *x, size_t nx, const double *y, size_t ny,
	     struct stats_ks *out)
{
	double *a, *b, d = 0;
	size_t i = 0, j = 0;

	if (!nx || !ny)
		return -EINVAL;
	a = malloc(nx * sizeof(*a));
	b = malloc(ny * sizeof(*b));
	if (!a || !b) {
		free(a);
		free(b);
		return -ENOMEM;
	}
	memcpy(a, x, nx * sizeof(*a));
	memcpy(b, y, ny * sizeof(*b));
	qsort(a, nx, sizeof(*a), cmp_double);
	qsort(b, ny, sizeof(*b), cmp_double);
	/* Step through distinct values so ties move both ECDFs together. */
	while (i < nx && j < ny) {
		double v = a[i] < b[j] ? a[i] : b[j], diff;

		while (i < nx && a[i] == v)
			i++;
		while (j < ny && b[j] == v)
			j++;
		diff = fabs((double)i / nx - (double)j / ny);
		if (diff > d)
			d = diff;
	}
	free(a);
	free(b);
	/* Snap to the lattice value k / (n1 n2) it must be. */
	out->d = round(d * nx * ny) / ((double)nx * ny);
	out->exact = nx * ny <= STATS_KS_EXACT_MAX;
	out->p = stats_ks_p(nx, ny, out->d);
	return isnan(out->p) ? -ENOMEM : 0;
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
