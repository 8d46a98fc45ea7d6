// SPDX-License-Identifier: MIT
/*
 * GET /api/v1/events: the lab's event ring (lab/events.h) as a
 * Server-Sent Events stream.
 */
#include <stdio.h>
#include <stdlib.h>
#include <microhttpd.h>

#include "daemon/http/api_events.h"
#include "daemon/http/state.h"

struct sse_state {
	struct events *ev;
	uint64_t after;
	int64_t only;		/* ?experiment=ID */
	int sent_hello;
};

static ssize_t sse_read(void *cls, uint64_t pos, char *buf, size_t max)
{
	struct sse_state *s = cls;
	long n;

	(void)pos;
	if (!s->sent_hello) {
		s->sent_hello = 1;
		return snprintf(buf, max, "retry: 2000\n: perflab events\n\n");
	}
	n = events_read(s->ev, &s->after, s->only, 15000, buf, max);
	if (n < 0)
		return MHD_CONTENT_READER_END_OF_STREAM;
	if (n == 0)	/* keep-alive comment so proxies keep the stream */
		return snprintf(buf, max, ": keepalive\n\n");
	return n;
}

static void sse_free(void *cls)
{
	free(cls);
}

int api_events(struct http_req *req, struct http_resp *resp)
{
	struct events *ev = &req->srv->events;
	struct sse_state *s = calloc(1, sizeof(*s));
	const char *last = http_header(req, "Last-Event-ID");
	const char *since = http_query(req, "since");
	const char *only = http_query(req, "experiment");

	if (!s)
		return -1;
	if (only)
		s->only = strtoll(only, NULL, 10);
	s->ev = ev;
	s->after = events_last_id(ev);
	if (!last)
		last = since;
	if (last && *last)
		s->after = strtoull(last, NULL, 10);
	resp->mhd = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 16384,
						      sse_read, s, sse_free);
	if (!resp->mhd) {
		free(s);
		return -1;
	}
	MHD_add_response_header(resp->mhd, "Content-Type", "text/event-stream");
	MHD_add_response_header(resp->mhd, "Cache-Control", "no-store");
	resp->status = 200;
	return 0;
}
