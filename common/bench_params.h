/* SPDX-License-Identifier: MIT */
/*
 * The benchmark parameters of an experiment ("bench" in the API, docs/
 * contracts.md): one table for the daemon, which validates and fills in
 * defaults, and the runner, which turns them into perflab-bench flags, so
 * both accept exactly what perflab-bench itself accepts.
 */
#ifndef PERFLAB_BENCH_PARAMS_H
#define PERFLAB_BENCH_PARAMS_H

#include <stddef.h>

struct bench_param {
	const char *name;	/* key in the "bench" object */
	const char *flag;	/* perflab-bench option taking the value, or NULL */
	char type;		/* 'i' integer, 'b' boolean, 's' string (max = length) */
	long long min, max, def;
};

extern const struct bench_param bench_params[];
extern const size_t bench_params_count;

#endif
