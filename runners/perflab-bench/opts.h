/* SPDX-License-Identifier: MIT */
/*
 * perflab-bench command line: t/io_uring letters plus perflab extras.
 */
#ifndef PERFLAB_BENCH_OPTS_H
#define PERFLAB_BENCH_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define OPTS_MAX_DEPTH		4096
#define OPTS_MAX_BS		(1U << 20)
#define OPTS_MAX_THREADS	256
#define OPTS_MAX_RUNTIME	86400

struct bench_opts {
	const char *target;
	unsigned int depth;		/* -d */
	unsigned int submit_batch;	/* -s */
	unsigned int complete_batch;	/* -c */
	unsigned int bs;		/* -b */
	bool polled;			/* -p */
	bool fixedbufs;			/* -B */
	bool regfiles;			/* -F */
	bool random;			/* -R */
	unsigned int threads;		/* -n */
	unsigned int runtime;		/* -r, seconds incl. warm-up; 0 = no cap */
	unsigned int warmup;		/* -w */
	bool profile;			/* -P */
	unsigned int profile_freq;	/* --profile-freq */
	const char *json_path;		/* -j */
	uint64_t seed;			/* --seed */
	uint64_t ios;			/* --ios: measured IOs per thread, 0 = off */
};

enum {
	OPTS_OK = 0,
	OPTS_HELP = 1,		/* -h/--help: usage was requested */
	OPTS_ERROR = -1,	/* err holds the reason */
};

void opts_defaults(struct bench_opts *o);
/* Parses argv[1..argc-1]; never prints, never exits. */
int opts_parse(struct bench_opts *o, int argc, char **argv, char *err,
	       size_t errlen);
void opts_usage(FILE *f);

struct opt_table;
/* The option table over @o (tests/unit/opttab-tables checks it). */
void opts_table(struct opt_table *t, struct bench_opts *o, unsigned char *seen);

#endif
