// SPDX-License-Identifier: MIT
/*
 * lava_console: markers, base64 result and the plugin's profile out of a
 * LAVA guest's console text.
 */
#include "daemon/lab/lava_console.h"
#include "common/guest_markers.h"
#include "common/insn_profile.h"

#include <openssl/evp.h>
#include <openssl/sha.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first line at or after @from containing @m; NULL. */
static const char *find_line(const char *from, const char *end, const char *m)
{
	size_t ml = strlen(m);

	for (const char *p = from; p + ml <= end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;

		if ((size_t)(le - p) >= ml && memmem(p, (size_t)(le - p), m, ml))
			return p;
		p = nl ? nl + 1 : end;
	}
	return NULL;
}

static const char *next_line(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));

	return nl ? nl + 1 : end;
}

/* "key=" in the line at @p, as an unsigned number or hex word. */
static const char *field(const char *p, const char *end, const char *key)
{
	const char *le = memchr(p, '\n', (size_t)(end - p));
	const char *f = memmem(p, (size_t)((le ? le : end) - p), key,
			       strlen(key));

	return f ? f + strlen(key) : NULL;
}

static int b64_char(char ch)
{
	return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') ||
	       (ch >= '0' && ch <= '9') || ch == '+' || ch == '/' || ch == '=';
}

/* Base64 lines between @from and @to -> bytes; NULL on bad input. */
static char *b64_decode(const char *from, const char *to, size_t *outlen,
			char *msg, size_t msglen)
{
	size_t n = 0, cap = (size_t)(to - from);
	char *clean = malloc(cap + 1), *out;
	int len, pad = 0;

	if (!clean)
		return NULL;
	for (const char *p = from; p < to; p++) {
		if (*p == '\n' || *p == '\r' || *p == ' ')
			continue;
		if (!b64_char(*p)) {
			snprintf(msg, msglen, "result: byte 0x%02x is not base64",
				 (unsigned char)*p);
			free(clean);
			return NULL;
		}
		clean[n++] = *p;
	}
	if (n % 4 || n / 4 * 3 > LAVA_CON_MAX_JSON) {
		snprintf(msg, msglen, "result: %zu base64 characters (not a"
			 " whole number of quads, or too many)", n);
		free(clean);
		return NULL;
	}
	out = malloc(n / 4 * 3 + 1);
	if (!out) {
		free(clean);
		return NULL;
	}
	len = n ? EVP_DecodeBlock((unsigned char *)out, (unsigned char *)clean,
				  (int)n) : 0;
	if (n >= 1 && clean[n - 1] == '=')
		pad++;
	if (n >= 2 && clean[n - 2] == '=')
		pad++;
	free(clean);
	if (len < 0) {
		snprintf(msg, msglen, "result: invalid base64");
		free(out);
		return NULL;
	}
	*outlen = (size_t)len - (size_t)pad;
	out[*outlen] = 0;
	return out;
}

static void sha_hex(const char *buf, size_t len, char hex[65])
{
	unsigned char md[SHA256_DIGEST_LENGTH];

	SHA256((const unsigned char *)buf, len, md);
	for (int i = 0; i < SHA256_DIGEST_LENGTH; i++)
		sprintf(hex + 2 * i, "%02x", md[i]);
}

static void take_insn(const char *t, const char *end, struct lava_console *c)
{
	const char *b = find_line(t, end, INSN_CONSOLE_BEGIN), *e, *s;

	if (!b)
		return;
	s = next_line(b, end);
	e = find_line(s, end, INSN_CONSOLE_END);
	if (!e || (size_t)(e - s) > INSN_PROF_MAX_BYTES)
		return;
	c->insn = malloc((size_t)(e - s) + 1);
	if (!c->insn)
		return;
	memcpy(c->insn, s, (size_t)(e - s));
	c->insn_len = (size_t)(e - s);
	c->insn[c->insn_len] = 0;
}

static void take_result(const char *rb, const char *end, struct lava_console *c)
{
	const char *s = next_line(rb, end), *re, *bytes, *sum;
	char hex[65];
	size_t n;
	char *json;

	re = find_line(s, end, SERIAL_RESULT_END);
	if (!re) {
		c->status = LAVA_CON_BAD_RESULT;
		snprintf(c->msg, sizeof(c->msg), "result truncated (no %s)",
			 SERIAL_RESULT_END);
		return;
	}
	json = b64_decode(s, re, &n, c->msg, sizeof(c->msg));
	if (!json) {
		c->status = LAVA_CON_BAD_RESULT;
		return;
	}
	bytes = field(re, end, "bytes=");
	sum = field(re, end, "sha256=");
	sha_hex(json, n, hex);
	if (!bytes || strtoull(bytes, NULL, 10) != n || !sum ||
	    (size_t)(end - sum) < 64 || memcmp(sum, hex, 64)) {
		c->status = LAVA_CON_BAD_RESULT;
		snprintf(c->msg, sizeof(c->msg), "result does not match its"
			 " size or sha256 (%zu bytes, sha256 %.16s...)", n, hex);
		free(json);
		return;
	}
	c->json = json;
	c->json_len = n;
	c->status = LAVA_CON_OK;
}

void lava_console_parse(const char *text, size_t len, struct lava_console *c)
{
	const char *end = text + len, *bb, *be, *rb, *er;

	memset(c, 0, sizeof(*c));
	c->bench_rc = -1;
	take_insn(text, end, c);
	bb = find_line(text, end, SERIAL_BENCH_BEGIN);
	er = find_line(text, end, SERIAL_ERROR);
	if (!bb) {
		c->status = LAVA_CON_NO_BENCH;
		snprintf(c->msg, sizeof(c->msg), "%s",
			 er ? "the guest could not start the bench" :
			 "the bench never started (no " SERIAL_BENCH_BEGIN ")");
		if (er) {
			const char *le = memchr(er, '\n', (size_t)(end - er));

			snprintf(c->msg, sizeof(c->msg), "%.*s",
				 (int)((le ? le : end) - er), er);
		}
		return;
	}
	be = find_line(bb, end, SERIAL_BENCH_END);
	if (be) {
		const char *rc = field(be, end, "rc=");

		c->bench_rc = rc ? atoi(rc) : -1;
	}
	rb = find_line(bb, end, SERIAL_RESULT_BEGIN);
	if (!rb) {
		c->status = LAVA_CON_BENCH_FAILED;
		if (er) {
			const char *le = memchr(er, '\n', (size_t)(end - er));

			snprintf(c->msg, sizeof(c->msg), "%.*s",
				 (int)((le ? le : end) - er), er);
		} else {
			snprintf(c->msg, sizeof(c->msg), "the bench %s",
				 be ? "failed (no result)" :
				 "did not finish");
		}
		return;
	}
	take_result(rb, end, c);
}

void lava_console_free(struct lava_console *c)
{
	free(c->json);
	free(c->insn);
	memset(c, 0, sizeof(*c));
}
