// SPDX-License-Identifier: MIT
/*
 * patch_paths - file names and modes in diffs, read the way GNU patch and
 * git apply read them, and the checks that keep a patch inside the tree.
 */
#include "patch_paths.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static bool starts(const char *l, size_t n, const char *k)
{
	size_t kl = strlen(k);

	return n >= kl && !memcmp(l, k, kl);
}

/* git's and GNU patch's C escapes: \a \b \f \n \r \t \v \" \\ \ooo */
static int unescape(const char *s, size_t n, size_t *i)
{
	static const char from[] = "abfnrtv\"\\", to[] = "\a\b\f\n\r\t\v\"\\";
	const char *e = *i < n && s[*i] ? strchr(from, s[*i]) : NULL;
	int v, k;

	if (e) {
		(*i)++;
		return to[e - from];
	}
	for (v = 0, k = 0; k < 3 && *i < n && s[*i] >= '0' && s[*i] <= '7'; k++)
		v = v * 8 + (s[(*i)++] - '0');
	return k == 3 && v > 0 && v <= 255 ? v : -1;
}

char *pp_unquote(const char *s, size_t n, size_t *used)
{
	char *out = malloc(n + 1);
	size_t i = 1, o = 0;
	int c;

	if (!out)
		return NULL;
	while (i < n && s[i] != '"') {
		if (s[i] != '\\') {
			out[o++] = s[i++];
			continue;
		}
		i++;
		c = unescape(s, n, &i);
		if (c < 0)
			goto bad;
		out[o++] = (char)c;
	}
	if (i >= n)
		goto bad;
	out[o] = '\0';
	*used = i + 1;
	return out;
bad:
	free(out);
	*used = 0;
	return NULL;
}

static void strip_first(char *p)
{
	if ((p[0] == 'a' || p[0] == 'b') && p[1] == '/')
		memmove(p, p + 2, strlen(p + 2) + 1);
}

/* patch -p1: the first component, whatever it is. */
static void strip_p1(char *p)
{
	char *s = strchr(p, '/');

	if (s && strcmp(p, "/dev/null"))
		memmove(p, s + 1, strlen(s + 1) + 1);
}

char *pp_token(const char *s, size_t n, bool strip_ab)
{
	size_t used;
	char *p;

	/* GNU patch skips blanks before a name. */
	while (n && blank(*s))
		s++, n--;
	if (n && s[0] == '"') {
		p = pp_unquote(s, n, &used);
	} else {
		const char *tab = memchr(s, '\t', n);

		if (tab)
			n = (size_t)(tab - s);
		while (n && blank(s[n - 1]))
			n--;
		p = strndup(s, n);
	}
	if (p && strip_ab && strcmp(p, "/dev/null"))
		strip_first(p);
	return p;
}

const char *pp_problem(const char *p)
{
	const char *s, *c;
	size_t n = strlen(p);

	if (!strcmp(p, "/dev/null"))
		return NULL;
	if (!n)
		return "empty path";
	if (n > PP_MAX_PATH)
		return "path too long";
	if (p[0] == '/')
		return "absolute path (outside the tree)";
	for (s = p; *s; s++) {
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return "control character in path";
		if (*s == ' ')
			return "blank in path";
	}
	for (c = p; c; c = s ? s + 1 : NULL) {
		s = strchr(c, '/');
		n = s ? (size_t)(s - c) : strlen(c);
		if (!n && s)
			return "empty component in path";
		if (n == 2 && c[0] == '.' && c[1] == '.')
			return "path contains a '..' component (outside the tree)";
	}
	return NULL;
}

const char *pp_mode_problem(const char *s, size_t n)
{
	unsigned long v = 0;
	size_t i = 0, d;

	while (i < n && blank(s[i]))
		i++;
	for (d = 0; i < n && s[i] >= '0' && s[i] <= '7' && d < 12; i++, d++)
		v = v * 8 + (unsigned long)(s[i] - '0');
	while (i < n && blank(s[i]))
		i++;
	if (!d || i < n)
		return "malformed file mode";
	switch (v & 0170000) {
	case 0100000:
		return NULL;
	case 0120000:
		return "symbolic links (mode 120000) are not accepted";
	case 0160000:
		return "submodules (gitlink mode 160000) are not accepted";
	}
	return "only regular file modes (100644, 100755) are accepted";
}

/* A name as given and as patch -p1 sees it must both stay in the tree. */
static const char *name_problem(const char *raw, const char *stripped)
{
	const char *why = pp_problem(raw), *slash;

	if (!why && stripped && strcmp(stripped, "/dev/null")) {
		slash = strchr(raw, '/');
		why = pp_problem(slash ? slash + 1 : raw);
		if (!why)
			why = pp_problem(stripped);
	}
	return why;
}

/* "A B" on a diff --git line, each name quoted or not. */
static void git_names(const char *s, size_t n, struct pp_line *out)
{
	size_t used = 0;
	const char *sp;

	if (n && s[0] == '"') {
		out->a = pp_unquote(s, n, &used);
	} else if ((sp = memchr(s, ' ', n))) {
		used = (size_t)(sp - s);
		out->a = strndup(s, used);
	}
	if (!out->a || used >= n || s[used] != ' ') {
		free(out->a);
		out->a = NULL;
		return;
	}
	out->b = pp_token(s + used + 1, n - used - 1, false);
}

static void check_names(struct pp_line *out, bool p1)
{
	char *name[2] = { out->a, out->b }, *p;
	bool ab = out->kind == PP_GIT || out->kind == PP_OLD ||
		  out->kind == PP_NEW;

	for (int i = 0; i < 2 && !out->why; i++) {
		if (!name[i])
			continue;
		p = strdup(name[i]);
		if (!p) {
			out->why = "out of memory";
			return;
		}
		strip_first(p);
		out->why = name_problem(name[i], p);
		if (out->why)
			out->name = name[i];
		free(p);
		if (ab && p1)
			strip_p1(name[i]);
		else if (ab)
			strip_first(name[i]);
	}
}

static const struct {
	const char *kw;
	enum pp_kind kind;
	int side; /* 0: a, 1: b, 2: mode */
} kws[] = {
	{ "diff --git ", PP_GIT, 0 },
	{ "--- ", PP_OLD, 0 },
	{ "+++ ", PP_NEW, 1 },
	{ "rename from ", PP_RENAME_FROM, 0 },
	{ "rename to ", PP_RENAME_TO, 1 },
	{ "copy from ", PP_COPY_FROM, 0 },
	{ "copy to ", PP_COPY_TO, 1 },
	{ "new file mode", PP_NEW_FILE, 2 },
	{ "deleted file mode", PP_DELETED, 2 },
	{ "old mode", PP_MODE, 2 },
	{ "new mode", PP_MODE, 2 },
	{ "index ", PP_MODE, 3 },
};

/* "index X..Y[ MODE]": the mode, if any, after the hashes. */
static const char *index_mode(const char *s, size_t n, size_t *rest)
{
	size_t i = 0;

	while (i < n && blank(s[i]))
		i++;
	while (i < n && !blank(s[i]))
		i++;
	*rest = n - i;
	return s + i;
}

enum pp_kind pp_header_line(const char *l, size_t n, bool p1,
			    struct pp_line *out)
{
	size_t k, i, rest;
	const char *m;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < sizeof(kws) / sizeof(kws[0]); i++)
		if (starts(l, n, kws[i].kw))
			break;
	if (i == sizeof(kws) / sizeof(kws[0]))
		return PP_OTHER;
	out->kind = kws[i].kind;
	k = strlen(kws[i].kw);
	if (kws[i].side == 3) {
		m = index_mode(l + k, n - k, &rest);
		for (k = 0; k < rest && blank(m[k]); k++)
			;
		if (k < rest)
			out->why = pp_mode_problem(m, rest);
		return out->kind;
	}
	if (kws[i].side == 2) {
		/* "new file mode<TAB>120000" too: refuse what git might read. */
		if (n > k && !blank(l[k]))
			out->kind = PP_OTHER;
		else
			out->why = pp_mode_problem(l + k, n - k);
		return out->kind;
	}
	if (out->kind == PP_GIT)
		git_names(l + k, n - k, out);
	else if (kws[i].side == 0)
		out->a = pp_token(l + k, n - k, false);
	else
		out->b = pp_token(l + k, n - k, false);
	if ((kws[i].side == 0 && !out->a) || (kws[i].side == 1 && !out->b))
		out->why = out->kind == PP_GIT ? NULL : "malformed file name";
	else
		check_names(out, p1);
	return out->kind;
}

void pp_line_free(struct pp_line *pl)
{
	free(pl->a);
	free(pl->b);
	pl->a = pl->b = NULL;
}

static int paths_add(struct pp_paths *p, const char *s)
{
	char **nv;

	if (!s || !strcmp(s, "/dev/null"))
		return 0;
	for (int i = 0; i < p->n; i++)
		if (!strcmp(p->v[i], s))
			return 0;
	nv = realloc(p->v, (size_t)(p->n + 1) * sizeof(*nv));
	if (!nv)
		return -1;
	p->v = nv;
	p->v[p->n] = strdup(s);
	if (!p->v[p->n])
		return -1;
	p->n++;
	return 0;
}

void pp_paths_free(struct pp_paths *p)
{
	for (int i = 0; i < p->n; i++)
		free(p->v[i]);
	free(p->v);
	p->v = NULL;
	p->n = 0;
}

/* "@@ -a[,b] +c[,d] @@": line counts of the hunk. */
static int hunk_counts(const char *l, long *old, long *new)
{
	long a, c;

	*old = 1;
	*new = 1;
	if (sscanf(l, "@@ -%ld,%ld +%ld,%ld", &a, old, &c, new) == 4)
		return 0;
	if (sscanf(l, "@@ -%ld +%ld,%ld", &a, &c, new) == 3)
		return 0;
	*new = 1;
	if (sscanf(l, "@@ -%ld,%ld +%ld", &a, old, &c) == 3)
		return 0;
	*old = 1;
	if (sscanf(l, "@@ -%ld +%ld", &a, &c) == 2)
		return 0;
	*old = *new = 0;
	return -1;
}

/* Inside a hunk: count the line against what is left, never parse it. */
static void hunk_line(const char *p, size_t n, long *old, long *new)
{
	if (n == 0 || p[0] == ' ') {
		(*old)--;
		(*new)--;
	} else if (p[0] == '-') {
		(*old)--;
	} else if (p[0] == '+') {
		(*new)--;
	} else if (p[0] != '\\') {
		*old = *new = 0; /* malformed: resync */
	}
}

int pp_paths_of(const char *raw, size_t len, struct pp_paths *out, char *err,
		size_t errlen)
{
	const char *p = raw, *end = raw + len, *nl;
	long old = 0, new = 0, lineno = 0;
	struct pp_line pl;

	memset(out, 0, sizeof(*out));
	for (; p < end; p = nl + 1) {
		size_t n;

		lineno++;
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		n = (size_t)(nl - p);
		if (old > 0 || new > 0) {
			hunk_line(p, n, &old, &new);
			continue;
		}
		if (n > 3 && !memcmp(p, "@@ ", 3) && n < 256) {
			char *l = strndup(p, n);

			if (l)
				hunk_counts(l, &old, &new);
			free(l);
			continue;
		}
		pp_header_line(p, n, true, &pl);
		if (pl.why) {
			snprintf(err, errlen, "line %ld: %s%s%.200s", lineno,
				 pl.why, pl.name ? ": " : "",
				 pl.name ? pl.name : "");
			pp_line_free(&pl);
			goto fail;
		}
		if (paths_add(out, pl.a) || paths_add(out, pl.b)) {
			pp_line_free(&pl);
			snprintf(err, errlen, "out of memory");
			goto fail;
		}
		pp_line_free(&pl);
	}
	if (out->n)
		return 0;
	snprintf(err, errlen, "no diff found in patch");
fail:
	pp_paths_free(out);
	return -1;
}
