// SPDX-License-Identifier: MIT
/*
 * patch_path - file names in diffs: git's C-style quoting, "---"/"+++"
 * tokens and the checks that keep a patch inside the tree.  Reads exactly
 * the bytes it is given.
 */
#include "patch_path.h"
#include "patch_parse.h"

#include <stdlib.h>
#include <string.h>

static char *xstrndup(const char *s, size_t n)
{
	char *p = malloc(n + 1);

	if (p) {
		memcpy(p, s, n);
		p[n] = '\0';
	}
	return p;
}

/* Unquote a git C-style quoted path starting at s[0] == '"'. */
char *patch_path_unquote(const char *s, size_t n, size_t *used)
{
	char *out = malloc(n + 1);
	size_t i = 1, o = 0;
	int v, k;

	if (!out)
		return NULL;
	while (i < n && s[i] != '"') {
		if (s[i] != '\\') {
			out[o++] = s[i++];
			continue;
		}
		if (++i >= n)
			break;
		switch (s[i]) {
		case 'n':
			out[o++] = '\n';
			i++;
			continue;
		case 't':
			out[o++] = '\t';
			i++;
			continue;
		case '"':
		case '\\':
			out[o++] = s[i++];
			continue;
		}
		for (v = 0, k = 0; k < 3 && i < n && s[i] >= '0' && s[i] <= '7';
		     k++)
			v = v * 8 + (s[i++] - '0');
		if (k != 3 || v == 0 || v > 255)
			goto bad;
		out[o++] = (char)v;
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

/* A path token: quoted, or up to a tab (---/+++ timestamps) or the end. */
char *patch_path_token(const char *s, size_t n, bool strip_ab)
{
	size_t used, k;
	char *p;

	if (n && s[0] == '"') {
		p = patch_path_unquote(s, n, &used);
	} else {
		const char *tab = memchr(s, '\t', n);

		if (tab)
			n = (size_t)(tab - s);
		while (n && s[n - 1] == ' ')
			n--;
		p = xstrndup(s, n);
	}
	if (!p || !strip_ab || strcmp(p, "/dev/null") == 0)
		return p;
	if ((p[0] == 'a' || p[0] == 'b') && p[1] == '/') {
		k = strlen(p + 2);
		memmove(p, p + 2, k + 1);
	}
	return p;
}

const char *patch_path_problem(const char *p)
{
	const char *s;
	size_t n = strlen(p);

	if (!strcmp(p, "/dev/null"))
		return NULL;
	if (!n)
		return "empty path";
	if (n > PATCH_MAX_PATH)
		return "path too long";
	if (p[0] == '/')
		return "absolute path";
	for (s = p; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return "control character in path";
	for (s = p; s; s = strchr(s, '/')) {
		if (*s == '/')
			s++;
		if (s[0] == '.' && s[1] == '.' && (s[2] == '/' || !s[2]))
			return "path contains a '..' component";
	}
	return NULL;
}
