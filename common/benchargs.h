/* SPDX-License-Identifier: MIT */
/*
 * benchargs: a job's "bench" object -> perflab-bench flags, by the table
 * of common/bench_params.c. Only known keys with integer/bool values in
 * range are accepted, so the result is safe to put on a kernel command
 * line (no spaces, quotes or shell text). The runner builds the command
 * it runs from it, the daemon the command line it shows.
 */
#ifndef PERFLAB_BENCHARGS_H
#define PERFLAB_BENCHARGS_H

#include <jansson.h>
#include <stddef.h>

struct benchargs {
	char *v[48];		/* flags and values, heap strings */
	int n;
	int runtime;		/* seconds, for timeouts */
	int warmup;
	long long ios;
};

/* 0 ok; -1 with err ("bench.depth: must be 1..65536"). */
int benchargs_from_json(const json_t *bench, struct benchargs *a, char *err,
			size_t errlen);
/* Flags joined by sep into a new string ("-d,128,-s,32,..."). */
char *benchargs_join(const struct benchargs *a, char sep);
/* Remove a value-less flag (e.g. "-P"); 1 if it was there. */
int benchargs_drop(struct benchargs *a, const char *flag);
void benchargs_free(struct benchargs *a);

/*
 * The command line perflab-bench runs for @bench (an experiment's bench
 * parameters, or a run's "params" as the bench reported them):
 * "perflab-bench FLAGS... TARGET", TARGET the object's "target" or, when
 * it names none, @target. Malloc'd, or NULL when @bench is not valid.
 */
char *benchargs_command(const json_t *bench, const char *target);

#endif
