// SPDX-License-Identifier: MIT
/*
 * bisect_json: bisections as the API shows them (docs/contracts.md).
 * Read-only; the driver that writes them is bisect_run.h.
 */
#ifndef PERFLAB_BISECT_JSON_H
#define PERFLAB_BISECT_JSON_H

#include <stdint.h>
#include <jansson.h>

#include "daemon/store/conn.h"

/* Steps a page of a bisection holds unless asked for fewer or more. */
#define BISECT_STEPS_PAGE 1000

/*
 * GET /api/v1/bisections/{id}, or NULL: its newest @limit steps below
 * step @before (0: the newest), in the order run; *@next is the cursor
 * of the older page, 0 on the last.
 */
json_t *bisect_run_page_json(store_conn *db, int64_t id, int limit,
			     int64_t before, int64_t *next);
/* Its newest page (every step of any bisection this lab runs). */
json_t *bisect_run_json(store_conn *db, int64_t id);
/* Bisections newest first, at most @limit below id @before (0: no
 * bound): {id, state, base, label, good, bad, culprit, track_id,
 * steps, created_at}; *@next the cursor of the next page, 0 on the last. */
json_t *bisect_run_list_json(store_conn *db, int limit, int64_t before,
			     int64_t *next);

#endif
