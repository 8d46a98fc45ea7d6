/* SPDX-License-Identifier: MIT */
/*
 * patch_path - file names in diffs (used by patch_parse).
 */
#ifndef PERFLAB_PATCH_PATH_H
#define PERFLAB_PATCH_PATH_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Unquote the git C-style quoted name at s[0] == '"' (at most n bytes).
 * Returns a malloc'd string and sets *used to the bytes consumed including
 * both quotes, or NULL (*used = 0) if it is malformed or decodes a NUL.
 */
char *patch_path_unquote(const char *s, size_t n, size_t *used);

/*
 * The name in a "---"/"+++"/"rename from" value: quoted, or up to a tab
 * (diff -u timestamps); "a/" or "b/" stripped when @strip_ab.  malloc'd.
 */
char *patch_path_token(const char *s, size_t n, bool strip_ab);

/* Why @p may not be patched (absolute, "..", ...), or NULL if it may. */
const char *patch_path_problem(const char *p);

#endif /* PERFLAB_PATCH_PATH_H */
