/* SPDX-License-Identifier: MIT */
/*
 * "Jobs became claimable": a generation counter the lab bumps (new
 * experiment, a host freed, a lease expired) and runners' claim
 * long-polls wait on.
 */
#ifndef PERFLAB_LAB_QUEUE_H
#define PERFLAB_LAB_QUEUE_H

#include <pthread.h>
#include <stdint.h>

struct job_queue {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	uint64_t gen;
	int stopping;
};

void job_queue_init(struct job_queue *q);
void job_queue_destroy(struct job_queue *q);
/* Wake every waiter for good (daemon shutdown). */
void job_queue_stop(struct job_queue *q);

/* Jobs became claimable: wake the waiters. */
void job_queue_kick(struct job_queue *q);
uint64_t job_queue_gen(struct job_queue *q);
/* Wait up to @ms for a kick after generation @gen; returns the new one. */
uint64_t job_queue_wait(struct job_queue *q, uint64_t gen, int ms);

#endif
