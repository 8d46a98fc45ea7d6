// SPDX-License-Identifier: MIT
/*
 * Description: the route table matches literal and {param} segments
 * exactly (no prefix, trailing-slash or cross-segment matches), exposes
 * parameters by name, parses ids strictly, and reports the allowed
 * methods when only the method is wrong.
 */
#include <stdio.h>
#include <string.h>

#include "daemon/http/routes.h"
#include "unit/check.h"

static enum route_match_result find(const char *m, const char *path,
				    struct http_req *req, const struct route **r,
				    char *allow)
{
	static char scratch[512];

	memset(req, 0, sizeof(*req));
	return route_find(m, path, scratch, req, r, allow, 64);
}

int main(void)
{
	const struct route *r = NULL;
	struct http_req req;
	char allow[64];
	size_t i, j;

	CHECK(find("GET", "/api/v1/experiments/42", &req, &r, allow) == ROUTE_FOUND &&
	      !strcmp(r->pattern, "/api/v1/experiments/{id}"), "experiment route");
	CHECK(http_param_id(&req, "id") == 42, "id param %s", http_param(&req, "id"));
	CHECK(http_param(&req, "i") == NULL && http_param(&req, "idx") == NULL,
	      "param names must match exactly");
	CHECK(find("POST", "/api/v1/jobs/7/heartbeat", &req, &r, allow) == ROUTE_FOUND &&
	      !strcmp(r->pattern, "/api/v1/jobs/{id}/heartbeat"), "heartbeat route");
	CHECK(http_param_id(&req, "id") == 7, "job id");
	CHECK(find("GET", "/api/v1/runs/3/logs/boot", &req, &r, allow) == ROUTE_FOUND &&
	      !strcmp(http_param(&req, "kind"), "boot") && http_param_id(&req, "id") == 3,
	      "two params");

	/* Not found: trailing slash, prefix, extra segment, empty param. */
	CHECK(find("GET", "/api/v1/experiments/42/", &req, &r, allow) == ROUTE_NOT_FOUND, "trailing slash");
	CHECK(find("GET", "/api/v1/experiments/42/x/y", &req, &r, allow) == ROUTE_NOT_FOUND, "extra segments");
	CHECK(find("POST", "/api/v1/jobs//heartbeat", &req, &r, allow) == ROUTE_NOT_FOUND, "empty param");
	CHECK(find("GET", "/api/v1/experimentsX", &req, &r, allow) == ROUTE_NOT_FOUND, "prefix only");
	CHECK(find("GET", "/api/v1", &req, &r, allow) == ROUTE_NOT_FOUND, "shorter path");
	CHECK(find("GET", "", &req, &r, allow) == ROUTE_NOT_FOUND, "empty path");

	/* Wrong method lists the allowed ones. */
	CHECK(find("DELETE", "/api/v1/experiments", &req, &r, allow) == ROUTE_BAD_METHOD,
	      "bad method");
	CHECK(strstr(allow, "GET") && strstr(allow, "POST"), "allow: %s", allow);

	/* Ids are strict. */
	find("GET", "/api/v1/experiments/0", &req, &r, allow);
	CHECK(http_param_id(&req, "id") == -1, "id 0");
	find("GET", "/api/v1/experiments/-1", &req, &r, allow);
	CHECK(http_param_id(&req, "id") == -1, "negative id");
	find("GET", "/api/v1/experiments/12a", &req, &r, allow);
	CHECK(http_param_id(&req, "id") == -1, "trailing garbage");
	find("GET", "/api/v1/experiments/99999999999999999999", &req, &r, allow);
	CHECK(http_param_id(&req, "id") == -1, "overflow");

	/* Every route resolves to itself and no two lines are identical. */
	for (i = 0; i < perflab_routes_count; i++) {
		for (j = i + 1; j < perflab_routes_count; j++)
			CHECK(strcmp(perflab_routes[i].method, perflab_routes[j].method) ||
			      strcmp(perflab_routes[i].pattern, perflab_routes[j].pattern),
			      "duplicate route %s %s", perflab_routes[i].method,
			      perflab_routes[i].pattern);
		CHECK(perflab_routes[i].fn != NULL, "route without handler");
	}
	if (fails)
		return 1;
	printf("ok\n");
	return 0;
}
