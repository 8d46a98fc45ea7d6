/* SPDX-License-Identifier: MIT */
/*
 * Route table: METHOD + path pattern -> handler. See routes.c.
 */
#ifndef PERFLAB_ROUTES_H
#define PERFLAB_ROUTES_H

#include <stddef.h>
#include "daemon/http/http.h"

/* Route flags. */
#define ROUTE_QUERY_KEY 0x1	/* also accept ?key=KEY (EventSource can't set headers) */
/* The handler writes only short transactions: the dispatcher runs it with
 * the writer's connection as req->db, under the write lock (writer.h).
 * Handlers with slow work (git) instead lock around their writes. */
#define ROUTE_WRITES 0x2
/* The body is streamed (route_stream_of gives the callbacks), not kept. */
#define ROUTE_STREAM 0x4
/* A request without a key passes authentication as anonymous: the
 * handler checks a signature of the body instead (git push hooks). A
 * key, when sent, must still be valid and of the route's role. */
#define ROUTE_SIGNED 0x8

struct route {
	const char *method;
	const char *pattern;	/* "/api/v1/experiments/{id}/perf-diff" */
	unsigned auth;		/* AUTH_* mask of accepted roles */
	http_handler fn;
	size_t max_body;	/* 0: ROUTE_DEFAULT_BODY */
	unsigned flags;
};

#define ROUTE_DEFAULT_BODY (1u << 20)

extern const struct route perflab_routes[];
/* The stream callbacks of a ROUTE_STREAM route, else NULL. */
const struct route_stream *route_stream_of(const struct route *r);
extern const size_t perflab_routes_count;

/* Method and pattern of perflab_routes[@r] (metrics.h wants names). */
void route_label(int r, const char **method, const char **pattern);

enum route_match_result { ROUTE_FOUND, ROUTE_NOT_FOUND, ROUTE_BAD_METHOD };

/*
 * Find the route for @method @path; fills req->params (pointing into
 * @scratch, a copy of the path of at least strlen(path)+1 bytes).
 * ROUTE_BAD_METHOD when the path matches only with other methods; then
 * @allow gets e.g. "GET, POST".
 */
enum route_match_result route_find(const char *method, const char *path,
				   char *scratch, struct http_req *req,
				   const struct route **out,
				   char *allow, size_t allowlen);

#endif
