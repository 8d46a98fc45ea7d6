/* SPDX-License-Identifier: MIT */
/*
 * The lab's input rules, shared by every way in (HTTP handlers, result
 * upload, job specs): names, benchmark parameters, JSON objects' keys.
 * They answer yes/no, a refusal as LAB_INVALID with the reason
 * (status.h); how it reaches the client (a 400 with {"error": ...}) is
 * the caller's business.
 */
#ifndef PERFLAB_LAB_VALIDATE_H
#define PERFLAB_LAB_VALIDATE_H

#include <stddef.h>
#include <jansson.h>

#include "daemon/lab/status.h"

/* A name: 1..64 characters of [A-Za-z0-9._+-]. */
int lab_valid_name(const char *s);

/*
 * Defaults of docs/contracts.md merged with validated overrides @in
 * (may be NULL). New reference, or NULL: LAB_INVALID with the reason.
 */
json_t *bench_params_json(json_t *in, struct lab_err *e);

/* 0 if every key of @o is in the NULL-terminated @allowed, else -1 and
 * the offending key in @bad. */
int json_check_keys(json_t *o, const char *const *allowed, const char **bad);

#endif
