/* SPDX-License-Identifier: MIT */
/*
 * A parsed patch and its limits: what patch_parse.c (emails, headers)
 * and patch_diff.c (diff bodies) fill in, and what the lab stores.
 */
#ifndef PERFLAB_PATCH_H
#define PERFLAB_PATCH_H

#include <stdbool.h>
#include <stddef.h>

#define PATCH_MAX_TOTAL (8u << 20) /* 8 MiB of input */
#define PATCH_MAX_FILES 10000 /* files over the whole input */
#define PATCH_MAX_PATCHES 100 /* patches in one series */
#define PATCH_MAX_HEADER 4096 /* one unfolded header value */
#define PATCH_MAX_PATH 4096 /* one path */

struct patch_file {
	char *old_path; /* "/dev/null" for a created file */
	char *new_path; /* "/dev/null" for a deleted file */
	int hunks;
	int added;
	int removed;
	bool binary; /* always false: binary patches are rejected */
};

struct patch {
	char *subject; /* "[PATCH n/m]" prefix stripped; "" if none */
	char *author; /* From:, RFC 2047 decoded; "" if none */
	char *message_id; /* "" if none */
	char *date; /* "" if none */
	char *raw; /* verbatim bytes of this patch (NUL-terminated) */
	size_t raw_len;
	char sha256[65]; /* lowercase hex of sha256(raw) */
	struct patch_file *files;
	int nfiles;
};

struct patch_series {
	struct patch *patches;
	int n;
};

#endif
