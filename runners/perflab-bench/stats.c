// SPDX-License-Identifier: MIT
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

double stats_mean(const uint64_t *v, size_t n)
{
	double sum = 0;
	size_t i;

	if (!n)
		return 0;
	for (i = 0; i < n; i++)
		sum += (double)v[i];
	return sum / n;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

double stats_median(const uint64_t *v, size_t n)
{
	uint64_t *c;
	double m;

	if (!n)
		return 0;
	c = malloc(n * sizeof(*c));
	if (!c)
		return NAN;
	memcpy(c, v, n * sizeof(*c));
	qsort(c, n, sizeof(*c), cmp_u64);
	m = n % 2 ? (double)c[n / 2] : ((double)c[n / 2 - 1] + c[n / 2]) / 2;
	free(c);
	return m;
}

double stats_stddev(const uint64_t *v, size_t n)
{
	double mean = stats_mean(v, n), ss = 0;
	size_t i;

	if (n < 2)
		return 0;
	for (i = 0; i < n; i++)
		ss += ((double)v[i] - mean) * ((double)v[i] - mean);
	return sqrt(ss / (n - 1));
}
