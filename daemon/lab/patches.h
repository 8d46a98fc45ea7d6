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
#include <jansson.h>

#include "daemon/store/conn.h"
#include "daemon/lab/status.h"

#include "daemon/analysis/patch_parse.h"

/*
 * The slow half, before any write lock: parse and check @len bytes of
 * patch text into @s (at most @cap patches). 0, or -1 LAB_INVALID with
 * the reason and @s freed. patch_series_free(@s) after patches_store.
 */
int patches_prepare(const char *text, size_t len, int cap,
		    struct patch_series *s, char *first_subject, size_t subjlen,
		    struct lab_err *e);

/* The short half, on the writer: store @s's patches (deduplicated by
 * sha256) and put their ids in @ids. Returns the count or -1. */
int patches_store(store_conn *db, const struct patch_series *s, int64_t key_id,
		  int64_t *ids, struct lab_err *e);

/*
 * Parse @len bytes of patch text and store every patch (deduplicated by
 * sha256); appends ids to @ids (capacity @cap). Returns the count or -1
 * (LAB_INVALID: not a usable patch).
 */
int patches_store_text(store_conn *db, const char *text, size_t len,
		       int64_t key_id, int64_t *ids, int cap,
		       char *first_subject, size_t subjlen, struct lab_err *e);

/* 1 when a patch with id @id is stored. */
int patches_exists(store_conn *db, int64_t id);

/* GET /api/v1/patches/{id}: the patch with its files, or NULL
 * (LAB_NOT_FOUND). */
json_t *patches_json(store_conn *db, int64_t id, struct lab_err *e);
/* Its text as submitted (malloc'd, *@len bytes), or NULL. */
char *patches_raw(store_conn *db, int64_t id, size_t *len, struct lab_err *e);

#endif
