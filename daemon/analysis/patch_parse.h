/* SPDX-License-Identifier: MIT */
/*
 * patch_parse - parse and validate git format-patch mboxes, single patch
 * emails and plain unified diffs (POST /api/v1/patches).
 *
 * The input buffer is NOT NUL-terminated; the parser never reads past len,
 * never recurses on input and bounds every loop (a fuzz target).
 */
#ifndef PERFLAB_PATCH_PARSE_H
#define PERFLAB_PATCH_PARSE_H

#include <stddef.h>

#include "daemon/analysis/patch.h"

/*
 * Parse @len bytes at @buf.  Returns 0 and fills @out (free it with
 * patch_series_free()), or -1 with a human-readable reason in @err
 * (@out is left empty).
 */
int patch_parse(const char *buf, size_t len, struct patch_series *out,
		char *err, size_t errlen);

void patch_series_free(struct patch_series *s);

#endif /* PERFLAB_PATCH_PARSE_H */
