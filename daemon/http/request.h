/* SPDX-License-Identifier: MIT */
/*
 * Request helpers the handlers share: optional string fields, the
 * caller's key as the lab's trust rules want it, and the answer to a
 * request that queued an experiment. Domain rules themselves (names,
 * bench parameters, quotas) are the lab's: lab/validate.h, lab/trust.h.
 */
#ifndef PERFLAB_REQUEST_H
#define PERFLAB_REQUEST_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "daemon/http/http.h"
#include "daemon/lab/trust.h"

/* A string member: NULL if absent; -1 (400 sent) if not a string or longer
 * than @max or not valid text. */
int api_opt_string(json_t *o, const char *k, size_t max, const char **out,
		   struct http_resp *resp);

/* The request's key as trust.h wants it. */
void api_trust_who(const struct http_req *req, struct trust_who *who);
/*
 * The checks every experiment-making request shares: @backend (may be
 * NULL) is known, and @runs more jobs fit the request cap and the key's
 * quota. 0, or -1 after sending the error (or on a database error with
 * nothing sent).
 */
int api_trust_request(struct http_req *req, struct http_resp *resp,
		      const char *backend, int runs);

/*
 * api_trust_request() before any git work, under the writer lock: a key
 * that may not queue this (backend, quota) never makes the daemon fetch.
 * Not the final word: the request's transaction checks again, counting
 * what other requests queued meanwhile.
 */
int api_trust_precheck(struct http_req *req, struct http_resp *resp,
		       const char *backend, int runs);

/* Headers that go with @status from the lab: 503 (a git fetch still
 * running) gets Retry-After. Call before http_error(). */
void api_http_status(struct http_resp *resp, int status);

/*
 * Experiment @exp was queued: wakes the runners' claim long-polls,
 * publishes the "queued" event and points the answer's Location (also its
 * "url") at /api/v1/experiments/{exp}.
 */
void api_experiment_queued(struct http_req *req, struct http_resp *resp,
			   int64_t exp);

#endif
