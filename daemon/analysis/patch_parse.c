// SPDX-License-Identifier: MIT
/*
 * patch_parse - git format-patch mbox / email / unified diff parser.
 *
 * Hostile input: the buffer is not NUL-terminated, every read is checked
 * against its length, there is no recursion and every loop advances by at
 * least one byte or line.
 *
 * This file splits the input into emails and reads their headers; the
 * diff of each is patch_diff.c.
 */
#include "daemon/analysis/mail_header.h"
#include "daemon/analysis/patch_lex.h"
#include "daemon/analysis/patch_parse.h"

#include <openssl/evp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Unfolded header values of one email, NUL-terminated. */
struct hdrs {
	char v[6][PATCH_MAX_HEADER + 1];
	size_t n[6];
	bool seen[6];
};

enum { H_FROM, H_SUBJECT, H_DATE, H_MSGID, H_CTE, H_CTYPE, H_NONE };

static bool is_hex(char ch)
{
	return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f') ||
	       (ch >= 'A' && ch <= 'F');
}

/*
 * "From <40 hex> <date>" (git format-patch), "From git@z " (b4) or
 * "From mboxrd@z " (lore.kernel.org mboxes).
 */
static bool is_mbox_from(const struct lex_line *l)
{
	size_t i;

	if (line_starts(l, "From git@z ") || line_starts(l, "From mboxrd@z "))
		return true;
	if (l->n < 46 || memcmp(l->s, "From ", 5) || l->s[45] != ' ')
		return false;
	for (i = 5; i < 45; i++)
		if (!is_hex(l->s[i]))
			return false;
	return true;
}

static char *xstrndup(const char *s, size_t n)
{
	char *p = malloc(n + 1);

	if (p) {
		memcpy(p, s, n);
		p[n] = '\0';
	}
	return p;
}

/* ---- headers ------------------------------------------------------------ */

static int header_kind(const struct lex_line *l, size_t *vstart)
{
	static const char *const names[] = { "from:",
					     "subject:",
					     "date:",
					     "message-id:",
					     "content-transfer-encoding:",
					     "content-type:" };
	size_t i, k;

	for (i = 0; i < l->n && i < 80; i++) {
		char ch = l->s[i];

		if (ch == ':')
			break;
		if (ch <= ' ' || ch > '~')
			return -1;
	}
	if (i == 0 || i >= l->n || l->s[i] != ':')
		return -1;
	*vstart = i + 1;
	for (k = 0; k < H_NONE; k++)
		if (strlen(names[k]) == i + 1 &&
		    !strncasecmp(l->s, names[k], i + 1))
			return (int)k;
	return H_NONE;
}

static int hdr_append(struct pctx *c, struct hdrs *h, int k, const char *s,
		      size_t n)
{
	while (n && (*s == ' ' || *s == '\t'))
		s++, n--;
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (!n)
		return 0;
	if (h->n[k] + n + 1 > PATCH_MAX_HEADER)
		return fail(c, "line %zu: header too long (max %d bytes)",
			    c->lineno, PATCH_MAX_HEADER);
	if (h->n[k])
		h->v[k][h->n[k]++] = ' ';
	memcpy(h->v[k] + h->n[k], s, n);
	h->n[k] += n;
	h->v[k][h->n[k]] = '\0';
	return 0;
}

/*
 * Parse the mail header block at *pos, if there is one: header lines and
 * continuations up to a blank line.  Leaves *pos after the blank line, or
 * unchanged (and h empty) when the text does not start with a header block.
 */
static int parse_headers(struct pctx *c, const char *buf, size_t len,
			 size_t *pos, struct hdrs *h)
{
	size_t p = *pos, line0 = c->lineno, vs = 0;
	int cur = -1, k;
	struct lex_line l;

	while (get_line(buf, len, &p, &l)) {
		c->lineno++;
		if (!l.n)
			break;
		if (l.s[0] == ' ' || l.s[0] == '\t') {
			if (cur < 0)
				goto not_mail;
		} else {
			k = header_kind(&l, &vs);
			if (k < 0)
				goto not_mail;
			cur = k < H_NONE && !h->seen[k] ? k : H_NONE;
			if (cur < H_NONE)
				h->seen[cur] = true;
		}
		if (!mail_utf8_valid((const unsigned char *)l.s, l.n))
			return fail(c, "line %zu: invalid UTF-8 in mail header",
				    c->lineno);
		if (cur == H_NONE)
			continue;
		if (l.s[0] == ' ' || l.s[0] == '\t')
			vs = 0;
		if (hdr_append(c, h, cur, l.s + vs, l.n - vs))
			return -1;
		vs = 0;
	}
	*pos = p;
	return 0;
not_mail:
	memset(h, 0, sizeof(*h));
	c->lineno = line0;
	return 0;
}

/* git am decodes these; the lab takes the patch text as it is. */
static int check_encoding(struct pctx *c, const struct hdrs *h)
{
	const char *cte = h->v[H_CTE];

	if (!strcasecmp(cte, "quoted-printable") || !strcasecmp(cte, "base64"))
		return fail(
			c,
			"%s-encoded mail bodies are not supported: send the patch as plain text (git format-patch output)",
			cte);
	if (!strncasecmp(h->v[H_CTYPE], "multipart/", 10))
		return fail(
			c,
			"MIME multipart mails (attachments) are not supported: send the patch inline");
	return 0;
}

static int fill_headers(struct pctx *c, struct hdrs *h, struct patch *p,
			bool *cover)
{
	bool bad = false;
	char *subj;

	subj = mail_decode_header(h->v[H_SUBJECT], h->n[H_SUBJECT], &bad);
	if (!subj)
		goto err;
	p->subject = strdup(mail_strip_subject(subj, cover));
	free(subj);
	p->author = mail_decode_header(h->v[H_FROM], h->n[H_FROM], &bad);
	if (!p->subject || !p->author)
		goto err;
	p->date = strdup(h->v[H_DATE]);
	p->message_id = strdup(h->v[H_MSGID]);
	if (!p->date || !p->message_id)
		goto err;
	return 0;
err:
	if (bad)
		return fail(c, "invalid UTF-8 in a decoded mail header");
	return fail(c, "out of memory");
}

/* ---- patches and series -------------------------------------------------- */

static void patch_free(struct patch *p)
{
	int i;

	for (i = 0; i < p->nfiles; i++) {
		free(p->files[i].old_path);
		free(p->files[i].new_path);
	}
	free(p->files);
	free(p->subject);
	free(p->author);
	free(p->message_id);
	free(p->date);
	free(p->raw);
	memset(p, 0, sizeof(*p));
}

static int patch_hash(struct patch *p)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0, i;

	if (!EVP_Digest(p->raw, p->raw_len, md, &mdlen, EVP_sha256(), NULL) ||
	    mdlen != 32)
		return -1;
	for (i = 0; i < mdlen; i++)
		snprintf(p->sha256 + 2 * i, 3, "%02x", md[i]);
	return 0;
}

/*
 * git send-email puts the real author's "From:" (and maybe "Date:" and
 * "Subject:") at the top of the body; like git am, let those win.
 */
static int inbody_headers(struct pctx *c, const char *buf, size_t len,
			  size_t *pos, struct hdrs *h)
{
	size_t p = *pos;
	struct hdrs *h2;
	struct lex_line l;
	int k, r;

	if (!h->seen[H_FROM] || !get_line(buf, len, &p, &l) ||
	    !line_starts(&l, "From: "))
		return 0;
	h2 = calloc(1, sizeof(*h2));
	if (!h2)
		return fail(c, "out of memory");
	r = parse_headers(c, buf, len, pos, h2);
	for (k = H_FROM; !r && k <= H_DATE; k++) {
		if (!h2->seen[k])
			continue;
		memcpy(h->v[k], h2->v[k], h2->n[k] + 1);
		h->n[k] = h2->n[k];
	}
	free(h2);
	return r;
}

/* Parse one patch (chunk); *skip is set for a cover letter without diff. */
static int parse_chunk(struct pctx *c, const char *buf, size_t len,
		       struct patch *p, struct hdrs *h, bool *skip)
{
	size_t pos = 0, save = 0;
	bool cover = false;
	struct lex_line l;

	*skip = false;
	memset(h, 0, sizeof(*h));
	if (get_line(buf, len, &save, &l) && is_mbox_from(&l)) {
		pos = save;
		c->lineno++;
	}
	if (parse_headers(c, buf, len, &pos, h) ||
	    inbody_headers(c, buf, len, &pos, h) || check_encoding(c, h) ||
	    fill_headers(c, h, p, &cover))
		return -1;
	if (patch_parse_diff(c, p, buf, len, pos))
		return -1;
	if (!p->nfiles) {
		if (cover && c->nchunks > 1) {
			*skip = true;
			return 0;
		}
		return fail(c, "not a patch: no diff found");
	}
	p->raw = xstrndup(buf, len);
	if (!p->raw)
		return fail(c, "out of memory");
	p->raw_len = len;
	if (patch_hash(p))
		return fail(c, "sha256 failed");
	return 0;
}

static bool all_blank(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n')
			return false;
	return true;
}

/*
 * Chunk boundaries: offsets of mbox "From " lines, plus 0 when text precedes
 * the first one.  Returns the count, or -1 if there are too many.
 */
static int split_chunks(const char *buf, size_t len, size_t *starts_out,
			int max)
{
	size_t pos = 0, at;
	struct lex_line l;
	int n = 0;

	for (;;) {
		at = pos;
		if (!get_line(buf, len, &pos, &l))
			break;
		if (!is_mbox_from(&l) && at)
			continue;
		if (!is_mbox_from(&l)) { /* text before any From line */
			starts_out[n++] = 0;
			continue;
		}
		if (n == 1 && starts_out[0] == 0 && all_blank(buf, at))
			n = 0; /* leading blank lines belong to nothing */
		if (n >= max)
			return -1;
		starts_out[n++] = at;
	}
	return n;
}

int patch_parse(const char *buf, size_t len, struct patch_series *out,
		char *err, size_t errlen)
{
	struct pctx c = { .err = err, .errlen = errlen };
	size_t starts_at[PATCH_MAX_PATCHES + 2];
	struct hdrs *h = NULL;
	size_t line0 = 0, k;
	const void *nul;
	bool skip;
	int n, i;

	if (err && errlen)
		err[0] = '\0';
	if (!out)
		return fail(&c, "internal error: no output");
	memset(out, 0, sizeof(*out));
	if (!buf || !len)
		return fail(&c, "empty input");
	if (len > PATCH_MAX_TOTAL)
		return fail(&c, "input too large (%zu bytes, max %u)", len,
			    PATCH_MAX_TOTAL);
	nul = memchr(buf, '\0', len);
	if (nul)
		return fail(&c, "input contains a NUL byte at offset %zu",
			    (size_t)((const char *)nul - buf));
	if (all_blank(buf, len))
		return fail(&c, "empty input");
	n = split_chunks(buf, len, starts_at, PATCH_MAX_PATCHES + 1);
	if (n < 0)
		return fail(&c, "too many patches (max %d)", PATCH_MAX_PATCHES);
	h = malloc(sizeof(*h));
	out->patches = calloc((size_t)n, sizeof(*out->patches));
	if (!h || !out->patches) {
		fail(&c, "out of memory");
		goto err;
	}
	c.nchunks = n;
	for (i = 0; i < n; i++) {
		size_t s = starts_at[i], e = i + 1 < n ? starts_at[i + 1] : len;
		struct patch *p = &out->patches[out->n];

		c.chunk = i + 1;
		c.lineno = line0;
		if (parse_chunk(&c, buf + s, e - s, p, h, &skip)) {
			patch_free(p);
			goto err;
		}
		if (skip)
			patch_free(p);
		else
			out->n++;
		for (k = s; k < e; k++) /* line numbers count over the input */
			line0 += buf[k] == '\n';
	}
	c.chunk = 0;
	if (!out->n) {
		fail(&c, "not a patch: no diff found");
		goto err;
	}
	if (out->n > PATCH_MAX_PATCHES) {
		fail(&c, "too many patches (max %d)", PATCH_MAX_PATCHES);
		goto err;
	}
	free(h);
	return 0;
err:
	free(h);
	patch_series_free(out);
	return -1;
}

void patch_series_free(struct patch_series *s)
{
	int i;

	if (!s)
		return;
	for (i = 0; i < s->n; i++)
		patch_free(&s->patches[i]);
	free(s->patches);
	s->patches = NULL;
	s->n = 0;
}
