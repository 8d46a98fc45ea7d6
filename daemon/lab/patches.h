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

#include "daemon/store/conn.h"

#include "daemon/analysis/patch_parse.h"

/*
 * The slow half, before any write lock: parse and check @len bytes of
 * patch text into @s (at most @cap patches). 0, or -1 with the reason in
 * @err (a 400 for the caller) and @s freed. patch_series_free(@s) after
 * patches_store.
 */
int patches_prepare(const char *text, size_t len, int cap,
		    struct patch_series *s, char *first_subject, size_t subjlen,
		    char *err, size_t errlen);

/* The short half, on the writer: store @s's patches (deduplicated by
 * sha256) and put their ids in @ids. Returns the count or -1. */
int patches_store(store_conn *db, const struct patch_series *s, int64_t key_id,
		  int64_t *ids, char *err, size_t errlen);

/*
 * Parse @len bytes of patch text and store every patch (deduplicated by
 * sha256); appends ids to @ids (capacity @cap). Returns the count or -1
 * with the reason in @err (a 400 for the caller).
 */
int patches_store_text(store_conn *db, const char *text, size_t len,
		       int64_t key_id, int64_t *ids, int cap,
		       char *first_subject, size_t subjlen,
		       char *err, size_t errlen);

#endif
