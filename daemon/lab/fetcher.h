/* SPDX-License-Identifier: MIT */
/*
 * Git fetches of the bases' mirrors, on threads of their own (the "git"
 * worker, worker.h), so that an upstream that accepts connections and
 * never answers stalls nothing but its own fetch:
 *
 *   - per base at most one fetch at a time (git's ref locks), and at most
 *     one start per --git-fetch-interval (the rate limit): requests in
 *     between are served by the fetch that ran (FETCH_FRESH) or wait for
 *     the next one (FETCH_NEWER), which they share;
 *   - at most --git-fetchers fetches at once, of any bases;
 *   - a fetch is killed after --git-fetch-timeout (gitmirror.h);
 *   - a request waits at most --git-wait for its fetch; then it answers
 *     without it (HTTP 503 with Retry-After) and the fetch goes on: the
 *     retry finds the mirror fetched. No request holds a lock meanwhile.
 *
 * The state is in memory (per base: running, queued, when the last fetch
 * started, whether it worked and git's message if not); a restart starts
 * afresh. Without fetcher_start() (tools, unit tests) fetcher_get()
 * fetches at once on the caller's thread.
 */
#ifndef PERFLAB_FETCHER_H
#define PERFLAB_FETCHER_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "daemon/lab/worker.h"

#define FETCHER_DEFAULT_THREADS 2
#define FETCHER_DEFAULT_WAIT_S 10
#define FETCHER_DEFAULT_INTERVAL_S 5

struct fetcher_config {
	int threads;		/* --git-fetchers */
	int wait_s;		/* --git-wait */
	int interval_s;		/* --git-fetch-interval */
};

int fetcher_start(const struct fetcher_config *c);
/* Refuse new fetches, kill the running ones, join the threads. */
void fetcher_stop(void);

enum fetch_need {
	/* The refs as upstream had them at most one interval ago. */
	FETCH_FRESH,
	/* A fetch that starts from now (a commit the mirror lacks, a push
	 * hook, "poll now"): the next slot of the rate limit. */
	FETCH_NEWER,
};

enum {
	FETCH_OK = 0,
	FETCH_FAILED = -1,	/* git's message in @err */
	FETCH_PENDING = -2,	/* still running after the wait */
};

/* A fetch ended: @rc is FETCH_OK or FETCH_FAILED (@err), or
 * FETCH_PENDING when the daemon stopped first. */
typedef void fetch_done_fn(void *arg, int rc, const char *err);

/*
 * Bring the mirror @mirror of base @base_id (upstream @url) to @need,
 * waiting at most @wait_ms (< 0: --git-wait). FETCH_OK or FETCH_FAILED
 * when that fetch ended meanwhile or none was needed. Else FETCH_PENDING
 * with *@retry_after (seconds) and @err set: the fetch goes on, and
 * @done, unless NULL, is called once on a git thread when it ends.
 */
int fetcher_get(int64_t base_id, const char *mirror, const char *url,
		enum fetch_need need, int wait_ms, fetch_done_fn *done,
		void *arg, char *err, size_t len, int *retry_after);

/* Seconds a request answered 503 should wait before it asks again. */
int fetcher_retry_after(void);

/* Base @base_id's mirror was cloned at @started (a new base). */
void fetcher_cloned(int64_t base_id, time_t started);

/* /metrics: fetches that worked and failed since start, the worker. */
void fetcher_counts(uint64_t *ok, uint64_t *failed);
struct worker *fetcher_worker(void);

#endif
