/* SPDX-License-Identifier: MIT */
/*
 * Patches as the lab keeps them: parsed (analysis/patch_parse.h), checked
 * (no binary patches, no path outside the tree) and stored once per
 * sha256 with their files.
 */
#ifndef PERFLAB_LAB_PATCHES_H
#define PERFLAB_LAB_PATCHES_H

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>

/*
 * Parse @len bytes of patch text and store every patch (deduplicated by
 * sha256); appends ids to @ids (capacity @cap). Returns the count or -1
 * with the reason in @err (a 400 for the caller).
 */
int patches_store_text(sqlite3 *db, const char *text, size_t len,
		       int64_t key_id, int64_t *ids, int cap,
		       char *first_subject, size_t subjlen,
		       char *err, size_t errlen);

#endif
