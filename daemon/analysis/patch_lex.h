/* SPDX-License-Identifier: MIT */
/*
 * What patch_parse.c (emails, headers) and patch_diff.c (diff bodies)
 * share: the line reader over a buffer that is not NUL-terminated, and
 * the parse context with its error text. Private to those two files.
 */
#ifndef PERFLAB_PATCH_LEX_H
#define PERFLAB_PATCH_LEX_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

struct patch;

struct lex_line {
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

static inline int fail(struct pctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline int fail(struct pctx *c, const char *fmt, ...)
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
static inline bool get_line(const char *buf, size_t len, size_t *pos, struct lex_line *l)
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

static inline bool line_starts(const struct lex_line *l, const char *p)
{
	size_t n = strlen(p);

	return l->n >= n && !memcmp(l->s, p, n);
}

static inline bool line_equals(const struct lex_line *l, const char *p)
{
	return l->n == strlen(p) && !memcmp(l->s, p, l->n);
}

/*
 * The diff of patch @p: @buf[@pos..@len) after its headers, through the
 * end of the email. Fills @p's files; 0 or -1 with the reason in @c.
 */
int patch_parse_diff(struct pctx *c, struct patch *p, const char *buf,
		     size_t len, size_t pos);

#endif
