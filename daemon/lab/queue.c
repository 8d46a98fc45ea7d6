// SPDX-License-Identifier: MIT
/*
 * Claimable-jobs wake-ups; see queue.h.
 */
#include <errno.h>
#include <time.h>

#include "daemon/lab/queue.h"

void job_queue_init(struct job_queue *q)
{
	pthread_condattr_t ca;

	pthread_mutex_init(&q->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&q->cond, &ca);
	pthread_condattr_destroy(&ca);
	q->gen = 0;
	q->stopping = 0;
}

void job_queue_destroy(struct job_queue *q)
{
	pthread_cond_destroy(&q->cond);
	pthread_mutex_destroy(&q->lock);
}

void job_queue_stop(struct job_queue *q)
{
	pthread_mutex_lock(&q->lock);
	q->stopping = 1;
	q->gen++;
	pthread_cond_broadcast(&q->cond);
	pthread_mutex_unlock(&q->lock);
}

void job_queue_kick(struct job_queue *q)
{
	pthread_mutex_lock(&q->lock);
	q->gen++;
	pthread_cond_broadcast(&q->cond);
	pthread_mutex_unlock(&q->lock);
}

uint64_t job_queue_gen(struct job_queue *q)
{
	uint64_t g;

	pthread_mutex_lock(&q->lock);
	g = q->gen;
	pthread_mutex_unlock(&q->lock);
	return g;
}

uint64_t job_queue_wait(struct job_queue *q, uint64_t gen, int ms)
{
	struct timespec dl;
	uint64_t g;

	clock_gettime(CLOCK_MONOTONIC, &dl);
	dl.tv_sec += ms / 1000;
	dl.tv_nsec += (long)(ms % 1000) * 1000000;
	if (dl.tv_nsec >= 1000000000) {
		dl.tv_sec++;
		dl.tv_nsec -= 1000000000;
	}
	pthread_mutex_lock(&q->lock);
	while (q->gen == gen && !q->stopping)
		if (pthread_cond_timedwait(&q->cond, &q->lock, &dl) == ETIMEDOUT)
			break;
	g = q->gen;
	pthread_mutex_unlock(&q->lock);
	return g;
}
