/* SPDX-License-Identifier: MIT */
/*
 * sse_client: read a text/event-stream (perflabd's /api/v1/events).
 * sse_parse() turns bytes into events (id, event type, data) as the
 * HTML5 EventSource rules say; sse_wait() connects with libcurl and
 * returns with the newest event of the first batch that arrives, at a
 * timeout, or on an error. Needs http_client_global_init() first.
 */
#ifndef PERFLAB_SSE_CLIENT_H
#define PERFLAB_SSE_CLIENT_H

#include <stdbool.h>
#include <stddef.h>

struct sse_event {
	unsigned long long id; /* last "id:" seen, 0 if none */
	char type[32]; /* "event:", default "message" */
	char data[4096]; /* "data:" lines joined by \n, truncated */
};

struct sse_parser {
	char line[8192];
	size_t len;
	bool overlong; /* the current line did not fit: dropped */
	bool cr; /* last byte was \r (a \n after it is eaten) */
	bool has_data;
	struct sse_event cur;
};

typedef int (*sse_event_fn)(void *arg, const struct sse_event *ev);

void sse_parser_init(struct sse_parser *p);
/*
 * Feeds @n bytes. Calls @fn for each complete event with data; a nonzero
 * return stops parsing and is returned, else 0.
 */
int sse_parse(struct sse_parser *p, const char *buf, size_t n, sse_event_fn fn,
	      void *arg);

enum {
	SSE_ERROR = -1, /* no connection, non-200 answer, stream ended */
	SSE_TIMEOUT = 0, /* @timeout_s passed without an event */
	SSE_EVENT = 1, /* *ev holds the newest event of a batch */
};

/* GET @url (bearer @key) and wait for events as above; @err on SSE_ERROR. */
int sse_wait(const char *url, const char *key, long timeout_s,
	     struct sse_event *ev, char *err, size_t errlen);

#endif
