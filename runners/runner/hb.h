/* SPDX-License-Identifier: MIT */
/*
 * hb: heartbeat thread for one job. Sends the current phase every
 * lease/3 seconds; when the server answers 409 (lease lost) or the runner
 * is told to stop, it raises the job's abort flag so children are killed.
 * Once the outcome is being reported (hb_finish), a 409 is the normal end
 * of the lease (the daemon finished the job) and only stops the beats.
 */
#ifndef PERFLAB_HB_H
#define PERFLAB_HB_H

#include <pthread.h>
#include <signal.h>

#include "runners/runner/proto.h"

struct hb {
	const struct proto *proto;
	long long job;
	int build_task;		/* job is a build task's id (/api/v1/builds) */
	const char *lease;
	int interval_s;
	const volatile sig_atomic_t *stop;	/* runner-wide SIGTERM flag */
	volatile sig_atomic_t abort;		/* job must stop now */
	volatile sig_atomic_t lost;		/* 409 seen */
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	char phase[16];
	char message[256];
	char last_set[16];	/* phase of the last hb_phase() call */
	int quit;
	int finishing;
	int beat_now;
	int running;
};

int hb_start(struct hb *h, const struct proto *p, long long job,
	     const char *lease, int lease_seconds,
	     const volatile sig_atomic_t *stop);
/* The same for a build task (POST /api/v1/builds/ID/heartbeat). */
int hb_start_build(struct hb *h, const struct proto *p, long long id,
		   const char *lease, int lease_seconds,
		   const volatile sig_atomic_t *stop);
/*
 * Change phase ("build", "boot", "run", "upload") and beat at once.
 * Returns 1 if @phase differs from the previous call's (0 for a new
 * message within the same phase).
 */
int hb_phase(struct hb *h, const char *phase, const char *message);
/* Enter the "upload" phase: the result or failure is about to be sent. */
void hb_finish(struct hb *h, const char *message);
void hb_stop(struct hb *h);

#endif
