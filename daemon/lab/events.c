// SPDX-License-Identifier: MIT
/*
 * The lab's event ring; see events.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "daemon/lab/events.h"

void events_init(struct events *ev)
{
	pthread_condattr_t a;

	memset(ev, 0, sizeof(*ev));
	pthread_mutex_init(&ev->lock, NULL);
	pthread_condattr_init(&a);
	pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
	pthread_cond_init(&ev->cond, &a);
	pthread_condattr_destroy(&a);
	ev->next_id = 1;
}

void events_destroy(struct events *ev)
{
	int i;

	for (i = 0; i < EVENTS_RING; i++)
		free(ev->ring[i].data);
	pthread_cond_destroy(&ev->cond);
	pthread_mutex_destroy(&ev->lock);
}

void events_close(struct events *ev)
{
	pthread_mutex_lock(&ev->lock);
	ev->closing = 1;
	pthread_cond_broadcast(&ev->cond);
	pthread_mutex_unlock(&ev->lock);
}

void events_publish(struct events *ev, const char *type, json_t *data)
{
	struct event *e;
	int64_t exp;
	char *s;

	if (!ev || !data) {
		json_decref(data);
		return;
	}
	s = json_dumps(data, JSON_COMPACT);
	exp = json_integer_value(json_object_get(data, "experiment_id"));
	json_decref(data);
	if (!s)
		return;
	pthread_mutex_lock(&ev->lock);
	e = &ev->ring[ev->next_id % EVENTS_RING];
	free(e->data);
	e->data = s;
	e->experiment_id = exp;
	e->id = ev->next_id++;
	snprintf(e->type, sizeof(e->type), "%s", type);
	pthread_cond_broadcast(&ev->cond);
	pthread_mutex_unlock(&ev->lock);
}

uint64_t events_last_id(struct events *ev)
{
	uint64_t id;

	pthread_mutex_lock(&ev->lock);
	id = ev->next_id - 1;
	pthread_mutex_unlock(&ev->lock);
	return id;
}

long events_read(struct events *ev, uint64_t *after, int64_t only,
		 int timeout_ms, char *buf, size_t len)
{
	struct timespec dl;
	size_t off = 0;
	uint64_t id;

	clock_gettime(CLOCK_MONOTONIC, &dl);
	dl.tv_sec += timeout_ms / 1000;
	dl.tv_nsec += (long)(timeout_ms % 1000) * 1000000;
	if (dl.tv_nsec >= 1000000000) {
		dl.tv_sec++;
		dl.tv_nsec -= 1000000000;
	}
	pthread_mutex_lock(&ev->lock);
	while (!ev->closing && off == 0) {
		while (!ev->closing && ev->next_id - 1 <= *after)
			if (pthread_cond_timedwait(&ev->cond, &ev->lock, &dl) == ETIMEDOUT)
				goto out;
		if (ev->closing)
			break;
		id = *after + 1;
		/* Skip what the ring no longer holds. */
		if (ev->next_id > EVENTS_RING && id < ev->next_id - EVENTS_RING)
			id = ev->next_id - EVENTS_RING;
		for (; id < ev->next_id; id++) {
			struct event *e = &ev->ring[id % EVENTS_RING];
			int n = 0;

			if (only <= 0 || e->experiment_id == only)
				n = snprintf(buf + off, len - off, "id: %llu\nevent: %s\ndata: %s\n\n",
					     (unsigned long long)e->id, e->type, e->data);
			if (n < 0 || (size_t)n >= len - off)
				break;
			off += n;
			*after = id;
		}
	}
out:
	if (ev->closing) {
		pthread_mutex_unlock(&ev->lock);
		return -1;
	}
	pthread_mutex_unlock(&ev->lock);
	return (long)off;
}
