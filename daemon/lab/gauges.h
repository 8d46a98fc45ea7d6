/* SPDX-License-Identifier: MIT */
/*
 * The lab's state in numbers, for /metrics: jobs waiting for a host,
 * experiments waiting for the analysis worker, and jobs, experiments and
 * hosts by state. Counted at scrape time from the store.
 */
#ifndef PERFLAB_LAB_GAUGES_H
#define PERFLAB_LAB_GAUGES_H

#include <time.h>
#include <jansson.h>

#include "daemon/store/conn.h"

/*
 * {"queue_depth": N, "analysis_pending": N, "jobs": {STATE: N, ...},
 *  "experiments": {...}, "hosts": {"idle": N, "busy": N, "offline": N}}:
 * every state that exists, 0 when none is in it. Hosts not seen since
 * @offline_before are offline. NULL on error.
 */
json_t *gauges_json(store_conn *db, time_t offline_before);

#endif
