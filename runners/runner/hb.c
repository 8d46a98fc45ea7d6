// SPDX-License-Identifier: MIT
/*
 * hb: heartbeat thread.
 */
#include "runners/runner/hb.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* Called with h->lock held after one heartbeat; 0: keep beating. */
static int beat_done(struct hb *h, int ret, const char *err)
{
	if (ret == PROTO_OK)
		return 0;
	if (ret == PROTO_ERR) {
		/* The lease may still be saved by the next beat. */
		fprintf(stderr, "perflab-runner: heartbeat job %lld: %s\n",
			h->job, err);
		return 0;
	}
	/* 409 while reporting: the upload finished the job first. */
	if (h->finishing)
		return 1;
	fprintf(stderr, "perflab-runner: job %lld: lease lost: %s; stopping "
		"the job\n", h->job, err);
	h->lost = 1;
	h->abort = 1;
	return 1;
}

static void *hb_main(void *arg)
{
	struct hb *h = arg;
	char phase[16], msg[256], err[512];
	struct timespec next;
	int ret;

	clock_gettime(CLOCK_REALTIME, &next);
	pthread_mutex_lock(&h->lock);
	while (!h->quit) {
		snprintf(phase, sizeof(phase), "%s", h->phase);
		snprintf(msg, sizeof(msg), "%s", h->message);
		pthread_mutex_unlock(&h->lock);
		ret = (h->build_task ? proto_build_heartbeat : proto_heartbeat)(
			h->proto, h->job, h->lease, phase, msg, err, sizeof(err));
		pthread_mutex_lock(&h->lock);
		if (beat_done(h, ret, err))
			break;
		clock_gettime(CLOCK_REALTIME, &next);
		next.tv_sec += h->interval_s;
		/* Wake every 500 ms to forward SIGTERM to the job. */
		while (!h->quit) {
			struct timespec t;

			if (h->stop && *h->stop)
				h->abort = 1;
			clock_gettime(CLOCK_REALTIME, &t);
			if (t.tv_sec > next.tv_sec ||
			    (t.tv_sec == next.tv_sec &&
			     t.tv_nsec >= next.tv_nsec))
				break;
			t.tv_nsec += 500000000;
			if (t.tv_nsec >= 1000000000) {
				t.tv_sec++;
				t.tv_nsec -= 1000000000;
			}
			pthread_cond_timedwait(&h->cond, &h->lock, &t);
			if (h->beat_now)
				break;
		}
		h->beat_now = 0;
	}
	pthread_mutex_unlock(&h->lock);
	return NULL;
}

static int start(struct hb *h, const struct proto *p, long long job,
		 const char *lease, int lease_seconds,
		 const volatile sig_atomic_t *stop, int build_task)
{
	memset(h, 0, sizeof(*h));
	h->build_task = build_task;
	h->proto = p;
	h->job = job;
	h->lease = lease;
	h->stop = stop;
	h->interval_s = lease_seconds / 3 > 0 ? lease_seconds / 3 : 1;
	snprintf(h->phase, sizeof(h->phase), "build");
	pthread_mutex_init(&h->lock, NULL);
	pthread_cond_init(&h->cond, NULL);
	if (pthread_create(&h->thread, NULL, hb_main, h))
		return -1;
	h->running = 1;
	return 0;
}

int hb_start(struct hb *h, const struct proto *p, long long job,
	     const char *lease, int lease_seconds,
	     const volatile sig_atomic_t *stop)
{
	return start(h, p, job, lease, lease_seconds, stop, 0);
}

int hb_start_build(struct hb *h, const struct proto *p, long long id,
		   const char *lease, int lease_seconds,
		   const volatile sig_atomic_t *stop)
{
	return start(h, p, id, lease, lease_seconds, stop, 1);
}

int hb_phase(struct hb *h, const char *phase, const char *message)
{
	int changed = strcmp(h->last_set, phase) != 0;

	snprintf(h->last_set, sizeof(h->last_set), "%s", phase);
	pthread_mutex_lock(&h->lock);
	snprintf(h->phase, sizeof(h->phase), "%s", phase);
	snprintf(h->message, sizeof(h->message), "%s", message ? message : "");
	h->beat_now = 1;
	pthread_cond_signal(&h->cond);
	pthread_mutex_unlock(&h->lock);
	return changed;
}

void hb_finish(struct hb *h, const char *message)
{
	pthread_mutex_lock(&h->lock);
	h->finishing = 1;
	pthread_mutex_unlock(&h->lock);
	hb_phase(h, "upload", message);
}

void hb_stop(struct hb *h)
{
	if (!h->running)
		return;
	pthread_mutex_lock(&h->lock);
	h->quit = 1;
	pthread_cond_signal(&h->cond);
	pthread_mutex_unlock(&h->lock);
	pthread_join(h->thread, NULL);
	pthread_mutex_destroy(&h->lock);
	pthread_cond_destroy(&h->cond);
	h->running = 0;
}
