/* SPDX-License-Identifier: MIT */
/*
 * perfdiff_noise - the noise mark of a sampled perf diff (perfdiff.h): for
 * each symbol, a Welch t test of the difference of its mean per-run share
 * between the two sides, and the Benjamini-Hochberg procedure across the
 * symbols of a compared side so that at most PERFDIFF_NOISE_FDR of the
 * deltas marked real are expected to be noise. In an A/A comparison
 * (nothing real) that bounds the chance that any delta at all is marked
 * real by about PERFDIFF_NOISE_FDR, where the old |delta| <= 2*SE rule
 * marked 18 % of the symbols at 2 runs a side (t with ~2 degrees of
 * freedom is far wider than a normal) and 8 % at 5.
 */
#ifndef PERFLAB_PERFDIFF_NOISE_H
#define PERFLAB_PERFDIFF_NOISE_H

#include <stddef.h>

#define PERFDIFF_NOISE_FDR 0.05

/*
 * Welch-Satterthwaite degrees of freedom of the difference of two means
 * with sample variances @va, @vb over @na, @nb >= 2 values.
 */
double perfdiff_noise_welch_df(double va, size_t na, double vb, size_t nb);

/*
 * Two-sided p-value of a difference @delta of two means (variances @va,
 * @vb over @na, @nb >= 2 values): 1 for no difference and, when both
 * variances are 0, 0 for any other difference.
 */
double perfdiff_noise_welch_p(double delta, double va, size_t na, double vb,
			      size_t nb);

/*
 * Benjamini-Hochberg at level @q: real[i] = 1 for the p-values @p[0..n)
 * declared discoveries, else 0. NAN p-values are left out (real 0) and do
 * not count in n. 0, or -1 when out of memory.
 */
int perfdiff_noise_bh(const double *p, size_t n, double q, unsigned char *real);

#endif
