// SPDX-License-Identifier: MIT
/*
 * Background worker threads; see worker.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "daemon/lab/worker.h"

int64_t worker_now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void wait_until(struct worker *w, int64_t at_ms)
{
	struct timespec t;

	if (at_ms <= 0) {
		pthread_cond_wait(&w->cond, &w->lock);
		return;
	}
	t.tv_sec = at_ms / 1000;
	t.tv_nsec = (long)(at_ms % 1000) * 1000000;
	pthread_cond_timedwait(&w->cond, &w->lock, &t);
}

/* The first queued item that is due at @now (unlinked), or NULL; the
 * earliest not_before of the others into *@next (0 if none). */
static struct work *take_due(struct worker *w, int64_t now, int64_t *next)
{
	struct work *prev = NULL, *it;

	*next = 0;
	for (it = w->head; it; prev = it, it = it->next) {
		if (it->not_before_ms > now) {
			if (!*next || it->not_before_ms < *next)
				*next = it->not_before_ms;
			continue;
		}
		if (prev)
			prev->next = it->next;
		else
			w->head = it->next;
		if (w->tail == it)
			w->tail = prev;
		it->next = NULL;
		w->queued--;
		return it;
	}
	return NULL;
}

/* With w->lock held: run @fn (the tick) or @it as thread @i's work. */
static void run_unlocked(struct worker *w, int i, int64_t due,
			 struct work *it)
{
	w->due_ms[i] = due;
	w->since_ms[i] = worker_now_ms();
	pthread_mutex_unlock(&w->lock);
	if (it) {
		it->run(it);
		if (it->drop)
			it->drop(it);
	} else {
		w->tick(w->tick_arg);
	}
	pthread_mutex_lock(&w->lock);
	w->due_ms[i] = w->since_ms[i] = 0;
	w->done++;
}

struct thread_arg {
	struct worker *w;
	int i;
};

static void *worker_main(void *arg)
{
	struct thread_arg *ta = arg;
	struct worker *w = ta->w;
	int i = ta->i;

	free(ta);
	pthread_mutex_lock(&w->lock);
	while (!w->stopping) {
		int64_t now = worker_now_ms(), next, wake;
		struct work *it;

		if (w->tick && !w->ticking &&
		    (w->kicked || now >= w->next_tick_ms)) {
			int64_t due = w->kicked ? now : w->next_tick_ms;

			w->ticking = true;
			w->kicked = false;
			run_unlocked(w, i, due, NULL);
			w->ticking = false;
			w->next_tick_ms = worker_now_ms() + w->tick_ms;
			continue;
		}
		it = take_due(w, now, &next);
		if (it) {
			run_unlocked(w, i, it->not_before_ms > it->due_ms ?
				     it->not_before_ms : it->due_ms, it);
			continue;
		}
		wake = next;
		if (w->tick && !w->ticking && (!wake || w->next_tick_ms < wake))
			wake = w->next_tick_ms;
		wait_until(w, wake);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

int worker_start(struct worker *w, const char *name, int nthreads,
		 int tick_ms, void (*tick)(void *arg), void *tick_arg)
{
	pthread_condattr_t ca;

	memset(w, 0, sizeof(*w));
	if (nthreads < 1 || nthreads > WORKER_MAX_THREADS)
		return -1;
	w->name = name;
	w->nthreads = nthreads;
	w->tick = tick;
	w->tick_ms = tick_ms > 0 ? tick_ms : 1000;
	w->tick_arg = tick_arg;
	w->next_tick_ms = worker_now_ms();
	pthread_mutex_init(&w->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&w->cond, &ca);
	pthread_condattr_destroy(&ca);
	for (int i = 0; i < nthreads; i++) {
		struct thread_arg *ta = malloc(sizeof(*ta));

		if (ta) {
			ta->w = w;
			ta->i = i;
		}
		if (!ta || pthread_create(&w->threads[i], NULL, worker_main, ta)) {
			free(ta);
			fprintf(stderr, "perflabd: cannot start the %s worker\n", name);
			worker_stop(w);
			return -1;
		}
		w->started++;
	}
	return 0;
}

int worker_queue(struct worker *w, struct work *item)
{
	if (!w->name) {
		if (item->drop)
			item->drop(item);
		return -1;
	}
	pthread_mutex_lock(&w->lock);
	if (w->stopping || !w->started) {
		pthread_mutex_unlock(&w->lock);
		if (item->drop)
			item->drop(item);
		return -1;
	}
	item->next = NULL;
	item->due_ms = worker_now_ms();
	if (w->tail)
		w->tail->next = item;
	else
		w->head = item;
	w->tail = item;
	w->queued++;
	/* Every thread: one may be waiting for a deferred item only. */
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
	return 0;
}

void worker_kick(struct worker *w)
{
	if (!w->name)
		return;
	pthread_mutex_lock(&w->lock);
	w->kicked = true;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

void worker_stop(struct worker *w)
{
	struct work *it, *next;

	if (!w->name)
		return;
	pthread_mutex_lock(&w->lock);
	if (w->stopping) {
		pthread_mutex_unlock(&w->lock);
		return;
	}
	w->stopping = true;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
	for (int i = 0; i < w->started; i++)
		pthread_join(w->threads[i], NULL);
	w->started = 0;
	pthread_mutex_lock(&w->lock);
	it = w->head;
	w->head = w->tail = NULL;
	w->queued = 0;
	pthread_mutex_unlock(&w->lock);
	/* The lock stays: /metrics may still ask until the server stops. */
	for (; it; it = next) {
		next = it->next;
		if (it->drop)
			it->drop(it);
	}
}

void worker_stats(struct worker *w, struct worker_stats *st)
{
	int64_t now = worker_now_ms(), oldest = 0, since = 0;

	memset(st, 0, sizeof(*st));
	if (!w->name)
		return;
	pthread_mutex_lock(&w->lock);
	for (struct work *it = w->head; it; it = it->next) {
		int64_t due = it->not_before_ms > it->due_ms ? it->not_before_ms :
			      it->due_ms;

		if (due > now)
			continue;	/* deferred: not late yet */
		st->depth++;
		if (!oldest || due < oldest)
			oldest = due;
	}
	/* A tick that is due but waits for a busy thread is late too. */
	if (w->tick && !w->ticking && now > w->next_tick_ms + w->tick_ms) {
		st->depth++;
		if (!oldest || w->next_tick_ms < oldest)
			oldest = w->next_tick_ms;
	}
	for (int i = 0; i < w->started; i++) {
		if (!w->since_ms[i])
			continue;
		st->depth++;
		if (!oldest || w->due_ms[i] < oldest)
			oldest = w->due_ms[i];
		if (!since || w->since_ms[i] < since)
			since = w->since_ms[i];
	}
	st->done = w->done;
	pthread_mutex_unlock(&w->lock);
	st->oldest_s = oldest ? (now - oldest) / 1000.0 : 0;
	st->busy_s = since ? (now - since) / 1000.0 : 0;
}
