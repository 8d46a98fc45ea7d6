// SPDX-License-Identifier: MIT
/*
 * The image store's endpoints (docs/api.md "Kernel images"): upload
 * (multipart, streamed to lab/images.c), manifest, file download with
 * ranges, list, delete, GC; build tasks' heartbeat and failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <microhttpd.h>

#include "common/failure_reasons.h"
#include "daemon/http/api_images.h"
#include "daemon/http/request.h"
#include "daemon/http/state.h"
#include "daemon/lab/builds.h"
#include "daemon/lab/images.h"

struct upload_ctx {
	struct image_upload *up;
	struct MHD_PostProcessor *pp;
	int status;		/* refusal from a part */
	char err[512];
};

static enum MHD_Result part_cb(void *cls, enum MHD_ValueKind kind,
			       const char *key, const char *filename,
			       const char *content_type,
			       const char *transfer_encoding, const char *data,
			       uint64_t off, size_t size)
{
	struct upload_ctx *u = cls;

	(void)kind;
	(void)filename;
	(void)content_type;
	(void)transfer_encoding;
	u->status = images_upload_part(u->up, key, data, size, off, u->err,
				       sizeof(u->err));
	return u->status ? MHD_NO : MHD_YES;
}

static int upload_begin(struct http_req *req, struct http_resp *resp, void **ctx)
{
	const char *ct = http_header(req, "Content-Type");
	struct upload_ctx *u;
	char err[512];
	int rc;

	*ctx = NULL;
	if (req->auth.role == ROLE_RUNNER && req->auth.host_id <= 0)
		return http_error(resp, 403, "register the host first (POST"
				  " /api/v1/hosts/register)");
	if (http_header(req, "Content-Length") &&
	    strtoull(http_header(req, "Content-Length"), NULL, 10) >
	    req->srv->images.max_body)
		return http_error(resp, 413, "an image upload is at most %llu"
				  " bytes (--image-max-bytes)",
				  (unsigned long long)req->srv->images.max_body);
	if (!ct || strncasecmp(ct, "multipart/form-data", 19))
		return http_error(resp, 400, "the body must be multipart/form-data"
				  " with the parts bzImage, System.map, config"
				  " and meta");
	u = calloc(1, sizeof(*u));
	if (!u)
		return -1;
	rc = images_upload_begin(&req->srv->images, http_param(req, "key"),
				 http_query(req, "sha256"), &u->up, err,
				 sizeof(err));
	if (rc) {
		free(u);
		return rc < 0 ? -1 : http_error(resp, rc, "%s", err);
	}
	u->pp = MHD_create_post_processor(req->conn, 64 * 1024, part_cb, u);
	if (!u->pp) {
		images_upload_free(u->up);
		free(u);
		return http_error(resp, 400, "cannot read the multipart body"
				  " (boundary missing?)");
	}
	*ctx = u;
	return 0;
}

static int upload_data(struct http_req *req, void *ctx, const char *buf,
		       size_t len, struct http_resp *resp)
{
	struct upload_ctx *u = ctx;

	(void)req;
	if (MHD_post_process(u->pp, buf, len) == MHD_YES && !u->status)
		return 0;
	if (u->status > 0)
		http_error(resp, u->status, "%s", u->err);
	else if (u->status < 0)
		http_error(resp, 500, "%s", u->err[0] ? u->err : "internal error");
	else
		http_error(resp, 400, "malformed multipart body");
	return -1;
}

static void upload_end(void *ctx)
{
	struct upload_ctx *u = ctx;

	if (u->pp)
		MHD_destroy_post_processor(u->pp);
	images_upload_free(u->up);
	free(u);
}

const struct route_stream api_image_upload_stream = {
	upload_begin, upload_data, upload_end,
};

int api_image_put(struct http_req *req, struct http_resp *resp)
{
	struct upload_ctx *u = req->stream;
	struct image_uploader who = {
		.host_id = req->auth.role == ROLE_RUNNER ? req->auth.host_id : 0,
		.key_id = req->auth.key_id,
		.admin = req->auth.role == ROLE_ADMIN,
	};
	json_t *answer;
	char err[512];
	int rc;

	if (!u)
		return -1;
	/* The end of the body: whatever the parser still holds. */
	if (MHD_destroy_post_processor(u->pp) == MHD_NO && !u->status) {
		u->pp = NULL;
		return http_error(resp, 400, "malformed multipart body");
	}
	u->pp = NULL;
	if (u->status)
		return u->status < 0 ? -1 : http_error(resp, u->status, "%s", u->err);
	rc = images_upload_finish(u->up, req->db, &who, time(NULL), &answer, err,
				  sizeof(err));
	if (rc == 201 || rc == 200) {
		if (rc == 201)
			server_queue_kick(req->srv);	/* jobs waited for it */
		return http_json(resp, rc, answer);
	}
	return rc < 0 ? http_error(resp, 500, "%s", err) :
		http_error(resp, rc, "%s", err);
}

int api_image_get(struct http_req *req, struct http_resp *resp)
{
	const char *key = http_param(req, "key");
	json_t *o = kimage_is_hex64(key) ?
		images_manifest_json(req->db, key, time(NULL)) : NULL;

	if (!o)
		return http_error(resp, 404, "no such image");
	return http_json(resp, 200, o);
}

int api_image_file(struct http_req *req, struct http_resp *resp)
{
	struct image_fileref f;
	uint64_t sent;
	int rc;

	rc = images_open(&req->srv->images, req->db, http_param(req, "key"),
			 http_param(req, "file"), &f);
	if (rc)
		return rc < 0 ? -1 : http_error(resp, 404, "no such image file");
	if (http_reply_file(req, resp, f.fd, f.size, f.sha256, &sent))
		return -1;
	if (resp->status != 416 && strcmp(req->method, "HEAD"))
		images_count_download(&req->srv->images, &f, sent);
	return 0;
}

int api_images_list(struct http_req *req, struct http_resp *resp)
{
	const char *l = http_query(req, "limit");
	json_t *o = images_list_json(req->db, l ? atoi(l) : 500);

	return o ? http_json(resp, 200, o) : -1;
}

int api_image_delete(struct http_req *req, struct http_resp *resp)
{
	const char *key = http_param(req, "key"), *force = http_query(req, "force");
	char err[512];
	int rc = images_delete(&req->srv->images, req->db, key,
			       force && !strcmp(force, "1"), time(NULL), err,
			       sizeof(err));

	if (rc == 200)
		return http_json(resp, 200, json_pack("{s:s,s:b}", "key", key,
						      "removed", 1));
	return rc < 0 ? -1 : http_error(resp, rc, "%s", err);
}

int api_images_gc(struct http_req *req, struct http_resp *resp)
{
	const char *a = http_query(req, "max_age");
	struct images_gc_result r;
	long long age = -1;
	char *end;

	if (a) {
		age = strtoll(a, &end, 10);
		if (*end || age < 0)
			return http_error(resp, 400, "'max_age' must be seconds (>= 0)");
	}
	if (images_gc(&req->srv->images, req->db, age, time(NULL), &r))
		return -1;
	return http_json(resp, 200, json_pack("{s:I,s:I,s:I,s:I}", "removed",
			 (json_int_t)r.removed, "bytes_freed",
			 (json_int_t)r.bytes_freed, "kept", (json_int_t)r.kept,
			 "bytes", (json_int_t)r.bytes));
}

/* {"lease", ...} of a build task; the caller's host. */
static json_t *task_body(struct http_req *req, struct http_resp *resp,
			 const char *const *keys, int64_t *id)
{
	json_t *body;

	*id = http_param_id(req, "id");
	if (*id < 0) {
		http_error(resp, 404, "no such build");
		return NULL;
	}
	if (req->auth.role == ROLE_RUNNER && req->auth.host_id <= 0) {
		http_error(resp, 403, "register the host first");
		return NULL;
	}
	body = http_json_body_keys(req, resp, keys);
	if (body && (!json_is_string(json_object_get(body, "lease")) ||
		     json_string_length(json_object_get(body, "lease")) > 64)) {
		http_error(resp, 400, "'lease' (the token from the claim) is required");
		json_decref(body);
		return NULL;
	}
	return body;
}

static int lease_answer(struct http_resp *resp, int rc)
{
	if (rc == BUILD_STALE)
		return http_error(resp, 409, "lease is not current (expired or"
				  " superseded)");
	if (rc == BUILD_NOT_FOUND)
		return http_error(resp, 404, "no such build");
	return -1;
}

int api_build_heartbeat(struct http_req *req, struct http_resp *resp)
{
	static const char *const keys[] = { "lease", "phase", "message", NULL };
	struct jobs_ctx c;
	time_t expires;
	int64_t id;
	json_t *body = task_body(req, resp, keys, &id);
	int rc;

	if (!body)
		return 0;
	server_jobs_ctx(req->srv, &c);
	rc = builds_task_heartbeat(server_write_take(req), &c, id,
				   req->auth.role == ROLE_RUNNER ? req->auth.host_id : 0,
				   json_string_value(json_object_get(body, "lease")),
				   time(NULL), &expires);
	json_decref(body);
	if (rc != BUILD_OK)
		return lease_answer(resp, rc);
	return http_json(resp, 200, json_pack("{s:I}", "lease_expires",
					      (json_int_t)expires));
}

int api_build_fail(struct http_req *req, struct http_resp *resp)
{
	static const char *const keys[] = { "lease", "reason", "log", NULL };
	const char *reason, *log;
	struct jobs_ctx c;
	char names[160];
	int64_t id;
	json_t *body = task_body(req, resp, keys, &id);
	int rc;

	if (!body)
		return 0;
	reason = json_string_value(json_object_get(body, "reason"));
	log = json_string_value(json_object_get(body, "log"));
	if (!failure_reason_for(reason, FAILURE_BY_BUILDER)) {
		json_decref(body);
		return http_error(resp, 400, "'reason' must be %s (GET /api/v1/"
				  "failure-reasons)", failure_reason_names(
				  FAILURE_BY_BUILDER, names, sizeof(names)));
	}
	if (log && json_string_length(json_object_get(body, "log")) > (4u << 20)) {
		json_decref(body);
		return http_error(resp, 413, "'log' is larger than 4 MiB");
	}
	server_jobs_ctx(req->srv, &c);
	rc = builds_task_fail(server_write_take(req), &c, id,
			      req->auth.role == ROLE_RUNNER ? req->auth.host_id : 0,
			      json_string_value(json_object_get(body, "lease")),
			      reason, log, time(NULL));
	if (rc == BUILD_OK)
		server_queue_kick(req->srv);
	rc = rc == BUILD_OK ? http_json(resp, 200, json_pack("{s:I,s:s}",
				"build_id", (json_int_t)id, "reason", reason)) :
		lease_answer(resp, rc);
	json_decref(body);
	return rc;
}
