// SPDX-License-Identifier: MIT
/*
 * LAVA labs over HTTP: parse, authorise, call lab/lava.h, render.
 */
#include "daemon/http/api_lava.h"
#include "daemon/http/state.h"
#include "daemon/lab/lava.h"
#include "daemon/lab/lava_worker.h"

#include <fcntl.h>
#include <microhttpd.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TOKEN_HEADER "X-Perflab-Token"

int api_lava_labs_post(struct http_req *req, struct http_resp *resp)
{
	json_t *body = http_json_body(req, resp);
	char err[512];
	int64_t id = 0;
	int rc;

	if (!body)
		return 0;
	rc = lava_lab_add(req->db, body, &id, err, sizeof(err));
	if (rc != 201) {
		json_decref(body);
		return http_error(resp, rc, "%s", err);
	}
	rc = http_json(resp, 201, json_pack("{s:I,s:O,s:O}", "id", (json_int_t)id,
			"name", json_object_get(body, "name"),
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
	char err[256];
	int rc = lava_lab_disable(req->db, name, err, sizeof(err));

	if (rc != 200)
		return http_error(resp, rc, "%s", err);
	return http_json(resp, 200, json_pack("{s:s,s:b}", "name", name,
					      "disabled", 1));
}

int api_lava_job_get(struct http_req *req, struct http_resp *resp)
{
	int64_t id = http_param_id(req, "id");
	json_t *o = id > 0 ? lava_job_json(req->db, id) : NULL;

	if (!o)
		return http_error(resp, 404, "no such LAVA job");
	return http_json(resp, 200, o);
}

int api_lava_callback(struct http_req *req, struct http_resp *resp)
{
	int64_t id = http_param_id(req, "id");
	char err[256];
	int kick = 0, rc;

	if (id <= 0)
		return http_error(resp, 404, "no such LAVA job");
	rc = lava_callback(req->db, id, http_header(req, TOKEN_HEADER), &kick,
			   err, sizeof(err));
	if (kick)
		lava_worker_kick(&req->srv->lava);
	if (rc == 202 || rc == 200)
		return http_json(resp, rc, json_pack("{s:I,s:s}", "id",
				 (json_int_t)id, "state", rc == 202 ?
				 "fetching" : "finished"));
	return http_error(resp, rc, "%s", err);
}

int api_lava_file(struct http_req *req, struct http_resp *resp)
{
	int64_t id = http_param_id(req, "id");
	const char *name = http_param(req, "name");
	struct lava_file f;
	struct stat sb;
	char err[256];
	int rc, fd;

	if (id <= 0)
		return http_error(resp, 404, "no such LAVA job");
	rc = lava_file_find(req->db, &req->srv->lava_cfg, id,
			    http_header(req, TOKEN_HEADER), name, &f, err,
			    sizeof(err));
	if (rc != 200)
		return http_error(resp, rc, "%s", err);
	fd = open(f.path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &sb) || sb.st_size != f.size) {
		if (fd >= 0)
			close(fd);
		return http_error(resp, 404, "file '%s' changed under us", name);
	}
	resp->mhd = MHD_create_response_from_fd((uint64_t)sb.st_size, fd);
	if (!resp->mhd) {
		close(fd);
		return -1;
	}
	MHD_add_response_header(resp->mhd, "Content-Type",
				"application/octet-stream");
	MHD_add_response_header(resp->mhd, "X-Perflab-Sha256", f.sha256);
	resp->status = 200;
	return 0;
}
