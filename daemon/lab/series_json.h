/* SPDX-License-Identifier: MIT */
/*
 * Series and tracked baselines as the API shows them (docs/api.md
 * "Baselines and series"). Read-only; the writes are series.h's.
 */
#ifndef PERFLAB_LAB_SERIES_JSON_H
#define PERFLAB_LAB_SERIES_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <jansson.h>

#include "daemon/lab/status.h"
#include "daemon/store/conn.h"

/* GET /api/v1/baselines: every baseline with its series ids. */
json_t *series_baselines_json(store_conn *db);

/* GET /api/v1/series: every series with its point and change-point
 * counts. */
json_t *series_list_json(store_conn *db);

/* The id of series (@name, @metric), or -1. */
int64_t series_find(store_conn *db, const char *name, const char *metric);

/* Points a page of a series holds unless asked for fewer. */
#define SERIES_POINTS_PAGE 10000

/*
 * One series with a page of its points (rows, or [t, value] pairs when
 * @pairs: what a chart needs, a fifth of the size) and its change
 * points: the newest @limit points before point @before (0: the
 * newest), in the series' order (a track's commit order, else time).
 * *@next is the cursor of the older page, 0 on the last. NULL with @e:
 * LAB_NOT_FOUND, LAB_INVALID (@before is no point of this series).
 */
json_t *series_page_json(store_conn *db, int64_t id, bool pairs, int limit,
			 int64_t before, int64_t *next, struct lab_err *e);
/* Its newest page, or NULL. */
json_t *series_json(store_conn *db, int64_t id, bool pairs);

#endif
