/* SPDX-License-Identifier: MIT */
/*
 * Inside builds (builds.c and build_tasks.c, nothing else): what is
 * stored, who builds what, which variants wait.
 */
#ifndef PERFLAB_BUILD_STATE_H
#define PERFLAB_BUILD_STATE_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include "daemon/store/conn.h"

struct build_spec;

/* "builder", "test", "any" or "" (a host without a role). */
void builds_host_role(store_conn *db, int64_t host, char role[16]);
/* May a host of @role build (--image-builders)? */
bool builds_may_build(const char *role);
int builds_key_for_hash(const struct build_spec *bs, const char *cfg_hash,
			char key[65]);
bool builds_image_stored(store_conn *db, const char *key);
/* The image was handed out: its age for the collector starts again. 1, -1. */
int builds_touch(store_conn *db, const char *key, time_t now);
/* The host building @key now (0: none), its build in *id, its name. */
int64_t builds_builder_of(store_conn *db, const char *key, time_t now,
			  int64_t *id, char name[64]);
/* Why @key can never build (patch_apply, build; malloc'ed), or NULL. */
char *builds_final_failure(store_conn *db, const char *key, char **log);
/* Does a host that may run @bs's experiment build it as @key? */
bool builds_runners_need(store_conn *db, const struct build_spec *bs,
			 const char *key);
/* Variants of unfinished experiments (with queued jobs when @queued_only),
 * oldest first, at most @max; free the array. */
int64_t *builds_unfinished_variants(store_conn *db, bool queued_only, int max,
				    int *n);

#endif
