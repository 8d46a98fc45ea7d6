// SPDX-License-Identifier: MIT
/*
 * FIFO mutex: a queue of waiters, each with its own condition variable;
 * unlock hands the lock directly to the oldest waiter.
 */
#include "daemon/store/fairlock.h"

void fair_lock_init(struct fair_lock *l)
{
	pthread_mutex_init(&l->m, NULL);
	l->held = false;
	l->head = l->tail = NULL;
}

void fair_lock_destroy(struct fair_lock *l)
{
	pthread_mutex_destroy(&l->m);
}

void fair_lock(struct fair_lock *l)
{
	struct fair_waiter w = { .granted = false, .next = NULL };

	pthread_mutex_lock(&l->m);
	if (!l->held && !l->head) {
		l->held = true;
		pthread_mutex_unlock(&l->m);
		return;
	}
	pthread_cond_init(&w.cond, NULL);
	if (l->tail)
		l->tail->next = &w;
	else
		l->head = &w;
	l->tail = &w;
	while (!w.granted)
		pthread_cond_wait(&w.cond, &l->m);
	pthread_mutex_unlock(&l->m);
	pthread_cond_destroy(&w.cond);
}

void fair_unlock(struct fair_lock *l)
{
	struct fair_waiter *w;

	pthread_mutex_lock(&l->m);
	w = l->head;
	if (w) {
		/* Hand over: the lock stays held, now by w. */
		l->head = w->next;
		if (!l->head)
			l->tail = NULL;
		w->granted = true;
		pthread_cond_signal(&w->cond);
	} else {
		l->held = false;
	}
	pthread_mutex_unlock(&l->m);
}
