/* SPDX-License-Identifier: MIT */
/* Summary statistics over per-second samples. */
#ifndef PERFLAB_BENCH_STATS_H
#define PERFLAB_BENCH_STATS_H

#include <stddef.h>
#include <stdint.h>

double stats_mean(const uint64_t *v, size_t n);
/* Median; sorts a copy. 0 when n == 0, NaN if out of memory. */
double stats_median(const uint64_t *v, size_t n);
/* Sample standard deviation (n - 1); 0 when n < 2. */
double stats_stddev(const uint64_t *v, size_t n);

#endif
