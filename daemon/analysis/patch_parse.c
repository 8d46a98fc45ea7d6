// SPDX-License-Identifier: MIT
/*
 * patch_parse - git format-patch mbox / email / unified diff parser.
 *
 * Hostile input: the buffer is not NUL-terminated, every read is checked
 * against its length, there is no recursion and every loop advances by at
 * least one byte or line.
 */
#include "patch_parse.h"
#include "mail_header.h"
#include "patch_paths.h"

#include <openssl/evp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define HUNK_MAX_COUNT 100000000L /* per @@ range, far above any real diff */

struct line {
	const char *s;
	size_t n;
};

struct pctx {
	char *err;
	size_t errlen;
	int nchunks; /* chunks in the input, for error prefixes */
	int chunk; /* 1-based chunk being parsed */
	size_t lineno; /* 1-based line in the whole input */
	int nfiles; /* files over the whole input */
};

/* Unfolded header values of one email, NUL-terminated. */
struct hdrs {
	char v[6][PATCH_MAX_HEADER + 1];
	size_t n[6];
	bool seen[6];
};

enum { H_FROM, H_SUBJECT, H_DATE, H_MSGID, H_CTE, H_CTYPE, H_NONE };

static __attribute__((format(printf, 2, 3))) int fail(struct pctx *c,
						      const char *fmt, ...)
{
	size_t off = 0;
	va_list ap;
	int r;

	if (!c->err || !c->errlen)
		return -1;
	c->err[0] = '\0';
	if (c->nchunks > 1 && c->chunk > 0) {
		r = snprintf(c->err, c->errlen, "patch %d: ", c->chunk);
		off = r > 0 && (size_t)r < c->errlen ? (size_t)r : 0;
	}
	va_start(ap, fmt);
	vsnprintf(c->err + off, c->errlen - off, fmt, ap);
	va_end(ap);
	return -1;
}

/* The line at *pos without "\n" and a trailing "\r"; false at the end. */
static bool get_line(const char *buf, size_t len, size_t *pos, struct line *l)
{
	const char *nl;

	if (*pos >= len)
		return false;
	l->s = buf + *pos;
	nl = memchr(l->s, '\n', len - *pos);
	if (nl) {
		l->n = (size_t)(nl - l->s);
		*pos += l->n + 1;
	} else {
		l->n = len - *pos;
		*pos = len;
	}
	if (l->n && l->s[l->n - 1] == '\r')
		l->n--;
	return true;
}

static bool starts(const struct line *l, const char *p)
{
	size_t n = strlen(p);

	return l->n >= n && !memcmp(l->s, p, n);
}

static bool equals(const struct line *l, const char *p)
{
	return l->n == strlen(p) && !memcmp(l->s, p, l->n);
}

static bool is_hex(char ch)
{
	return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f') ||
	       (ch >= 'A' && ch <= 'F');
}

/*
 * "From <40 hex> <date>" (git format-patch), "From git@z " (b4) or
 * "From mboxrd@z " (lore.kernel.org mboxes).
 */
static bool is_mbox_from(const struct line *l)
{
	size_t i;

	if (starts(l, "From git@z ") || starts(l, "From mboxrd@z "))
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

static int header_kind(const struct line *l, size_t *vstart)
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
	struct line l;

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

/* ---- paths -------------------------------------------------------------- */

static void set_path(char **dst, char *v)
{
	if (!v)
		return;
	free(*dst);
	*dst = v;
}

/*
 * A header line as GNU patch and git apply read it (common/patch_paths):
 * every name on it must stay in the tree and every mode must be a regular
 * file's, even when a later line overrides the name.  Returns the kind,
 * or -1 after fail().
 */
static int header_line(struct pctx *c, const struct line *l, char **a,
		       char **b)
{
	struct pp_line pl;
	enum pp_kind k = pp_header_line(l->s, l->n, false, &pl);

	if (pl.why) {
		fail(c, "line %zu: %s%s%s", c->lineno, pl.why,
		     pl.name ? ": " : "", pl.name ? pl.name : "");
		pp_line_free(&pl);
		return -1;
	}
	if (a)
		*a = pl.a, pl.a = NULL;
	if (b)
		*b = pl.b, pl.b = NULL;
	pp_line_free(&pl);
	return (int)k;
}

/* ---- diff body ---------------------------------------------------------- */

enum dstate { D_TEXT, D_GITHDR, D_FILE, D_HUNK };

struct dctx {
	struct patch *p;
	int cap;
	enum dstate st;
	struct patch_file *f;
	long old_left, new_left;
};

static int file_new(struct pctx *c, struct dctx *d)
{
	struct patch *p = d->p;
	void *n;

	if (c->nfiles >= PATCH_MAX_FILES)
		return fail(c, "too many files (max %d)", PATCH_MAX_FILES);
	if (p->nfiles == d->cap) {
		int cap = d->cap ? d->cap * 2 : 8;

		n = realloc(p->files, (size_t)cap * sizeof(*p->files));
		if (!n)
			return fail(c, "out of memory");
		p->files = n;
		d->cap = cap;
	}
	d->f = &p->files[p->nfiles++];
	memset(d->f, 0, sizeof(*d->f));
	c->nfiles++;
	return 0;
}

static int file_done(struct pctx *c, struct dctx *d)
{
	struct patch_file *f = d->f;
	const char *why;

	d->st = D_TEXT;
	if (!f)
		return 0;
	d->f = NULL;
	if (!f->old_path || !f->new_path)
		return fail(c,
			    "line %zu: cannot tell which file a diff changes",
			    c->lineno);
	if (!strcmp(f->old_path, "/dev/null") &&
	    !strcmp(f->new_path, "/dev/null"))
		return fail(c, "line %zu: diff of /dev/null to /dev/null",
			    c->lineno);
	why = pp_problem(f->old_path);
	if (why)
		return fail(c, "%s: %s", why, f->old_path);
	why = pp_problem(f->new_path);
	if (why)
		return fail(c, "%s: %s", why, f->new_path);
	return 0;
}

static bool parse_num(const char **s, const char *end, long *v)
{
	const char *p = *s;

	*v = 0;
	while (p < end && *p >= '0' && *p <= '9' && p - *s < 10)
		*v = *v * 10 + (*p++ - '0');
	if (p == *s || (p < end && *p >= '0' && *p <= '9'))
		return false;
	*s = p;
	return true;
}

/* "@@ -a[,b] +c[,d] @@"; counts default to 1. */
static bool parse_range(const char **s, const char *end, char sign, long *cnt)
{
	long start;

	if (*s >= end || **s != sign)
		return false;
	(*s)++;
	if (!parse_num(s, end, &start))
		return false;
	*cnt = 1;
	if (*s < end && **s == ',') {
		(*s)++;
		if (!parse_num(s, end, cnt))
			return false;
	}
	return *cnt <= HUNK_MAX_COUNT;
}

static int hunk_start(struct pctx *c, struct dctx *d, const struct line *l)
{
	const char *s = l->s + 3, *end = l->s + l->n;

	if (!parse_range(&s, end, '-', &d->old_left) || s >= end ||
	    *s++ != ' ' || !parse_range(&s, end, '+', &d->new_left) ||
	    end - s < 3 || memcmp(s, " @@", 3))
		return fail(c, "line %zu: malformed hunk header in %s",
			    c->lineno, d->f->new_path ? d->f->new_path : "?");
	if (!d->old_left && !d->new_left)
		return fail(c, "line %zu: empty hunk in %s", c->lineno,
			    d->f->new_path ? d->f->new_path : "?");
	d->f->hunks++;
	d->st = D_HUNK;
	return 0;
}

static int hunk_line(struct pctx *c, struct dctx *d, const struct line *l)
{
	char ch = l->n ? l->s[0] : ' ';
	struct patch_file *f = d->f;

	if (ch == '\\' && l->n)
		return 0; /* "\ No newline at end of file" */
	if ((ch == ' ' && (!d->old_left || !d->new_left)) ||
	    (ch == '-' && !d->old_left) || (ch == '+' && !d->new_left))
		return fail(
			c,
			"line %zu: hunk %d of %s has more lines than its @@ header says",
			c->lineno, f->hunks, f->new_path);
	if (ch == ' ') {
		d->old_left--, d->new_left--;
	} else if (ch == '-') {
		d->old_left--, f->removed++;
	} else if (ch == '+') {
		d->new_left--, f->added++;
	} else {
		return fail(
			c,
			"line %zu: hunk %d of %s is truncated or malformed (%ld old and %ld new lines missing)",
			c->lineno, f->hunks, f->new_path, d->old_left,
			d->new_left);
	}
	if (!d->old_left && !d->new_left)
		d->st = D_FILE;
	return 0;
}

static bool is_binary(const struct line *l)
{
	return starts(l, "GIT binary patch") ||
	       (starts(l, "Binary files ") && l->n >= 7 &&
		!memcmp(l->s + l->n - 7, " differ", 7));
}

/* "--- X" followed by "+++ Y": set both paths, consume the +++ line. */
static int old_new_lines(struct pctx *c, struct dctx *d, const char *buf,
			 size_t len, size_t *pos, const struct line *l)
{
	char *a = NULL, *b = NULL;
	struct line l2;

	if (!get_line(buf, len, pos, &l2) || !starts(&l2, "+++ "))
		return fail(c, "line %zu: '---' line not followed by '+++'",
			    c->lineno);
	if (header_line(c, l, &a, NULL) < 0)
		return -1;
	c->lineno++;
	if (header_line(c, &l2, NULL, &b) < 0) {
		free(a);
		return -1;
	}
	set_path(&d->f->old_path, a);
	set_path(&d->f->new_path, b);
	if (!d->f->old_path || !d->f->new_path)
		return fail(c, "line %zu: malformed file name", c->lineno);
	d->st = D_FILE;
	return 0;
}

/* In D_TEXT: is this "--- " the start of a plain unified diff? */
static bool plain_diff_start(const char *buf, size_t len, size_t pos,
			     const struct line *l)
{
	struct line l2, l3;

	return starts(l, "--- ") && get_line(buf, len, &pos, &l2) &&
	       starts(&l2, "+++ ") && get_line(buf, len, &pos, &l3) &&
	       starts(&l3, "@@ -");
}

static int githdr_line(struct pctx *c, struct dctx *d, const char *buf,
		       size_t len, size_t *pos, const struct line *l)
{
	static const char *const skip[] = { "similarity index ",
					    "dissimilarity index " };
	struct patch_file *f = d->f;
	char *a = NULL, *b = NULL;
	size_t i;
	int k;

	if (starts(l, "--- "))
		return old_new_lines(c, d, buf, len, pos, l);
	k = header_line(c, l, &a, &b);
	if (k < 0)
		return -1;
	switch (k) {
	case PP_NEW_FILE:
		set_path(&f->old_path, strdup("/dev/null"));
		return 0;
	case PP_DELETED:
		set_path(&f->new_path, strdup("/dev/null"));
		return 0;
	case PP_RENAME_FROM:
	case PP_COPY_FROM:
		set_path(&f->old_path, a);
		return 0;
	case PP_RENAME_TO:
	case PP_COPY_TO:
		set_path(&f->new_path, b);
		return 0;
	case PP_MODE:
		return 0;
	}
	free(a);
	free(b);
	for (i = 0; i < sizeof(skip) / sizeof(skip[0]); i++)
		if (starts(l, skip[i]))
			return 0;
	if (starts(l, "@@ "))
		return fail(c, "line %zu: hunk without '---'/'+++' lines",
			    c->lineno);
	return 1; /* end of the extended header: handle l in D_TEXT */
}

/* D_FILE: between hunks. Returns 1 if l must be handled in D_TEXT. */
static int file_line(struct pctx *c, struct dctx *d, const struct line *l)
{
	if (starts(l, "@@ -"))
		return hunk_start(c, d, l);
	if (!d->f->hunks)
		return fail(c, "line %zu: expected a hunk ('@@') for %s",
			    c->lineno, d->f->new_path);
	if (l->n && l->s[0] == '\\')
		return 0;
	if (l->n &&
	    (l->s[0] == '+' || l->s[0] == ' ' ||
	     (l->s[0] == '-' && !starts(l, "--- ") && !equals(l, "-- ") &&
	      !equals(l, "---") && !equals(l, "--"))))
		return fail(
			c,
			"line %zu: hunk %d of %s has more lines than its @@ header says",
			c->lineno, d->f->hunks, d->f->new_path);
	return 1;
}

static int text_line(struct pctx *c, struct dctx *d, const char *buf,
		     size_t len, size_t *pos, const struct line *l)
{
	if (is_binary(l))
		return fail(c, "line %zu: binary patches are not accepted",
			    c->lineno);
	if (starts(l, "diff --git ")) {
		char *a = NULL, *b = NULL;

		if (header_line(c, l, &a, &b) < 0 || file_new(c, d)) {
			free(a);
			free(b);
			return -1;
		}
		set_path(&d->f->old_path, a);
		set_path(&d->f->new_path, b);
		d->st = D_GITHDR;
		return 0;
	}
	/*
	 * GNU patch honours a mode line even after other lines (a commit
	 * message, garbage after "diff --git"): refuse a bad one anywhere.
	 */
	if (!starts(l, "--- ") && !starts(l, "+++ ") &&
	    header_line(c, l, NULL, NULL) < 0)
		return -1;
	if (plain_diff_start(buf, len, *pos, l)) {
		if (file_new(c, d))
			return -1;
		return old_new_lines(c, d, buf, len, pos, l);
	}
	return 0;
}

static int parse_diff(struct pctx *c, struct dctx *d, const char *buf,
		      size_t len, size_t pos)
{
	struct line l;
	int r;

	while (get_line(buf, len, &pos, &l)) {
		c->lineno++;
		switch (d->st) {
		case D_HUNK:
			r = hunk_line(c, d, &l);
			break;
		case D_GITHDR:
			if (is_binary(&l))
				return fail(
					c,
					"line %zu: binary patch for %s is not accepted",
					c->lineno,
					d->f->new_path ? d->f->new_path : "?");
			r = githdr_line(c, d, buf, len, &pos, &l);
			break;
		case D_FILE:
			r = file_line(c, d, &l);
			break;
		default:
			r = 1;
		}
		if (r < 0)
			return -1;
		if (r > 0 && d->st != D_HUNK) {
			if (d->f && file_done(c, d))
				return -1;
			if (starts(&l, "@@ -"))
				return fail(
					c,
					"line %zu: hunk outside of a file diff",
					c->lineno);
			if (text_line(c, d, buf, len, &pos, &l))
				return -1;
		}
	}
	if (d->st == D_HUNK)
		return fail(
			c,
			"hunk %d of %s is truncated at the end of the input (%ld old and %ld new lines missing)",
			d->f->hunks, d->f->new_path, d->old_left, d->new_left);
	if (d->st == D_FILE && !d->f->hunks)
		return fail(c, "no hunk for %s at the end of the input",
			    d->f->new_path);
	return file_done(c, d);
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
	struct line l;
	int k, r;

	if (!h->seen[H_FROM] || !get_line(buf, len, &p, &l) ||
	    !starts(&l, "From: "))
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
	struct dctx d = { .p = p };
	size_t pos = 0, save = 0;
	bool cover = false;
	struct line l;

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
	if (parse_diff(c, &d, buf, len, pos))
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
	struct line l;
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
