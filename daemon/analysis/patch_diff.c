// SPDX-License-Identifier: MIT
/*
 * The diff part of patch_parse: unified and git diff bodies (file
 * headers, paths, hunks with their counts, binary markers) after an
 * email's headers. Same rules for hostile input as patch_parse.c.
 */
#include <stdlib.h>
#include <string.h>

#include "daemon/analysis/patch.h"
#include "daemon/analysis/patch_lex.h"
#include "patch_paths.h"

#define HUNK_MAX_COUNT 100000000L /* per @@ range, far above any real diff */

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
static int header_line(struct pctx *c, const struct lex_line *l, char **a,
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

static int hunk_start(struct pctx *c, struct dctx *d, const struct lex_line *l)
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

static int hunk_line(struct pctx *c, struct dctx *d, const struct lex_line *l)
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

static bool is_binary(const struct lex_line *l)
{
	return line_starts(l, "GIT binary patch") ||
	       (line_starts(l, "Binary files ") && l->n >= 7 &&
		!memcmp(l->s + l->n - 7, " differ", 7));
}

/* "--- X" followed by "+++ Y": set both paths, consume the +++ line. */
static int old_new_lines(struct pctx *c, struct dctx *d, const char *buf,
			 size_t len, size_t *pos, const struct lex_line *l)
{
	char *a = NULL, *b = NULL;
	struct lex_line l2;

	if (!get_line(buf, len, pos, &l2) || !line_starts(&l2, "+++ "))
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
			     const struct lex_line *l)
{
	struct lex_line l2, l3;

	return line_starts(l, "--- ") && get_line(buf, len, &pos, &l2) &&
	       line_starts(&l2, "+++ ") && get_line(buf, len, &pos, &l3) &&
	       line_starts(&l3, "@@ -");
}

static int githdr_line(struct pctx *c, struct dctx *d, const char *buf,
		       size_t len, size_t *pos, const struct lex_line *l)
{
	static const char *const skip[] = { "similarity index ",
					    "dissimilarity index " };
	struct patch_file *f = d->f;
	char *a = NULL, *b = NULL;
	size_t i;
	int k;

	if (line_starts(l, "--- "))
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
		if (line_starts(l, skip[i]))
			return 0;
	if (line_starts(l, "@@ "))
		return fail(c, "line %zu: hunk without '---'/'+++' lines",
			    c->lineno);
	return 1; /* end of the extended header: handle l in D_TEXT */
}

/* D_FILE: between hunks. Returns 1 if l must be handled in D_TEXT. */
static int file_line(struct pctx *c, struct dctx *d, const struct lex_line *l)
{
	if (line_starts(l, "@@ -"))
		return hunk_start(c, d, l);
	if (!d->f->hunks)
		return fail(c, "line %zu: expected a hunk ('@@') for %s",
			    c->lineno, d->f->new_path);
	if (l->n && l->s[0] == '\\')
		return 0;
	if (l->n &&
	    (l->s[0] == '+' || l->s[0] == ' ' ||
	     (l->s[0] == '-' && !line_starts(l, "--- ") && !line_equals(l, "-- ") &&
	      !line_equals(l, "---") && !line_equals(l, "--"))))
		return fail(
			c,
			"line %zu: hunk %d of %s has more lines than its @@ header says",
			c->lineno, d->f->hunks, d->f->new_path);
	return 1;
}

static int text_line(struct pctx *c, struct dctx *d, const char *buf,
		     size_t len, size_t *pos, const struct lex_line *l)
{
	if (is_binary(l))
		return fail(c, "line %zu: binary patches are not accepted",
			    c->lineno);
	if (line_starts(l, "diff --git ")) {
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
	if (!line_starts(l, "--- ") && !line_starts(l, "+++ ") &&
	    header_line(c, l, NULL, NULL) < 0)
		return -1;
	if (plain_diff_start(buf, len, *pos, l)) {
		if (file_new(c, d))
			return -1;
		return old_new_lines(c, d, buf, len, pos, l);
	}
	return 0;
}

int patch_parse_diff(struct pctx *c, struct patch *p, const char *buf,
		     size_t len, size_t pos)
{
	struct dctx dd = { .p = p }, *d = &dd;
	struct lex_line l;
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
			if (line_starts(&l, "@@ -"))
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
