/* SPDX-License-Identifier: MIT */
/*
 * hb: heartbeat thread for one job. Sends the current phase every
 * lease/3 seconds; when the server answers 409 (lease lost) or the runner
 * is told to stop, it raises the job's abort flag so children are killed.
 */
#ifndef PERFLAB_HB_H
#define PERFLAB_HB_H

#include <pthread.h>
#include <signal.h>

#include "runners/runner/proto.h"

struct hb {
	const struct proto *proto;
	long long job;
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
	int quit;
	int beat_now;
	int running;
};

int hb_start(struct hb *h, const struct proto *p, long long job,
	     const char *lease, int lease_seconds,
	     const volatile sig_atomic_t *stop);
/* Change phase ("build", "boot", "run", "upload") and beat at once. */
void hb_phase(struct hb *h, const char *phase, const char *message);
void hb_stop(struct hb *h);

#endif
