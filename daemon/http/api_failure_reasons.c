// SPDX-License-Identifier: MIT
/*
 * GET /api/v1/failure-reasons; see api_failure_reasons.h. The answer is
 * the compiled-in table, the same for every caller and every request.
 */
#include "common/failure_reasons.h"
#include "daemon/http/api_failure_reasons.h"

static json_t *reporters_json(unsigned bits)
{
	static const enum failure_reporter all[] = { FAILURE_BY_RUNNER,
		FAILURE_BY_BUILDER, FAILURE_BY_DAEMON };
	json_t *a = json_array();
	size_t i;

	for (i = 0; a && i < sizeof(all) / sizeof(all[0]); i++)
		if (bits & all[i])
			json_array_append_new(a, json_string(failure_reporter_name(all[i])));
	return a;
}

int api_failure_reasons(struct http_req *req, struct http_resp *resp)
{
	json_t *a = json_array();
	size_t i;

	(void)req;
	for (i = 0; a && i < failure_reasons_count; i++) {
		const struct failure_reason *r = &failure_reasons[i];

		json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:b, s:o?, s:s}",
			"name", r->name, "meaning", r->meaning,
			"advice", r->advice, "retryable", r->retryable,
			"reported_by", reporters_json(r->reporters),
			"bisect", r->bisect == FAILURE_BISECT_SKIP ? "skip" : "fail"));
	}
	return http_json(resp, 200, json_pack("{s:o?}", "reasons", a));
}
