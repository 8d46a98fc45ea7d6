// SPDX-License-Identifier: MIT
/*
 * Description: the event-stream parser behind `perflab watch` splits
 * perflabd's /api/v1/events into events with id, type and data: multi-line
 * data, CRLF and CR line ends, comments (keepalives), fields without a
 * space or a value, an event cut at any byte between two feeds, events
 * without data (not dispatched, but their id is kept), a callback that
 * stops the parse, and overlong lines dropped without overflowing.
 */
#include <string.h>

#include "common/sse_client.h"
#include "unit/check.h"

struct seen {
	struct sse_event ev[8];
	int n;
	int stop_at; /* stop after this many events, 0 = never */
};

static int collect(void *arg, const struct sse_event *ev)
{
	struct seen *s = arg;

	if (s->n < 8)
		s->ev[s->n] = *ev;
	s->n++;
	return s->stop_at && s->n >= s->stop_at ? 7 : 0;
}

static const char stream[] =
	": keepalive\n\n"
	"id: 12\nevent: job\ndata: {\"job_id\":7}\n\n"
	"id:13\r\nevent:run\r\ndata: a\r\ndata:b\r\n\r\n"
	"data\n\n"
	"id: 14\n\n"
	"event: experiment\rdata: {\"state\":\"done\"}\r\r";

static void check_stream(const struct seen *s, const char *how)
{
	CHECK(s->n == 4, "%s: %d events", how, s->n);
	CHECK(s->ev[0].id == 12 && !strcmp(s->ev[0].type, "job") &&
		      !strcmp(s->ev[0].data, "{\"job_id\":7}"),
	      "%s: event 1", how);
	CHECK(s->ev[1].id == 13 && !strcmp(s->ev[1].type, "run") &&
		      !strcmp(s->ev[1].data, "a\nb"),
	      "%s: event 2 '%s'", how, s->ev[1].data);
	/* "data" without colon: an empty data line; the type resets */
	CHECK(s->ev[2].id == 13 && !strcmp(s->ev[2].type, "message") &&
		      !strcmp(s->ev[2].data, ""),
	      "%s: event 3", how);
	/* an event of only an id is not dispatched but moves the id */
	CHECK(s->ev[3].id == 14 && !strcmp(s->ev[3].type, "experiment") &&
		      !strcmp(s->ev[3].data, "{\"state\":\"done\"}"),
	      "%s: event 4", how);
}

int main(void)
{
	size_t len = strlen(stream);
	struct sse_parser p;
	struct seen s;
	char big[20000];

	memset(&s, 0, sizeof(s));
	sse_parser_init(&p);
	CHECK(sse_parse(&p, stream, len, collect, &s) == 0);
	check_stream(&s, "one feed");

	/* every split point, and byte by byte */
	for (size_t cut = 1; cut < len; cut++) {
		memset(&s, 0, sizeof(s));
		sse_parser_init(&p);
		sse_parse(&p, stream, cut, collect, &s);
		sse_parse(&p, stream + cut, len - cut, collect, &s);
		if (s.n != 4)
			CHECK(0, "split at %zu: %d events", cut, s.n);
	}
	memset(&s, 0, sizeof(s));
	sse_parser_init(&p);
	for (size_t i = 0; i < len; i++)
		sse_parse(&p, stream + i, 1, collect, &s);
	check_stream(&s, "byte by byte");

	/* the callback's nonzero answer stops the parse */
	memset(&s, 0, sizeof(s));
	s.stop_at = 2;
	sse_parser_init(&p);
	CHECK(sse_parse(&p, stream, len, collect, &s) == 7);
	CHECK(s.n == 2);

	/* an overlong data line is dropped; the next event is intact */
	memset(big, 'x', sizeof(big));
	memcpy(big, "data: ", 6);
	big[sizeof(big) - 1] = '\n';
	memset(&s, 0, sizeof(s));
	sse_parser_init(&p);
	sse_parse(&p, big, sizeof(big), collect, &s);
	sse_parse(&p, "\nid: 5\ndata: ok\n\n", 17, collect, &s);
	CHECK(s.n == 1 && s.ev[0].id == 5 && !strcmp(s.ev[0].data, "ok"),
	      "after an overlong line: %d events", s.n);

	/* long data across many lines is truncated, NUL-terminated */
	memset(&s, 0, sizeof(s));
	sse_parser_init(&p);
	for (int i = 0; i < 100; i++) {
		static const char l[] =
			"data: 0123456789012345678901234567890123456789\n";

		sse_parse(&p, l, sizeof(l) - 1, collect, &s);
	}
	sse_parse(&p, "\n", 1, collect, &s);
	CHECK(s.n == 1 && strlen(s.ev[0].data) == sizeof(s.ev[0].data) - 1);
	DONE();
}
