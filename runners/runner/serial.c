// SPDX-License-Identifier: MIT
/*
 * serial: parse the guest console between perflab markers.
 */
#include "runners/runner/serial.h"
#include "runners/runner/rutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Start of the line holding marker (at line start), or NULL. */
static const char *find_marker(const char *text, const char *end,
			       const char *marker)
{
	size_t m = strlen(marker);
	const char *p = text;

	while (p && p + m <= end) {
		const char *hit = memmem(p, end - p, marker, m);

		if (!hit)
			return NULL;
		if (hit == text || hit[-1] == '\n')
			return hit;
		p = hit + 1;
	}
	return NULL;
}

static const char *line_end(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', end - p);

	return nl ? nl : end;
}

enum serial_phase serial_phase(const char *text, size_t len)
{
	const char *end = text + len;

	if (find_marker(text, end, SERIAL_DONE) ||
	    find_marker(text, end, SERIAL_ERROR))
		return SERIAL_FINISHED;
	if (find_marker(text, end, SERIAL_BENCH_BEGIN))
		return SERIAL_RUNNING;
	return SERIAL_BOOTING;
}

/* Copy without \r. */
static char *strip_cr(const char *text, size_t len, size_t *out_len)
{
	char *out = malloc(len + 1);
	size_t n = 0;

	if (!out)
		return NULL;
	for (size_t i = 0; i < len; i++)
		if (text[i] != '\r')
			out[n++] = text[i];
	out[n] = 0;
	*out_len = n;
	return out;
}

static void parse_result(const char *t, const char *end, struct serial_result *r)
{
	const char *rb, *re, *body, *le;
	unsigned long bytes = 0;
	char sha[65] = "", got[65];
	size_t n;

	rb = find_marker(t, end, SERIAL_RESULT_BEGIN);
	re = rb ? find_marker(rb, end, SERIAL_RESULT_END) : NULL;
	if (!rb || !re) {
		r->status = SERIAL_BAD_RESULT;
		snprintf(r->msg, sizeof(r->msg), "result %s on the console",
			 rb ? "truncated (no end marker)" : "missing");
		return;
	}
	body = line_end(rb, end) + 1;
	le = line_end(re, end);
	if (sscanf(re + strlen(SERIAL_RESULT_END), " bytes=%lu sha256=%64s",
		   &bytes, sha) != 2 || body > re) {
		r->status = SERIAL_BAD_RESULT;
		snprintf(r->msg, sizeof(r->msg), "malformed end marker: %.*s",
			 (int)(le - re > 200 ? 200 : le - re), re);
		return;
	}
	n = re - body;		/* file + the newline init adds */
	if (n > 0)
		n--;
	if (n != bytes) {
		r->status = SERIAL_BAD_RESULT;
		snprintf(r->msg, sizeof(r->msg),
			 "result length %zu != %lu announced (console "
			 "corrupted?)", n, bytes);
		return;
	}
	rutil_sha256_hex(body, n, got);
	if (strcmp(got, sha)) {
		r->status = SERIAL_BAD_RESULT;
		snprintf(r->msg, sizeof(r->msg), "result sha256 mismatch "
			 "(console corrupted?)");
		return;
	}
	r->json = strndup(body, n);
	r->json_len = n;
	r->status = r->json ? SERIAL_OK : SERIAL_BAD_RESULT;
}

void serial_parse(const char *raw, size_t raw_len, struct serial_result *r)
{
	const char *end, *bb, *be, *err;
	size_t len;
	char *t;

	memset(r, 0, sizeof(*r));
	r->bench_rc = -1;
	t = strip_cr(raw, raw_len, &len);
	if (!t) {
		r->status = SERIAL_BAD_RESULT;
		snprintf(r->msg, sizeof(r->msg), "out of memory");
		return;
	}
	end = t + len;
	err = find_marker(t, end, SERIAL_ERROR);
	bb = find_marker(t, end, SERIAL_BENCH_BEGIN);
	be = bb ? find_marker(bb, end, SERIAL_BENCH_END) : NULL;
	if (bb) {
		const char *s = line_end(bb, end) + 1;

		r->bench_log = strndup(s, (be ? be : end) - s);
	}
	if (be)
		sscanf(be + strlen(SERIAL_BENCH_END), " rc=%d", &r->bench_rc);
	if (err) {
		const char *e = err + strlen(SERIAL_ERROR);

		r->status = bb ? SERIAL_BENCH_FAILED : SERIAL_NO_BENCH;
		snprintf(r->msg, sizeof(r->msg), "guest init:%.*s",
			 (int)(line_end(e, end) - e), e);
	} else if (!bb) {
		r->status = SERIAL_NO_BENCH;
		snprintf(r->msg, sizeof(r->msg),
			 "guest never started the benchmark (boot failure, "
			 "panic or hang; see boot log)");
	} else if (!be) {
		r->status = SERIAL_BENCH_FAILED;
		snprintf(r->msg, sizeof(r->msg),
			 "benchmark did not finish (guest died or timed out)");
	} else if (r->bench_rc != 0) {
		r->status = SERIAL_BENCH_FAILED;
		snprintf(r->msg, sizeof(r->msg), "perflab-bench exited %d",
			 r->bench_rc);
	} else {
		parse_result(t, end, r);
	}
	free(t);
}

void serial_result_free(struct serial_result *r)
{
	free(r->json);
	free(r->bench_log);
	r->json = NULL;
	r->bench_log = NULL;
}
