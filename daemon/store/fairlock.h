/* SPDX-License-Identifier: MIT */
/*
 * A FIFO mutex: waiters get the lock in arrival order, so under heavy
 * contention (hundreds of runners claiming at once) no request starves
 * behind later arrivals, as can happen with a plain pthread mutex.
 */
#ifndef PERFLAB_FAIRLOCK_H
#define PERFLAB_FAIRLOCK_H

#include <pthread.h>
#include <stdbool.h>

struct fair_waiter {
	pthread_cond_t cond;
	bool granted;
	struct fair_waiter *next;
};

struct fair_lock {
	pthread_mutex_t m;
	bool held;
	struct fair_waiter *head, *tail;
};

void fair_lock_init(struct fair_lock *l);
void fair_lock_destroy(struct fair_lock *l);
void fair_lock(struct fair_lock *l);
void fair_unlock(struct fair_lock *l);

#endif
