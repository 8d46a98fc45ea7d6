/* SPDX-License-Identifier: MIT */
/*
 * In-memory ring of recent events: what the lab publishes as jobs,
 * experiments and runs change; the HTTP layer streams it as
 * GET /api/v1/events (SSE, http/api_events.c).
 * Types: "job" (state/phase changes), "experiment" (state changes),
 * "run" (a result stored). Data is a JSON object, see docs/api.md.
 */
#ifndef PERFLAB_LAB_EVENTS_H
#define PERFLAB_LAB_EVENTS_H

#include <pthread.h>
#include <stdint.h>
#include <jansson.h>

#define EVENTS_RING 1024

struct event {
	uint64_t id;
	int64_t experiment_id;	/* from data, 0 if none */
	char type[16];
	char *data;	/* compact JSON */
};

struct events {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	uint64_t next_id;	/* id of the next event; ids start at 1 */
	int closing;
	struct event ring[EVENTS_RING];
};

void events_init(struct events *ev);
void events_destroy(struct events *ev);
/* Wake every waiting stream so it can end (daemon shutdown). */
void events_close(struct events *ev);
/* Publish @data (stolen) as @type. @ev may be NULL (unit tests). */
void events_publish(struct events *ev, const char *type, json_t *data);
/*
 * Format events with id > *after as SSE frames into @buf (at most @len
 * bytes), waiting up to @timeout_ms for new events. Only events of
 * experiment @only when it is > 0. Advances *after. Returns bytes written
 * (0 on timeout), -1 when closing.
 */
long events_read(struct events *ev, uint64_t *after, int64_t only,
		 int timeout_ms, char *buf, size_t len);
uint64_t events_last_id(struct events *ev);

#endif
