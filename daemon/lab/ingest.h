/* SPDX-License-Identifier: MIT */
/*
 * Result upload (POST /api/v1/jobs/{id}/result): validate the runner's
 * body (docs/contracts.md sections 1 and 2) and store one run with its
 * samples, profile symbols, stacks, build and boot logs. Idempotent: the
 * lease token is the upload's key, a second upload returns the first run.
 */
#ifndef PERFLAB_INGEST_H
#define PERFLAB_INGEST_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <jansson.h>

#include "daemon/store/conn.h"

#include "daemon/lab/jobs.h"

/* Validate a result body; 0 or -1 with the reason in @err. */
int ingest_validate(json_t *body, char *err, size_t errlen);

/*
 * Store a validated result for @job_id uploaded by @host_id (0: any).
 * Returns 201 (stored), 200 (duplicate: *run_id is the earlier run), 404,
 * 409 (stale lease) or 500, with a message in @err for errors.
 */
int ingest_result(store_conn *db, const struct jobs_ctx *c, int64_t job_id,
		  int64_t host_id, json_t *body, time_t now, int64_t *run_id,
		  char *err, size_t errlen);

#endif
