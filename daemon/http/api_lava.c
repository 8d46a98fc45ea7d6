// SPDX-License-Identifier: MIT
/*
 * LAVA labs over HTTP: parse, authorise, call lab/lava.h, render.
 */
#include "daemon/http/api_lava.h"
#include "daemon/http/state.h"
#include "daemon/lab/lava.h"
#include "daemon/lab/lava_worker.h"

#include <stdio.h>
#include <string.h>

#define TOKEN_HEADER "X-Perflab-Token"

int api_lava_labs_post(struct http_req *req, struct http_resp *resp)
{
	json_t *body = http_json_body(req, resp);
	struct lab_err e;
	int64_t id = 0;
	int rc;

	if (!body)
		return 0;
	if (lava_lab_add(req->db, body, &id, &e))
		rc = http_lab_error(resp, &e);
	else
		rc = http_json(resp, 201, json_pack("{s:I,s:O,s:O}", "id",
				(json_int_t)id, "name", json_object_get(body, "name"),
				"label", json_object_get(body, "label")));
	json_decref(body);
	return rc;
}

int api_lava_labs_list(struct http_req *req, struct http_resp *resp)
{
	json_t *o = lava_labs_json(req->db);

	return o ? http_json(resp, 200, o) : -1;
}

int api_lava_lab_delete(struct http_req *req, struct http_resp *resp)
{
	const char *name = http_param(req, "name");
	struct lab_err e;

	if (lava_lab_disable(req->db, name, &e))
		return http_lab_error(resp, &e);
	return http_json(resp, 200, json_pack("{s:s,s:b}", "name", name,
					      "disabled", 1));
}

int api_lava_job_get(struct http_req *req, struct http_resp *resp)
{
	struct lab_err e;
	json_t *o = lava_job_json(req->db, http_param_id(req, "id"), &e);

	return o ? http_json(resp, 200, o) : http_lab_error(resp, &e);
}

/* 202: the worker looks at the LAVA job now; 200: it was handled before. */
int api_lava_callback(struct http_req *req, struct http_resp *resp)
{
	int64_t id = http_param_id(req, "id");
	struct lab_err e;
	int kick = 0;

	if (lava_callback(req->db, id, http_header(req, TOKEN_HEADER), &kick, &e))
		return http_lab_error(resp, &e);
	if (kick)
		lava_worker_kick(&req->srv->lava);
	return http_json(resp, kick ? 202 : 200, json_pack("{s:I,s:s}", "id",
			 (json_int_t)id, "state", kick ? "fetching" : "finished"));
}

int api_lava_file(struct http_req *req, struct http_resp *resp)
{
	int64_t id = http_param_id(req, "id");
	struct lava_file f;
	struct lab_err e;
	uint64_t sent;

	if (lava_file_open(req->db, &req->srv->lava_cfg, id,
			   http_header(req, TOKEN_HEADER), http_param(req, "name"),
			   &f, &e))
		return http_lab_error(resp, &e);
	if (http_reply_file(req, resp, f.ref.fd, f.ref.size, f.ref.sha256, &sent))
		return -1;
	if (f.from_store && resp->status != 416)
		images_count_download(&req->srv->images, &f.ref, sent);
	return 0;
}
