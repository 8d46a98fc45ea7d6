// SPDX-License-Identifier: MIT
/*
 * Per-base git fetches on the git worker; see fetcher.h.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/lab/fetcher.h"
#include "daemon/lab/gitmirror.h"

/* Called when fetch number @gen of its base has ended. */
struct fetch_cb {
	struct fetch_cb *next;
	uint64_t gen;
	fetch_done_fn *done;
	void *arg;
};

struct base_fetch {
	struct base_fetch *next;
	int64_t id;
	char mirror[4200], url[1025];
	bool running, queued;	/* queued: an item waits on the worker */
	bool again;		/* running: one more wanted after it */
	uint64_t started, finished;	/* fetches started, ended */
	int64_t last_start_ms, last_ok_start_ms;	/* 0: never */
	int last_rc;
	char last_err[256];
	struct fetch_cb *cbs;
};

struct fetch_work {
	struct work w;
	struct base_fetch *b;
};

static struct {
	pthread_mutex_t lock;
	pthread_cond_t ended;	/* broadcast when a fetch ends */
	struct base_fetch *bases;
	struct worker w;
	struct fetcher_config cfg;
	bool running, stopping;
	uint64_t ok, failed;
} F = { .lock = PTHREAD_MUTEX_INITIALIZER };

static int64_t interval_ms(void)
{
	return (int64_t)F.cfg.interval_s * 1000;
}

static struct base_fetch *base_of(int64_t id)
{
	struct base_fetch *b;

	for (b = F.bases; b; b = b->next)
		if (b->id == id)
			return b;
	b = calloc(1, sizeof(*b));
	if (!b)
		return NULL;
	b->id = id;
	b->next = F.bases;
	F.bases = b;
	return b;
}

static void run_fetch(struct work *w);

/* With F.lock held: queue the next fetch of @b, not before the slot. */
static void queue_fetch(struct base_fetch *b, int64_t now)
{
	struct fetch_work *fw = calloc(1, sizeof(*fw));
	int64_t slot = b->last_start_ms ? b->last_start_ms + interval_ms() : 0;

	if (!fw)
		return;
	fw->w.run = run_fetch;
	fw->w.drop = (void (*)(struct work *))free;
	fw->w.not_before_ms = slot > now ? slot : 0;
	fw->b = b;
	b->queued = true;
	if (worker_queue(&F.w, &fw->w))
		b->queued = false;
}

/*
 * With F.lock held: the number of the fetch @need waits for into *@gen (0:
 * none, the mirror will do), queuing it if need be. 0, or -1 (no memory).
 */
static int need_gen(struct base_fetch *b, enum fetch_need need, int64_t now,
		    uint64_t *gen)
{
	*gen = 0;
	if (need == FETCH_FRESH) {
		if (!b->running && !b->queued && b->last_ok_start_ms &&
		    b->last_ok_start_ms == b->last_start_ms &&
		    now - b->last_ok_start_ms < interval_ms())
			return 0;
		if (b->running) {
			*gen = b->started;
			return 0;
		}
	} else if (b->running) {
		b->again = true;
		*gen = b->started + 1;
		return 0;
	}
	if (!b->queued)
		queue_fetch(b, now);
	*gen = b->started + 1;
	return b->queued ? 0 : -1;
}

static void call_cbs(struct fetch_cb *cb, int rc, const char *err)
{
	struct fetch_cb *next;

	for (; cb; cb = next) {
		next = cb->next;
		cb->done(cb->arg, rc, err);
		free(cb);
	}
}

/* With F.lock held: unlink the callbacks of fetches up to @gen. */
static struct fetch_cb *take_cbs(struct base_fetch *b, uint64_t gen)
{
	struct fetch_cb **pp = &b->cbs, *cb, *out = NULL;

	while ((cb = *pp)) {
		if (cb->gen <= gen) {
			*pp = cb->next;
			cb->next = out;
			out = cb;
		} else {
			pp = &cb->next;
		}
	}
	return out;
}

static void run_fetch(struct work *w)
{
	struct base_fetch *b = ((struct fetch_work *)w)->b;
	char mirror[sizeof(b->mirror)], url[sizeof(b->url)], err[256] = "";
	struct fetch_cb *cbs;
	struct lab_err e;
	int64_t start;
	int rc;

	pthread_mutex_lock(&F.lock);
	b->queued = false;
	b->running = true;
	b->started++;
	start = b->last_start_ms = worker_now_ms();
	memcpy(mirror, b->mirror, sizeof(mirror));
	memcpy(url, b->url, sizeof(url));
	pthread_mutex_unlock(&F.lock);

	rc = gitmirror_fetch(mirror, url, &e);
	if (rc)
		snprintf(err, sizeof(err), "%.255s", e.msg);

	pthread_mutex_lock(&F.lock);
	b->running = false;
	b->finished = b->started;
	b->last_rc = rc;
	snprintf(b->last_err, sizeof(b->last_err), "%s", err);
	if (rc == 0) {
		b->last_ok_start_ms = start;
		F.ok++;
	} else {
		F.failed++;
		fprintf(stderr, "perflabd: fetch of base %lld failed: %s\n",
			(long long)b->id, err);
	}
	cbs = take_cbs(b, b->finished);
	if (b->again && !F.stopping) {
		b->again = false;
		queue_fetch(b, worker_now_ms());
	}
	pthread_cond_broadcast(&F.ended);
	pthread_mutex_unlock(&F.lock);
	call_cbs(cbs, rc ? FETCH_FAILED : FETCH_OK, err);
}

int fetcher_start(const struct fetcher_config *c)
{
	pthread_condattr_t ca;

	F.cfg = *c;
	if (F.cfg.threads < 1)
		F.cfg.threads = FETCHER_DEFAULT_THREADS;
	if (F.cfg.wait_s < 0)
		F.cfg.wait_s = FETCHER_DEFAULT_WAIT_S;
	if (F.cfg.interval_s < 0)
		F.cfg.interval_s = FETCHER_DEFAULT_INTERVAL_S;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&F.ended, &ca);
	pthread_condattr_destroy(&ca);
	if (worker_start(&F.w, "git", F.cfg.threads, 0, NULL, NULL))
		return -1;
	F.running = true;
	return 0;
}

void fetcher_stop(void)
{
	struct fetch_cb *cbs = NULL, *more;

	if (!F.running)
		return;
	pthread_mutex_lock(&F.lock);
	F.stopping = true;
	for (struct base_fetch *b = F.bases; b; b = b->next) {
		more = take_cbs(b, UINT64_MAX);
		while (more) {
			struct fetch_cb *n = more->next;

			more->next = cbs;
			cbs = more;
			more = n;
		}
	}
	pthread_cond_broadcast(&F.ended);
	pthread_mutex_unlock(&F.lock);
	gitmirror_cancel_all();
	worker_stop(&F.w);
	call_cbs(cbs, FETCH_PENDING, "perflabd is stopping");
}

/* No worker (tools, tests): fetch here and now. */
static int fetch_here(const char *mirror, const char *url, char *err,
		      size_t len)
{
	struct lab_err e;

	if (!gitmirror_fetch(mirror, url, &e))
		return FETCH_OK;
	snprintf(err, len, "%s", e.msg);
	return FETCH_FAILED;
}

static void deadline_ts(struct timespec *t, int64_t at_ms)
{
	t->tv_sec = at_ms / 1000;
	t->tv_nsec = (long)(at_ms % 1000) * 1000000;
}

int fetcher_get(int64_t base_id, const char *mirror, const char *url,
		enum fetch_need need, int wait_ms, fetch_done_fn *done,
		void *arg, char *err, size_t len, int *retry_after)
{
	struct base_fetch *b;
	struct timespec ts;
	int64_t now, until;
	uint64_t gen;
	int rc;

	if (retry_after)
		*retry_after = 0;
	if (len)
		err[0] = '\0';
	if (!F.running)
		return fetch_here(mirror, url, err, len);
	pthread_mutex_lock(&F.lock);
	b = F.stopping ? NULL : base_of(base_id);
	if (!b) {
		pthread_mutex_unlock(&F.lock);
		snprintf(err, len, "perflabd is stopping");
		return FETCH_FAILED;
	}
	snprintf(b->mirror, sizeof(b->mirror), "%s", mirror);
	snprintf(b->url, sizeof(b->url), "%s", url);
	now = worker_now_ms();
	if (need_gen(b, need, now, &gen)) {
		pthread_mutex_unlock(&F.lock);
		snprintf(err, len, "cannot queue the fetch: out of memory");
		return FETCH_FAILED;
	}
	if (!gen) {
		pthread_mutex_unlock(&F.lock);
		return FETCH_OK;
	}
	until = now + (wait_ms < 0 ? (int64_t)F.cfg.wait_s * 1000 : wait_ms);
	deadline_ts(&ts, until);
	while (b->finished < gen && !F.stopping && worker_now_ms() < until)
		pthread_cond_timedwait(&F.ended, &F.lock, &ts);
	if (b->finished >= gen) {
		rc = b->last_rc ? FETCH_FAILED : FETCH_OK;
		snprintf(err, len, "%s", b->last_err);
		pthread_mutex_unlock(&F.lock);
		return rc;
	}
	if (F.stopping) {
		pthread_mutex_unlock(&F.lock);
		snprintf(err, len, "perflabd is stopping");
		return FETCH_FAILED;
	}
	if (done) {
		struct fetch_cb *cb = calloc(1, sizeof(*cb));

		if (cb) {
			*cb = (struct fetch_cb){ b->cbs, gen, done, arg };
			b->cbs = cb;
		} else {
			pthread_mutex_unlock(&F.lock);
			snprintf(err, len, "out of memory");
			return FETCH_FAILED;
		}
	}
	snprintf(err, len, "the fetch of the base from its upstream is still"
		 " running after %d s (it goes on in the background)",
		 (int)((until - now + 999) / 1000));
	if (retry_after)
		*retry_after = fetcher_retry_after();
	pthread_mutex_unlock(&F.lock);
	return FETCH_PENDING;
}

int fetcher_retry_after(void)
{
	int s = F.cfg.wait_s > F.cfg.interval_s ? F.cfg.wait_s : F.cfg.interval_s;

	return s > 0 ? s : 1;
}

void fetcher_cloned(int64_t base_id, time_t started)
{
	struct base_fetch *b;
	int64_t ago = (int64_t)(time(NULL) - started) * 1000;

	if (!F.running)
		return;
	pthread_mutex_lock(&F.lock);
	b = base_of(base_id);
	if (b && !b->last_start_ms)
		b->last_start_ms = b->last_ok_start_ms = worker_now_ms() -
							  (ago > 0 ? ago : 0);
	pthread_mutex_unlock(&F.lock);
}

void fetcher_counts(uint64_t *ok, uint64_t *failed)
{
	pthread_mutex_lock(&F.lock);
	*ok = F.ok;
	*failed = F.failed;
	pthread_mutex_unlock(&F.lock);
}

struct worker *fetcher_worker(void)
{
	return &F.w;
}
