/* SPDX-License-Identifier: MIT */
/*
 * Result upload (POST /api/v1/jobs/{id}/result): validate the runner's
 * body (docs/contracts.md sections 1 and 2) and store one run with its
 * samples, profile symbols, stacks, build and boot logs. Idempotent: the
 * lease token is the upload's key, a second upload returns the first run.
 */
#ifndef PERFLAB_INGEST_H
#define PERFLAB_INGEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <jansson.h>

#include "daemon/store/conn.h"

#include "daemon/lab/jobs.h"

/* The keys a result body may have (docs/contracts.md section 2). */
extern const char *const ingest_result_keys[];

/* Validate a result body; 0 or -1 LAB_INVALID naming the field. */
int ingest_validate(json_t *body, struct lab_err *e);

/*
 * Store a validated result for @job_id uploaded by @host_id (0: any).
 * 0 with *@run_id (*@duplicate: an upload of this lease was stored
 * before, *run_id is that run), or -1: LAB_NOT_FOUND, LAB_CONFLICT (stale
 * lease), LAB_REJECTED (not the job's commit), LAB_UNAVAILABLE.
 */
int ingest_result(store_conn *db, const struct jobs_ctx *c, int64_t job_id,
		  int64_t host_id, json_t *body, time_t now, int64_t *run_id,
		  bool *duplicate, struct lab_err *e);

#endif
