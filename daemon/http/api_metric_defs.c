// SPDX-License-Identifier: MIT
/*
 * GET /api/v1/metric-defs; see api_metric_defs.h. The answer is the
 * compiled-in table, the same for every caller and every request.
 */
#include "common/metric_defs.h"
#include "daemon/http/api_metric_defs.h"

static const char *direction_str(enum metric_direction d)
{
	switch (d) {
	case METRIC_HIGHER_IS_BETTER:
		return "higher_is_better";
	case METRIC_LOWER_IS_BETTER:
		return "lower_is_better";
	default:
		return "neutral";
	}
}

int api_metric_defs(struct http_req *req, struct http_resp *resp)
{
	json_t *a = json_array();
	size_t i;

	(void)req;
	for (i = 0; a && i < metric_defs_count; i++) {
		const struct metric_def *m = &metric_defs[i];

		json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:s, s:s, s:b, s:s, s:s}",
			"name", m->name, "path", m->path,
			"type", m->type == 'i' ? "integer" : "number",
			"unit", m->unit, "direction", direction_str(m->dir),
			"verdict", m->verdict, "label", m->label,
			"format", m->format));
	}
	return http_json(resp, 200, json_pack("{s:o?}", "metrics", a));
}
