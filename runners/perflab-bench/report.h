/* SPDX-License-Identifier: MIT */
/*
 * Results of a run: per-second lines, the summary line and the JSON file
 * (docs/contracts.md section 1).
 */
#ifndef PERFLAB_BENCH_REPORT_H
#define PERFLAB_BENCH_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "opts.h"
#include "target.h"

struct profile;

struct sample {
	uint64_t iops;		/* IOs completed in this second */
	uint64_t submitted, calls, reaped;
	uint64_t inflight;	/* summed over threads at the tick */
};

struct summary {
	unsigned int warmup;	/* seconds dropped */
	unsigned int seconds;	/* seconds summarised */
	double mean, median, stddev;
	uint64_t total_ios;
	double ns_per_io;	/* --ios: elapsed ns per measured IO, else 0 */
	uint64_t ios_measured;
	uint64_t window_ios;	/* IOs between the window marks, always */
	double user_ns_per_io, sys_ns_per_io;
	uint64_t eagain;
};

struct bench_result {
	const struct bench_opts *o;
	const struct target *t;
	unsigned int flags;	/* WF_* in use */
	char kernel[65];
	struct sample *samples;
	unsigned int nsamples;
	struct summary sum;
	struct profile *prof;	/* NULL without -P */
};

/* "perflab-bench: TARGET (dev), ... ring flags: ..." before the first second. */
void report_print_header(FILE *f, const struct bench_opts *o,
			 const struct target *t, unsigned int flags);
/* "IOPS=3536512, IOS/call=32/31, inflight=(75)" (t/io_uring format). */
void report_print_second(FILE *f, const struct sample *s,
			 const uint64_t *inflight, unsigned int nthreads);
/* Fills r->sum's mean/median/stddev from the samples after warm-up. */
void report_summarise(struct bench_result *r);
void report_print_summary(FILE *f, const struct bench_result *r);
int report_write_json(const struct bench_result *r, const char *path,
		      char *err, size_t len);

#endif
