// SPDX-License-Identifier: MIT
/*
 * One list message: its thread headers, subject tags and kind; see
 * mail_thread.h.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "daemon/analysis/mail_header.h"
#include "daemon/analysis/mail_out.h"
#include "daemon/analysis/mail_thread.h"

/* The header block, and one header's value (References may be long). */
#define HDR_BLOCK_MAX (64u << 10)
#define HDR_VALUE_MAX (16u << 10)

enum { H_MSGID, H_IRT, H_REFS, H_SUBJ, H_FROM, H_LAB, H_CTE, H_CTYPE, H_NR };

static const char *const hdr_names[H_NR] = {
	"message-id", "in-reply-to", "references", "subject", "from",
	MAIL_LAB_HEADER, "content-transfer-encoding", "content-type",
};

struct hdrs {
	char v[H_NR][HDR_VALUE_MAX];
	size_t n[H_NR];
	bool seen[H_NR];
};

const char *mail_kind_name(enum mail_kind k)
{
	static const char *const names[] = { "patch", "cover", "reply", "own",
					     "refused" };

	return (unsigned)k < sizeof(names) / sizeof(names[0]) ? names[k] : "?";
}

static int refuse(struct mail_thread *t, const char *fmt, const char *arg)
{
	t->kind = MAIL_REFUSED;
	snprintf(t->why, sizeof(t->why), fmt, arg);
	return 0;
}

/* ---- subject tags ------------------------------------------------------ */

static const char *skip_reply_prefix(const char *s, bool *reply)
{
	static const char *const pfx[] = { "re:", "fwd:", "fw:", "aw:" };
	bool again = true;

	while (again) {
		again = false;
		while (*s == ' ' || *s == '\t')
			s++;
		for (size_t i = 0; i < sizeof(pfx) / sizeof(pfx[0]); i++)
			if (!strncasecmp(s, pfx[i], strlen(pfx[i]))) {
				s += strlen(pfx[i]);
				*reply = again = true;
			}
	}
	return s;
}

/* One token of a [...] group: PATCH, RFC, vN, m/n or anything else. */
static void subject_token(const char *w, size_t n, struct mail_subject *s)
{
	char tok[32];
	int a, b, c;

	if (!n || n >= sizeof(tok))
		return;
	memcpy(tok, w, n);
	tok[n] = '\0';
	if (!strcasecmp(tok, "PATCH") || !strcasecmp(tok, "RFC"))
		s->patch = true;
	else if ((tok[0] == 'v' || tok[0] == 'V') && sscanf(tok + 1, "%d%n", &a, &c) == 1 &&
		 !tok[c + 1] && a >= 1 && a <= 1000)
		s->version = a;
	else if (sscanf(tok, "%d/%d%n", &a, &b, &c) == 2 && !tok[c]) {
		s->idx = a >= 0 && b >= 1 && a <= b && b <= MAIL_MAX_TOTAL ? a : -1;
		s->total = b >= 1 && b <= MAIL_MAX_TOTAL ? b : -1;
	}
}

void mail_subject_parse(const char *subject, struct mail_subject *s)
{
	const char *p, *end;
	size_t o = 0;
	bool space = false;

	memset(s, 0, sizeof(*s));
	s->version = 1;
	s->idx = s->total = 1;
	p = skip_reply_prefix(subject, &s->reply);
	while (*p == '[' && (end = strchr(p, ']'))) {
		const char *w = p + 1;

		while (w < end) {
			size_t n = strcspn(w, " \t]");

			subject_token(w, n, s);
			w += n;
			while (w < end && (*w == ' ' || *w == '\t'))
				w++;
		}
		p = end + 1;
		while (*p == ' ' || *p == '\t')
			p++;
	}
	for (; *p && o + 1 < sizeof(s->norm); p++) {
		if (isspace((unsigned char)*p)) {
			space = o > 0;
			continue;
		}
		if (space)
			s->norm[o++] = ' ';
		space = false;
		if (o + 1 < sizeof(s->norm))
			s->norm[o++] = (char)tolower((unsigned char)*p);
	}
	s->norm[o] = '\0';
}

/* ---- headers ----------------------------------------------------------- */

static int hdr_index(const char *name, size_t n)
{
	for (int k = 0; k < H_NR; k++)
		if (strlen(hdr_names[k]) == n && !strncasecmp(name, hdr_names[k], n))
			return k;
	return -1;
}

static int hdr_add(struct hdrs *h, int k, const char *s, size_t n)
{
	while (n && (*s == ' ' || *s == '\t'))
		s++, n--;
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		n--;
	if (h->n[k] + n + 2 > HDR_VALUE_MAX)
		return -1;
	if (h->n[k] && n)
		h->v[k][h->n[k]++] = ' ';
	memcpy(h->v[k] + h->n[k], s, n);
	h->n[k] += n;
	h->v[k][h->n[k]] = '\0';
	return 0;
}

/* Read the header block; the body's offset in *@body, or a refusal. */
static int read_headers(const char *raw, size_t len, struct hdrs *h,
			size_t *body, struct mail_thread *t)
{
	size_t p = 0;
	int cur = -1;

	/* An mbox "From " separator line is not a header. */
	if (len > 5 && !memcmp(raw, "From ", 5)) {
		const char *nl = memchr(raw, '\n', len);

		p = nl ? (size_t)(nl - raw) + 1 : len;
	}
	while (p < len) {
		const char *l = raw + p, *nl = memchr(l, '\n', len - p);
		size_t n = nl ? (size_t)(nl - l) : len - p, colon;

		if (p > HDR_BLOCK_MAX)
			return refuse(t, "header block over %s bytes", "65536");
		p += n + (nl ? 1 : 0);
		if (n && l[n - 1] == '\r')
			n--;
		if (!n) {
			*body = p;
			return 1;
		}
		if (!mail_utf8_valid((const unsigned char *)l, n))
			return refuse(t, "invalid UTF-8 in a header%s", "");
		if (l[0] == ' ' || l[0] == '\t') {
			if (cur >= 0 && hdr_add(h, cur, l, n))
				return refuse(t, "header %s too long", hdr_names[cur]);
			continue;
		}
		for (colon = 0; colon < n && colon < 80 && l[colon] > ' ' &&
				l[colon] <= '~' && l[colon] != ':'; colon++)
			;
		if (!colon || colon >= n || l[colon] != ':')
			return refuse(t, "malformed header line (not \"Name: value\")%s", "");
		cur = hdr_index(l, colon);
		if (cur >= 0 && h->seen[cur])
			cur = -1;	/* the first one counts */
		if (cur < 0)
			continue;
		h->seen[cur] = true;
		if (hdr_add(h, cur, l + colon + 1, n - colon - 1))
			return refuse(t, "header %s too long", hdr_names[cur]);
	}
	return refuse(t, "no blank line after the headers (no body)%s", "");
}

/* The first "<...>" of @v as a checked Message-ID, or NULL. */
static char *first_msgid(const char *v)
{
	const char *a = strchr(v, '<'), *b = a ? strchr(a, '>') : NULL;
	char *id;

	if (!b)
		return NULL;
	id = strndup(a, (size_t)(b - a) + 1);
	if (id && !mail_msgid_ok(id)) {
		free(id);
		return NULL;
	}
	return id;
}

static char *addr_of(const char *from)
{
	const char *a = strrchr(from, '<'), *b = a ? strchr(a, '>') : NULL;
	char *s = a && b ? strndup(a + 1, (size_t)(b - a) - 1) : strdup(from);

	if (s && !mail_addr_ok(s))
		s[0] = '\0';
	return s;
}

/* ---- body -------------------------------------------------------------- */

/* @line's value after @key (at the start of a body line), or NULL. */
static char *body_field(const char *b, size_t n, const char *key, size_t max)
{
	size_t k = strlen(key);

	for (size_t p = 0; p < n;) {
		const char *l = b + p, *nl = memchr(l, '\n', n - p);
		size_t ln = nl ? (size_t)(nl - l) : n - p, v;

		p += ln + 1;
		if (ln <= k || strncasecmp(l, key, k))
			continue;
		for (v = k; v < ln && v - k < max && (isalnum((unsigned char)l[v]) ||
						       strchr("-._", l[v])); v++)
			;
		if (v > k)
			return strndup(l + k, v - k);
	}
	return NULL;
}

/* Checks of a patch body: has a diff, no symlink or gitlink modes. */
static void check_diff(const char *b, size_t n, struct mail_thread *t)
{
	static const char *const modes[] = { "new file mode ", "deleted file mode ",
					     "old mode ", "new mode ", "index " };
	char path[200] = "?";
	bool diff = false, minus = false;

	for (size_t p = 0; p < n && t->kind != MAIL_REFUSED;) {
		const char *l = b + p, *nl = memchr(l, '\n', n - p);
		size_t ln = nl ? (size_t)(nl - l) : n - p;

		p += ln + 1;
		if (ln > 11 && !strncmp(l, "diff --git ", 11)) {
			diff = true;
			snprintf(path, sizeof(path), "%.*s", (int)(ln - 11 < 190 ? ln - 11 : 190),
				 l + 11);
		} else if (ln > 4 && !strncmp(l, "--- ", 4)) {
			minus = true;
		} else if (ln > 4 && !strncmp(l, "+++ ", 4) && minus) {
			diff = true;
		}
		for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
			size_t k = strlen(modes[i]);

			if (ln < k + 6 || strncmp(l, modes[i], k))
				continue;
			if (i == 4) {	/* "index a..b 120000" */
				if (ln >= 7 && (!strncmp(l + ln - 7, " 120000", 7) ||
						!strncmp(l + ln - 7, " 160000", 7)))
					refuse(t, "a symlink or submodule mode in %s", path);
				continue;
			}
			if (!strncmp(l + k, "120000", 6) || !strncmp(l + k, "160000", 6))
				refuse(t, "a symlink or submodule mode in %s", path);
		}
	}
	if (t->kind != MAIL_REFUSED && !diff)
		refuse(t, "a [PATCH] without a diff%s", "");
}

/* ---- the message ------------------------------------------------------- */

static int fill(struct mail_thread *t, struct hdrs *h)
{
	bool bad = false;
	char *refs_root;

	t->subject = mail_decode_header(h->v[H_SUBJ], h->n[H_SUBJ], &bad);
	t->from = mail_decode_header(h->v[H_FROM], h->n[H_FROM], &bad);
	if (!t->subject || !t->from)
		return bad ? refuse(t, "invalid UTF-8 in Subject or From%s", "") : -1;
	t->from_addr = addr_of(t->from);
	t->in_reply_to = first_msgid(h->v[H_IRT]);
	refs_root = first_msgid(h->v[H_REFS]);
	t->root = refs_root ? refs_root :
		  strdup(t->in_reply_to ? t->in_reply_to : t->message_id);
	if (!t->from_addr || !t->root)
		return -1;
	mail_subject_parse(t->subject, &t->subj);
	return 1;
}

static int classify(const char *raw, size_t len, struct mail_thread *t,
		    struct hdrs *h)
{
	const char *b = raw + t->body_off;
	size_t n = len - t->body_off;

	if (h->seen[H_LAB]) {
		t->kind = MAIL_OWN;
		return 0;
	}
	if (t->subj.reply || !t->subj.patch) {
		t->kind = MAIL_REPLY;
		return 0;
	}
	if (t->subj.idx < 0 || t->subj.total < 0)
		return refuse(t, "bad patch numbering in the subject (m/n with"
			      " m <= n <= %s)", "100");
	t->change_id = body_field(b, n, "change-id: ", 128);
	t->base_commit = body_field(b, n, "base-commit: ", 40);
	if (t->base_commit && strlen(t->base_commit) != 40) {
		free(t->base_commit);
		t->base_commit = NULL;
	}
	if (t->subj.idx == 0) {
		t->kind = MAIL_COVER;
		return 0;
	}
	t->kind = MAIL_PATCH;
	/* git am would decode these; the lab takes patch text as posted. */
	if (!strncasecmp(h->v[H_CTYPE], "multipart/", 10))
		return refuse(t, "a MIME multipart message (an attachment): a"
			      " patch must be inline text%s", "");
	if (!strcasecmp(h->v[H_CTE], "base64") ||
	    !strcasecmp(h->v[H_CTE], "quoted-printable"))
		return refuse(t, "a %s-encoded body: a patch must be plain text",
			      tolower((unsigned char)h->v[H_CTE][0]) == 'b' ?
			      "base64" : "quoted-printable");
	check_diff(b, n, t);
	return 0;
}

int mail_thread_read(const char *raw, size_t len, struct mail_thread *t)
{
	struct hdrs *h;
	int rc;

	memset(t, 0, sizeof(*t));
	if (len > MAIL_MSG_MAX) {
		t->kind = MAIL_REFUSED;
		snprintf(t->why, sizeof(t->why), "message of %zu bytes is over the"
			 " %u-byte limit", len, MAIL_MSG_MAX);
		return 0;
	}
	h = calloc(1, sizeof(*h));
	if (!h)
		return -1;
	rc = read_headers(raw, len, h, &t->body_off, t);
	if (rc <= 0)
		goto out;
	t->message_id = first_msgid(h->v[H_MSGID]);
	if (!t->message_id) {
		rc = refuse(t, "no valid Message-ID%s", "");
		goto out;
	}
	rc = fill(t, h);
	if (rc > 0)
		rc = classify(raw, len, t, h);
out:
	free(h);
	return rc < 0 ? -1 : 0;
}

void mail_thread_free(struct mail_thread *t)
{
	free(t->message_id);
	free(t->in_reply_to);
	free(t->root);
	free(t->subject);
	free(t->from);
	free(t->from_addr);
	free(t->change_id);
	free(t->base_commit);
	memset(t, 0, sizeof(*t));
}
