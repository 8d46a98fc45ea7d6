/* SPDX-License-Identifier: MIT */
/*
 * Background workers: threads that do one kind of the lab's background
 * work each, off the request path and off each other's backs (after
 * Redis's bio.c): lease expiry, git fetches, track polls, bisections,
 * mail, webhooks (workers.h names them). A worker has one or more
 * threads, a FIFO of items and optionally a periodic tick (the timers).
 * An item may wait for a time (not_before: the rate limit of fetches).
 *
 *	static void run(struct work *w) { ... }
 *	item->run = run; item->drop = free;
 *	worker_queue(&w, item);
 *
 * The tick runs on one thread at a time, every tick_ms or at once after
 * worker_kick(). Stop wakes every thread, lets the work in hand finish
 * (blocking calls are cut short by their own cancellation:
 * gitmirror_cancel_all(), the alert senders' progress callback), joins
 * the threads and drops what is still queued.
 *
 * worker_stats() is what /metrics shows of each worker: the items waiting
 * or in hand, the age of the oldest of them (an item is due from its
 * not_before; a late or long tick counts as one) and how long the
 * longest item in hand has run.
 */
#ifndef PERFLAB_WORKER_H
#define PERFLAB_WORKER_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct work {
	struct work *next;
	void (*run)(struct work *w);	/* on a worker thread */
	void (*drop)(struct work *w);	/* frees it: after run, or at stop */
	int64_t not_before_ms;		/* worker_now_ms() clock; 0: at once */
	int64_t due_ms;			/* set by worker_queue */
};

#define WORKER_MAX_THREADS 8

struct worker {
	const char *name;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct work *head, *tail;
	size_t queued;
	int nthreads;
	pthread_t threads[WORKER_MAX_THREADS];
	/* Per thread: when the item in hand was due and started; 0 idle. */
	int64_t due_ms[WORKER_MAX_THREADS], since_ms[WORKER_MAX_THREADS];
	int tick_ms;			/* 0: no tick */
	void (*tick)(void *arg);
	void *tick_arg;
	int64_t next_tick_ms;
	bool ticking, kicked, stopping;
	uint64_t done;
	int started;
};

struct worker_stats {
	size_t depth;		/* items waiting (and due) or in hand */
	double oldest_s;	/* age of the oldest of them, 0 if none */
	double busy_s;		/* the longest-running item in hand, 0 idle */
	uint64_t done;		/* items and ticks finished */
};

/* Monotonic milliseconds: the clock of not_before_ms. */
int64_t worker_now_ms(void);

/*
 * Start @nthreads (1..WORKER_MAX_THREADS) threads named @name; with
 * @tick, it runs every @tick_ms ms (first at once). 0 or -1.
 */
int worker_start(struct worker *w, const char *name, int nthreads,
		 int tick_ms, void (*tick)(void *arg), void *tick_arg);
/* Queue @item; after stop it is dropped at once. 0, or -1 (stopped). */
int worker_queue(struct worker *w, struct work *item);
/* Run the tick as soon as a thread is free. */
void worker_kick(struct worker *w);
/* Stop and join (the work in hand first); drop what is queued. */
void worker_stop(struct worker *w);
void worker_stats(struct worker *w, struct worker_stats *st);

#endif
