/* SPDX-License-Identifier: MIT */
/*
 * extsched: an external scheduler that runs perflab's jobs on devices it
 * owns (LAVA today: lava_client.c). The lab's worker (lava_worker.h)
 * claims a job for the scheduler's host, renders the scheduler's job,
 * and then only needs these calls; a second scheduler (a Kubernetes
 * batch queue, a vendor's lab API) implements them over its own API.
 * Every call does network I/O: never call one under the writer lock.
 */
#ifndef PERFLAB_EXTSCHED_H
#define PERFLAB_EXTSCHED_H

#include <stddef.h>
#include <stdint.h>

struct lava_lab;

/* A job as the scheduler reports it. */
struct extsched_job {
	char state[32];		/* the scheduler's words, e.g. "Running" */
	char health[32];	/* "Complete", "Incomplete", "Canceled", "" */
	char failure_comment[512];
	int finished;		/* no more changes to come */
	double start_time, end_time; /* UNIX seconds, 0 unknown */
};

struct extsched_ops {
	const char *name;
	/* Submit @definition: 0 and the scheduler's job id, or -1 with err
	 * (*retry set when the scheduler could not be reached or answered
	 * 5xx: the same definition may be sent again later). */
	int (*submit)(const struct lava_lab *lab, const char *definition,
		      int64_t *id, int *retry, char *err, size_t errlen);
	/* The job's state; 0 or -1 with err. A job the scheduler no longer
	 * knows is finished, state "Gone", health "Canceled". */
	int (*status)(const struct lava_lab *lab, int64_t id,
		      struct extsched_job *j, char *err, size_t errlen);
	/* Its log (heap text), for the console and the results. */
	int (*log)(const struct lava_lab *lab, int64_t id, char **text,
		   size_t *len, char *err, size_t errlen);
	/* Cancel it (perflab no longer wants it); 0 or -1. */
	int (*cancel)(const struct lava_lab *lab, int64_t id, char *err,
		      size_t errlen);
	/* Where a person sees the job (heap URL). */
	char *(*job_url)(const struct lava_lab *lab, int64_t id);
};

extern const struct extsched_ops extsched_lava;

#endif
