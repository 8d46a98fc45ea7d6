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

/* GET /api/v1/bisections/{id}, or NULL. */
json_t *bisect_run_json(store_conn *db, int64_t id);
/* Every bisection, newest first: {id, state, base, label, good, bad,
 * culprit, track_id, created_at}. */
json_t *bisect_run_list_json(store_conn *db);

#endif
