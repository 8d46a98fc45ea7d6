// SPDX-License-Identifier: MIT
/*
 * mail_out - outgoing message headers that untrusted text cannot break;
 * see mail_out.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/analysis/mail_header.h"
#include "daemon/analysis/mail_out.h"

#define ASCII_MAX 900	/* of a header value; lines must stay below 998 */
#define WORD_BYTES 42	/* UTF-8 bytes a word: 56 base64 chars, "Subject: " + word <= 78 */

int mail_addr_ok(const char *s)
{
	const char *at = s ? strchr(s, '@') : NULL;
	size_t n;

	if (!at || at == s || !at[1] || strchr(at + 1, '@'))
		return 0;
	n = strlen(s);
	if (n > 254 || s[0] == '-')
		return 0;
	for (; *s; s++)
		if (*s <= ' ' || *s >= 0x7f || strchr("\"(),:;<>[\\]", *s))
			return 0;
	return 1;
}

int mail_msgid_ok(const char *s)
{
	size_t n = s ? strlen(s) : 0;

	if (n < 5 || n > 250 || s[0] != '<' || s[n - 1] != '>' ||
	    !memchr(s, '@', n))
		return 0;
	for (size_t i = 1; i < n - 1; i++)
		if (s[i] <= ' ' || s[i] >= 0x7f || s[i] == '<' || s[i] == '>')
			return 0;
	return 1;
}

/* Length of the valid UTF-8 sequence at @s (0: invalid). */
static size_t utf8_len(const unsigned char *s, size_t left)
{
	size_t n = s[0] < 0x80 ? 1 : (s[0] & 0xe0) == 0xc0 ? 2 :
		   (s[0] & 0xf0) == 0xe0 ? 3 : (s[0] & 0xf8) == 0xf0 ? 4 : 0;

	if (!n || n > left || !mail_utf8_valid(s, n))
		return 0;
	return n;
}

/* @v with control characters as spaces and bad UTF-8 as U+FFFD. */
static char *clean(const char *v, int *ascii)
{
	size_t n = strlen(v), o = 0;
	char *out = malloc(3 * n + 1);
	const unsigned char *s = (const unsigned char *)v;

	*ascii = 1;
	if (!out)
		return NULL;
	for (size_t i = 0; i < n;) {
		size_t k = utf8_len(s + i, n - i);

		if (k == 1) {
			out[o++] = s[i] < 0x20 || s[i] == 0x7f ? ' ' : s[i];
		} else if (k) {
			memcpy(out + o, s + i, k);
			o += k;
			*ascii = 0;
		} else {
			memcpy(out + o, "\xef\xbf\xbd", 3);
			o += 3;
			*ascii = 0;
			k = 1;
		}
		i += k;
	}
	out[o] = '\0';
	return out;
}

static void b64(FILE *f, const unsigned char *s, size_t n)
{
	static const char t[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

	for (size_t i = 0; i < n; i += 3) {
		unsigned v = s[i] << 16 | (i + 1 < n ? s[i + 1] << 8 : 0) |
			     (i + 2 < n ? s[i + 2] : 0);

		fputc(t[v >> 18 & 63], f);
		fputc(t[v >> 12 & 63], f);
		fputc(i + 1 < n ? t[v >> 6 & 63] : '=', f);
		fputc(i + 2 < n ? t[v & 63] : '=', f);
	}
}

/* Encoded words of whole UTF-8 characters, one per folded line. */
static void encode(FILE *f, const char *v)
{
	const unsigned char *s = (const unsigned char *)v;
	size_t n = strlen(v), i = 0;

	while (i < n) {
		size_t end = i, k;

		while (end < n && (k = utf8_len(s + end, n - end)) &&
		       end + k - i <= WORD_BYTES)
			end += k;
		if (end == i)	/* cannot happen after clean(); stay finite */
			end = i + 1;
		fputs(i ? "\r\n =?UTF-8?B?" : "=?UTF-8?B?", f);
		b64(f, s + i, end - i);
		fputs("?=", f);
		i = end;
	}
}

char *mail_header_line(const char *name, const char *value)
{
	char *buf = NULL, *v;
	size_t len = 0;
	int ascii;
	FILE *f;

	v = clean(value ? value : "", &ascii);
	if (!v)
		return NULL;
	f = open_memstream(&buf, &len);
	if (!f) {
		free(v);
		return NULL;
	}
	fprintf(f, "%s: ", name);
	if (ascii)
		fprintf(f, "%.*s", ASCII_MAX, v);
	else
		encode(f, v);
	fputs("\r\n", f);
	free(v);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

static int put_header(FILE *f, const char *name, const char *value)
{
	char *h = mail_header_line(name, value);

	if (!h)
		return -1;
	fputs(h, f);
	free(h);
	return 0;
}

/* "To: a, b" of the recipients that pass; 0 when none does. */
static size_t put_to(FILE *f, const struct mail_out *m)
{
	size_t ok = 0;

	for (size_t i = 0; i < m->nr_to; i++) {
		if (!mail_addr_ok(m->to[i]))
			continue;
		fprintf(f, ok ? ",\r\n %s" : "To: %s", m->to[i]);
		ok++;
	}
	if (ok)
		fputs("\r\n", f);
	return ok;
}

static void put_body(FILE *f, const char *body)
{
	for (const char *p = body; *p; p++) {
		if (*p == '\r' && p[1] == '\n')
			continue;
		if (*p == '\n' || *p == '\r')
			fputs("\r\n", f);
		else
			fputc(*p, f);
	}
	if (*body && body[strlen(body) - 1] != '\n')
		fputs("\r\n", f);
}

char *mail_build(const struct mail_out *m, const char *body)
{
	const char *from = mail_addr_ok(m->from) ? m->from : "perflab@localhost";
	char *buf = NULL, *name = NULL;
	size_t len = 0, nto;
	int bad = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	if (m->from_name && *m->from_name) {
		char *h = mail_header_line("X", m->from_name);

		if (!h)
			bad = 1;
		else if (asprintf(&name, "%.*s <%s>", (int)(strlen(h) - 5),
				  h + 3, from) < 0)
			bad = 1, name = NULL;
		free(h);
	}
	/* the display name is already safe: printed as it is */
	fprintf(f, "From: %s\r\n", name ? name : from);
	free(name);
	nto = put_to(f, m);
	bad |= put_header(f, "Subject", m->subject);
	if (m->date && *m->date)
		bad |= put_header(f, "Date", m->date);
	if (mail_msgid_ok(m->message_id))
		fprintf(f, "Message-ID: %s\r\n", m->message_id);
	if (mail_msgid_ok(m->in_reply_to))
		fprintf(f, "In-Reply-To: %s\r\nReferences: %s\r\n",
			m->in_reply_to, m->in_reply_to);
	if (m->lab_reply)
		bad |= put_header(f, "X-Perflab-Reply", m->lab_reply);
	fputs("MIME-Version: 1.0\r\n"
	      "Content-Type: text/plain; charset=utf-8\r\n"
	      "Content-Transfer-Encoding: 8bit\r\n\r\n", f);
	put_body(f, body ? body : "");
	if (fclose(f) || bad || !nto) {
		free(buf);
		return NULL;
	}
	return buf;
}
