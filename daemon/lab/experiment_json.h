/* SPDX-License-Identifier: MIT */
/*
 * Experiments as the API shows them (docs/api.md "Experiments"): the list
 * and the whole experiment with its variants, patches, jobs, runs and
 * newest comparisons. Read-only; the one place these shapes are built.
 */
#ifndef PERFLAB_LAB_EXPERIMENT_JSON_H
#define PERFLAB_LAB_EXPERIMENT_JSON_H

#include <stdint.h>
#include <jansson.h>

#include "daemon/store/conn.h"

/* 1 when @state is one an experiment can be in (queued .. cancelled). */
int experiment_state_valid(const char *state);

/*
 * GET /api/v1/experiments: newest first, at most @limit, only @state
 * (NULL: any) and ids below @before (0: no bound): keyset pages, each
 * one index search whatever the page. *@next is the cursor of the next
 * page (the last id here), 0 when this is the last. NULL on error.
 */
json_t *experiments_list_json(store_conn *db, const char *state, int limit,
			      int64_t before, int64_t *next);

/* GET /api/v1/experiments/{id} from one snapshot, or NULL (no such). */
json_t *experiment_json(store_conn *db, int64_t id);

#endif
