// SPDX-License-Identifier: MIT
/*
 * mail_header - decoding of mail header values for patch_parse: strict
 * UTF-8 validation, RFC 2047 encoded words, "[PATCH n/m]" subject prefixes.
 * Every function reads exactly the bytes it is given (no NUL needed) and
 * allocates at most 2n + 1 bytes.
 */
#include "mail_header.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int hex_val(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/* Strict UTF-8: no overlongs, surrogates or code points past U+10FFFF. */
bool mail_utf8_valid(const unsigned char *s, size_t n)
{
	size_t i = 0, k, need;
	uint32_t cp, min;

	while (i < n) {
		if (s[i] < 0x80) {
			i++;
			continue;
		}
		if ((s[i] & 0xe0) == 0xc0) {
			need = 1, cp = s[i] & 0x1f, min = 0x80;
		} else if ((s[i] & 0xf0) == 0xe0) {
			need = 2, cp = s[i] & 0x0f, min = 0x800;
		} else if ((s[i] & 0xf8) == 0xf0) {
			need = 3, cp = s[i] & 0x07, min = 0x10000;
		} else {
			return false;
		}
		if (n - i <= need)
			return false;
		for (k = 1; k <= need; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return false;
			cp = (cp << 6) | (s[i + k] & 0x3f);
		}
		if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			return false;
		i += need + 1;
	}
	return true;
}

enum cs { CS_UTF8, CS_LATIN1, CS_BAD };

static enum cs charset_of(const char *s, size_t n)
{
	const void *star = memchr(s, '*', n); /* RFC 2231 language suffix */

	if (star)
		n = (size_t)((const char *)star - s);
	if ((n == 5 && !strncasecmp(s, "utf-8", 5)) ||
	    (n == 4 && !strncasecmp(s, "utf8", 4)) ||
	    (n == 8 && !strncasecmp(s, "us-ascii", 8)))
		return CS_UTF8;
	if ((n == 10 && !strncasecmp(s, "iso-8859-1", 10)) ||
	    (n == 6 && !strncasecmp(s, "latin1", 6)))
		return CS_LATIN1;
	return CS_BAD;
}

static void put_byte(char *out, size_t *o, unsigned char b, enum cs cs)
{
	if (cs == CS_LATIN1 && b >= 0x80) {
		out[(*o)++] = (char)(0xc0 | (b >> 6));
		out[(*o)++] = (char)(0x80 | (b & 0x3f));
	} else {
		out[(*o)++] = (char)b;
	}
}

static int b64_val(char ch)
{
	if (ch >= 'A' && ch <= 'Z')
		return ch - 'A';
	if (ch >= 'a' && ch <= 'z')
		return ch - 'a' + 26;
	if (ch >= '0' && ch <= '9')
		return ch - '0' + 52;
	if (ch == '+')
		return 62;
	if (ch == '/')
		return 63;
	return -1;
}

/* Decode one encoded-word's text; false (and *o unchanged) if invalid. */
static bool decode_text(const char *t, size_t n, char enc, enum cs cs,
			char *out, size_t *o)
{
	size_t i, start = *o;
	uint32_t acc = 0;
	int bits = 0, v;

	for (i = 0; i < n; i++) {
		if (enc == 'Q') {
			if (t[i] == '_') {
				put_byte(out, o, ' ', cs);
			} else if (t[i] == '=') {
				if (n - i < 3 || hex_val(t[i + 1]) < 0 ||
				    hex_val(t[i + 2]) < 0)
					goto bad;
				put_byte(
					out, o,
					(unsigned char)(hex_val(t[i + 1]) * 16 +
							hex_val(t[i + 2])),
					cs);
				i += 2;
			} else {
				put_byte(out, o, (unsigned char)t[i], cs);
			}
			continue;
		}
		if (t[i] == '=')
			break; /* padding */
		v = b64_val(t[i]);
		if (v < 0)
			goto bad;
		acc = (acc << 6) | (uint32_t)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			put_byte(out, o, (unsigned char)(acc >> bits), cs);
			acc &= (1u << bits) - 1;
		}
	}
	return true;
bad:
	*o = start;
	return false;
}

/*
 * Try an encoded word "=?charset?Q|B?text?=" at s[i]; on success append the
 * decoded bytes and return the index after "?=", else return 0.
 */
static size_t encoded_word(const char *s, size_t n, size_t i, char *out,
			   size_t *o)
{
	size_t cs0 = i + 2, q1, t0, j;
	enum cs cs;
	char enc;

	for (q1 = cs0; q1 < n && q1 - cs0 < 64 && s[q1] != '?'; q1++)
		if (s[q1] == ' ' || s[q1] == '\t')
			return 0;
	if (q1 + 2 >= n || s[q1] != '?' || s[q1 + 2] != '?')
		return 0;
	enc = s[q1 + 1] == 'q' ? 'Q' : s[q1 + 1] == 'b' ? 'B' : s[q1 + 1];
	if (enc != 'Q' && enc != 'B')
		return 0;
	cs = charset_of(s + cs0, q1 - cs0);
	if (cs == CS_BAD)
		return 0;
	t0 = q1 + 3;
	for (j = t0; j + 1 < n; j++) {
		if (s[j] == ' ' || s[j] == '\t')
			return 0;
		if (s[j] == '?' && s[j + 1] == '=')
			break;
	}
	if (j + 1 >= n)
		return 0;
	if (!decode_text(s + t0, j - t0, enc, cs, out, o))
		return 0;
	return j + 2;
}

/*
 * Decode RFC 2047 words in a header value.  Whitespace between two adjacent
 * encoded words is dropped; control characters become spaces.  Returns a
 * malloc'd string, or NULL with *bad_utf8 set / on allocation failure.
 */
char *mail_decode_header(const char *s, size_t n, bool *bad_utf8)
{
	char *out = malloc(2 * n + 1);
	size_t i = 0, o = 0, ws_mark = 0, end;
	bool after_word = false;

	*bad_utf8 = false;
	if (!out)
		return NULL;
	while (i < n) {
		if (s[i] == '=' && i + 1 < n && s[i + 1] == '?') {
			size_t mark = o;

			if (after_word)
				o = ws_mark; /* drop the separating whitespace */
			end = encoded_word(s, n, i, out, &o);
			if (end) {
				i = end;
				after_word = true;
				ws_mark = o;
				continue;
			}
			o = mark;
		}
		if (s[i] != ' ' && s[i] != '\t')
			after_word = false;
		out[o++] = s[i++];
	}
	out[o] = '\0';
	if (!mail_utf8_valid((unsigned char *)out, o)) {
		*bad_utf8 = true;
		free(out);
		return NULL;
	}
	for (i = 0; i < o; i++)
		if ((unsigned char)out[i] < 0x20 || out[i] == 0x7f)
			out[i] = ' ';
	return out;
}

/* Skip leading "[PATCH ...]"/"[RFC ...]" groups; note a "0/N" cover letter. */
const char *mail_strip_subject(const char *s, bool *cover)
{
	const char *end, *p;

	*cover = false;
	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s != '[')
			break;
		end = strchr(s, ']');
		if (!end)
			break;
		if (!memmem(s, (size_t)(end - s), "PATCH", 5) &&
		    !memmem(s, (size_t)(end - s), "RFC", 3))
			break;
		for (p = s + 1; p < end; p++) {
			if (*p != '0' || (p[-1] != ' ' && p[-1] != '['))
				continue;
			while (p < end && *p == '0')
				p++;
			if (p < end && *p == '/')
				*cover = true;
		}
		s = end + 1;
	}
	return s;
}
