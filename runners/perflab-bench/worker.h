/* SPDX-License-Identifier: MIT */
/*
 * One benchmark thread: its own io_uring (created on the thread, pinned to
 * its CPU), fixed buffers, registered file and ring fd, and the hot loop.
 * The main thread reads the counters once a second and drives the phases;
 * no locks, no allocation in the loop.
 */
#ifndef PERFLAB_BENCH_WORKER_H
#define PERFLAB_BENCH_WORKER_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "opts.h"
#include "target.h"

/* Optional setup flags, tried one by one (bit numbers as in io_uring.h). */
#define WF_SINGLE_ISSUER	(1U << 0)
#define WF_COOP_TASKRUN		(1U << 1)
#define WF_DEFER_TASKRUN	(1U << 2)
#define WF_IOPOLL		(1U << 3)
#define WF_REGISTERED_RING	(1U << 4)

enum worker_phase {
	PHASE_WARMUP = 0,	/* running, not measured */
	PHASE_MEASURE = 1,	/* measured window */
	PHASE_STOP = 2,		/* finish: drain and exit */
};

/* Written by the worker only, read by main with relaxed atomics. */
struct worker_counters {
	uint64_t done;		/* completed IOs (successful) */
	uint64_t submitted;	/* SQEs consumed by the kernel */
	uint64_t calls;		/* io_uring_enter calls */
	uint64_t inflight;
	uint64_t eagain;	/* completions with -EAGAIN (not counted) */
} __attribute__((aligned(64)));

/* The measured window as the worker saw it (its own clock and rusage). */
struct worker_window {
	uint64_t start_ns, end_ns;	/* CLOCK_MONOTONIC */
	uint64_t start_done, end_done;
	uint64_t user_ns, sys_ns;	/* thread CPU time in the window */
	bool started, ended;
};

struct worker_shared {
	const struct bench_opts *o;
	const struct target *t;
	unsigned int ready;		/* workers done with setup */
	int go;				/* set by main: start the loops */
	int phase;			/* enum worker_phase, set by main */
	unsigned int nfinished;		/* workers out of their loop (futex) */
};

struct worker {
	struct worker_shared *sh;
	unsigned int index;
	int cpu;
	pthread_t thread;
	bool created;
	struct worker_counters c;
	struct worker_window win;
	unsigned int flags;	/* WF_* actually in use */
	int finished;		/* 1 when the loop exited (set by the worker) */
	int err;		/* 0 or an errno-style failure */
	char errmsg[512];
};

/* Starts the thread; it sets up its ring, counts itself in sh->ready
 * and waits for sh->go. When it is done it counts itself in
 * sh->nfinished and wakes worker_wait(). */
int worker_start(struct worker *w);
void worker_join(struct worker *w);

/* Names of the WF_* bits in @flags, for reports: fills @names, returns n. */
unsigned int worker_flag_names(unsigned int flags, const char **names,
			       unsigned int max);

/*
 * Sleeps until CLOCK_MONOTONIC @until_ns, a signal, or a worker counting
 * itself in sh->nfinished after @seen (a futex: no periodic wake-up).
 */
void worker_wait(struct worker_shared *sh, unsigned int seen,
		 uint64_t until_ns);

static inline uint64_t worker_read(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

#endif
