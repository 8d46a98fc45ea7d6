// SPDX-License-Identifier: MIT
/*
 * POST /api/v1/compare: compare imported benchmark logs without runs in
 * the lab (analysis/compare.h). See api_compare.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/http/api_compare.h"

#define CMP_MAX_LOGS COMPARE_MAX_LOGS

static int warmup_param(struct http_req *req, json_t *body, int *warmup)
{
	const char *q = http_query(req, "warmup");
	json_t *w = body ? json_object_get(body, "warmup") : NULL;
	char *end;
	long v;

	*warmup = 0;
	if (w) {
		if (!json_is_integer(w) || json_integer_value(w) < 0 ||
		    json_integer_value(w) > 3600)
			return -1;
		*warmup = (int)json_integer_value(w);
	}
	if (q) {
		v = strtol(q, &end, 10);
		if (*end || end == q || v < 0 || v > 3600)
			return -1;
		*warmup = (int)v;
	}
	return 0;
}

static int reply(struct http_resp *resp, json_t *out, const char *err)
{
	if (!out)
		return http_error(resp, 422, "%s", err);
	return http_json(resp, 200, out);
}

int api_compare_post(struct http_req *req, struct http_resp *resp)
{
	static const char *const keys[] = { "logs", "warmup", NULL };
	struct compare_log logs[CMP_MAX_LOGS];
	struct verdict_opts o;
	char err[512];
	json_t *body, *arr, *e;
	size_t i, n;
	int warmup, ret;

	verdict_opts_default(&o);
	if (!req->body_len)
		return http_error(resp, 400, "empty body: send {\"logs\":[{\"name\",\"text\"}...]} or a raw log");
	if (req->body[strspn(req->body, " \t\r\n")] != '{' ||
	    !strstr(req->body, "\"logs\"")) {
		/* A raw log (text, or bench/fio JSON): blocks name themselves. */
		struct compare_log one = { NULL, req->body, req->body_len };

		if (warmup_param(req, NULL, &warmup))
			return http_error(resp, 400, "warmup must be an integer 0..3600");
		return reply(resp, compare_logs(&one, 1, warmup, &o, err, sizeof(err)), err);
	}
	body = http_json_body_keys(req, resp, keys);
	if (!body)
		return 0;
	ret = 0;
	if (warmup_param(req, body, &warmup)) {
		ret = http_error(resp, 400, "warmup must be an integer 0..3600");
		goto out;
	}
	arr = json_object_get(body, "logs");
	n = json_array_size(arr);
	if (!json_is_array(arr) || n < 1 || n > CMP_MAX_LOGS) {
		ret = http_error(resp, 400, "\"logs\" must be an array of 1..%d {\"name\",\"text\"}",
				 CMP_MAX_LOGS);
		goto out;
	}
	json_array_foreach(arr, i, e) {
		json_t *name = json_object_get(e, "name");
		json_t *text = json_object_get(e, "text");

		if (!json_is_string(text) || (name && !json_is_string(name)) ||
		    (name && json_string_length(name) > 127)) {
			ret = http_error(resp, 400,
					 "logs[%zu]: needs \"text\" (string) and an optional \"name\" (string, at most 127 bytes)",
					 i);
			goto out;
		}
		logs[i].name = name ? json_string_value(name) : NULL;
		logs[i].text = json_string_value(text);
		logs[i].len = json_string_length(text);
	}
	ret = reply(resp, compare_logs(logs, n, warmup, &o, err, sizeof(err)), err);
out:
	json_decref(body);
	return ret;
}
