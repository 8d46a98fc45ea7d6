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

/* An integer member in [@min, @max], @def when absent: 0, or -1 (400
 * sent). */
int api_opt_int(json_t *o, const char *k, int def, int min, int max, int *out,
		struct http_resp *resp);

/*
 * The member "bench" of @o with the defaults filled in and checked
 * (lab/validate.h), as canonical JSON text in *@out (malloc'd): 1, or
 * what the handler returns (0 refused with a 400, -1 out of memory).
 */
int api_bench(json_t *o, char **out, struct http_resp *resp);

/* The request's key as trust.h wants it (trust_request() checks
 * backend and quota for every request that queues work). */
void api_trust_who(const struct http_req *req, struct trust_who *who);

/*
 * The keyset page a request asks for (docs/api.md "Pagination"):
 * ?limit= in [1, @max] (@def when absent) and ?before= a positive id
 * (0 when absent). 0, or -1 with the 400 sent.
 */
int api_page_args(struct http_req *req, struct http_resp *resp, int def,
		  int max, int *limit, int64_t *before);

/* {"@key": @a} (stolen), or -1 when @a is NULL (a lab error). */
int api_list(struct http_resp *resp, const char *key, json_t *a);

/*
 * Work was queued as @kind/@id (tracks, bisections): wake the runners'
 * claims, point Location at /api/v1/@kind/@id and answer 201 with @o
 * (stolen; NULL: -1).
 */
int api_queued(struct http_req *req, struct http_resp *resp, const char *kind,
	       int64_t id, json_t *o);

/*
 * Experiment @exp was queued: wakes the runners' claim long-polls,
 * publishes the "queued" event and points the answer's Location (also its
 * "url") at /api/v1/experiments/{exp}.
 */
void api_experiment_queued(struct http_req *req, struct http_resp *resp,
			   int64_t exp);

#endif
