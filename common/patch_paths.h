/* SPDX-License-Identifier: MIT */
/*
 * patch_paths - the one reading of a diff's file names and modes, shared
 * by the daemon (refusal at submission) and the runner (refusal before
 * patch(1) runs).  It follows GNU patch 2.7 and git apply: C-quoted names
 * with escapes, "---"/"+++" names, the names on "diff --git" (GNU patch
 * takes renames from there), rename/copy lines, and modes on index,
 * new/old/deleted mode lines after any whitespace.  Reads exactly the
 * bytes it is given; every loop is bounded by the input.
 */
#ifndef PERFLAB_PATCH_PATHS_H
#define PERFLAB_PATCH_PATHS_H

#include <stdbool.h>
#include <stddef.h>

#define PP_MAX_PATH 4096

enum pp_kind {
	PP_OTHER = 0, /* not a header line */
	PP_GIT, /* diff --git A B: a, b */
	PP_OLD, /* --- A: a */
	PP_NEW, /* +++ B: b */
	PP_RENAME_FROM, /* a */
	PP_RENAME_TO, /* b */
	PP_COPY_FROM, /* a */
	PP_COPY_TO, /* b */
	PP_NEW_FILE, /* new file mode M */
	PP_DELETED, /* deleted file mode M */
	PP_MODE, /* old mode, new mode, index X..Y M */
};

struct pp_line {
	enum pp_kind kind;
	char *a, *b; /* malloc'd names, see pp_header_line() */
	const char *why; /* set: refuse the patch for this reason */
	const char *name; /* the name why is about (a or b), or NULL */
};

/*
 * Classify one line (no newline) of a diff header.  Names are unquoted and
 * checked with pp_problem(); modes with pp_mode_problem().  The names of
 * diff --git, --- and +++ lose their first component like patch -p1 does
 * when @p1, else only an "a/" or "b/" (how the daemon shows them).
 * Always returns the kind; a bad name or mode sets out->why.  Free with
 * pp_line_free().
 */
enum pp_kind pp_header_line(const char *l, size_t n, bool p1,
			    struct pp_line *out);
void pp_line_free(struct pp_line *pl);

/*
 * Unquote the git C-style quoted name at s[0] == '"' (at most n bytes).
 * Returns a malloc'd string and sets *used to the bytes consumed including
 * both quotes, or NULL (*used = 0) if it is malformed or decodes a NUL.
 */
char *pp_unquote(const char *s, size_t n, size_t *used);

/*
 * The name in a "---"/"+++"/"rename from" value after leading blanks:
 * quoted, or up to a tab (diff -u timestamps); "a/" or "b/" stripped when
 * @strip_ab.  malloc'd, NULL if malformed.
 */
char *pp_token(const char *s, size_t n, bool strip_ab);

/*
 * Why @p may not be patched (absolute, a ".." or empty component,
 * whitespace or control characters: GNU patch ends names at blanks), or
 * NULL if it may.  "/dev/null" is allowed.
 */
const char *pp_problem(const char *p);

/*
 * Why the mode text at s (after the keyword) may not be applied: symlink
 * (120000) and gitlink (160000) modes, other non-regular types, malformed
 * modes.  NULL for a regular file mode.
 */
const char *pp_mode_problem(const char *s, size_t n);

/* Files a whole patch text touches, deduplicated (the runner's view). */
struct pp_paths {
	char **v;
	int n;
};

/*
 * Every name on every header line outside hunks.  Returns 0, or -1 with
 * err set when a line must be refused, nothing names a file, or memory
 * runs out (out is then empty).
 */
int pp_paths_of(const char *raw, size_t len, struct pp_paths *out, char *err,
		size_t errlen);
void pp_paths_free(struct pp_paths *p);

#endif /* PERFLAB_PATCH_PATHS_H */
