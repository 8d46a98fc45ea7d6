// SPDX-License-Identifier: MIT
/*
 * Handler-side helpers: parameters, query, JSON body, replies.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <microhttpd.h>

#include "daemon/http/http.h"
#include "daemon/lab/fetcher.h"
#include "daemon/lab/validate.h"

const char *http_param(const struct http_req *req, const char *name)
{
	size_t n = strlen(name);
	int i;

	/* Names point into the route pattern: "id}/rest". */
	for (i = 0; i < req->nparams; i++)
		if (!strncmp(req->params[i].name, name, n) &&
		    req->params[i].name[n] == '}')
			return req->params[i].value;
	return NULL;
}

int64_t http_param_id(const struct http_req *req, const char *name)
{
	const char *v = http_param(req, name);
	int64_t id = 0;

	if (!v || !*v || strlen(v) > 18)
		return -1;
	for (; *v; v++) {
		if (*v < '0' || *v > '9')
			return -1;
		id = id * 10 + (*v - '0');
	}
	return id > 0 ? id : -1;
}

const char *http_query(const struct http_req *req, const char *key)
{
	if (!req->conn)
		return NULL;
	return MHD_lookup_connection_value(req->conn, MHD_GET_ARGUMENT_KIND, key);
}

const char *http_header(const struct http_req *req, const char *name)
{
	if (!req->conn)
		return NULL;
	return MHD_lookup_connection_value(req->conn, MHD_HEADER_KIND, name);
}

json_t *http_json_body(struct http_req *req, struct http_resp *resp)
{
	json_error_t e;
	json_t *o;

	if (req->body_len == 0) {
		http_error(resp, 400, "empty body: a JSON object is required");
		return NULL;
	}
	o = json_loadb(req->body, req->body_len, JSON_REJECT_DUPLICATES, &e);
	if (!o) {
		http_error(resp, 400, "invalid JSON at line %d column %d: %s",
			   e.line, e.column, e.text);
		return NULL;
	}
	if (!json_is_object(o)) {
		json_decref(o);
		http_error(resp, 400, "the body must be a JSON object");
		return NULL;
	}
	return o;
}

json_t *http_json_body_keys(struct http_req *req, struct http_resp *resp,
			   const char *const *allowed)
{
	json_t *o = http_json_body(req, resp);
	const char *bad;

	if (o && json_check_keys(o, allowed, &bad)) {
		http_error(resp, 400, "unknown field '%.64s'", bad);
		json_decref(o);
		return NULL;
	}
	return o;
}

int http_take(struct http_resp *resp, int status, const char *content_type,
	      char *buf, size_t len)
{
	free(resp->body);
	resp->status = status;
	resp->content_type = content_type;
	resp->body = buf;
	resp->len = len;
	return 0;
}

int http_text(struct http_resp *resp, int status, const char *content_type,
	      const char *text, size_t len)
{
	char *b = malloc(len + 1);

	if (!b)
		return -1;
	memcpy(b, text, len);
	b[len] = '\0';
	return http_take(resp, status, content_type, b, len);
}

int http_json(struct http_resp *resp, int status, json_t *o)
{
	char *s;

	if (!o)
		return -1;
	s = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	if (!s)
		return -1;
	return http_take(resp, status, "application/json", s, strlen(s));
}

int http_error(struct http_resp *resp, int status, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* A message quoting bad input may not be valid UTF-8. */
	if (http_json(resp, status, json_pack("{s:s}", "error", msg)) &&
	    http_json(resp, status, json_pack("{s:s}", "error", "invalid request"))) {
		resp->status = status;
		return -1;
	}
	return 0;
}

/*
 * The one place a lab status becomes an HTTP status (lab/status.h). An
 * internal failure answers no detail: the dispatcher says 500, or 503
 * when the store was unavailable (server.c).
 */
static const int lab_http_status[LAB_NR_STATUS] = {
	[LAB_OK] = 500,		/* a refusal without a kind is a bug */
	[LAB_INVALID] = 400,
	[LAB_FORBIDDEN] = 403,
	[LAB_NOT_FOUND] = 404,
	[LAB_CONFLICT] = 409,
	[LAB_REJECTED] = 422,
	[LAB_QUOTA] = 429,
	[LAB_UPSTREAM] = 502,
	[LAB_PENDING] = 503,	/* with Retry-After */
	[LAB_UNAVAILABLE] = 503,
	[LAB_INTERNAL] = 500,
};

int http_status_of(enum lab_status st)
{
	return st < LAB_NR_STATUS ? lab_http_status[st] : 500;
}

int http_lab_error(struct http_resp *resp, const struct lab_err *e)
{
	if (e->st == LAB_OK || e->st == LAB_INTERNAL || e->st >= LAB_NR_STATUS) {
		fprintf(stderr, "perflabd: internal error: %s\n", e->msg);
		return -1;
	}
	if (e->st == LAB_PENDING)
		resp->retry_after = fetcher_retry_after();
	return http_error(resp, lab_http_status[e->st], "%s", e->msg);
}

/* "bytes=A-B", "bytes=A-", "bytes=-N": 1 one satisfiable range, 0 none or
 * several (answer whole), -1 unsatisfiable. */
static int parse_range(const char *h, uint64_t size, uint64_t *from,
		       uint64_t *len)
{
	unsigned long long a = 0, b = 0;
	char *end;

	if (!h || strncmp(h, "bytes=", 6) || strchr(h, ','))
		return 0;
	h += 6;
	if (*h == '-') {
		b = strtoull(h + 1, &end, 10);
		if (end == h + 1 || *end || b == 0)
			return 0;
		if (size == 0)
			return -1;
		*from = b >= size ? 0 : size - b;
		*len = size - *from;
		return 1;
	}
	a = strtoull(h, &end, 10);
	if (end == h || *end != '-')
		return 0;
	h = end + 1;
	if (*h) {
		b = strtoull(h, &end, 10);
		if (*end || b < a)
			return 0;
	} else {
		b = size ? size - 1 : 0;
	}
	if (a >= size)
		return -1;
	if (b >= size)
		b = size - 1;
	*from = a;
	*len = b - a + 1;
	return 1;
}

int http_reply_file(struct http_req *req, struct http_resp *resp, int fd,
		    uint64_t size, const char *sha256, uint64_t *sent)
{
	struct MHD_Response *r;
	uint64_t from = 0, len = size;
	char etag[80], cr[96];
	int rr = parse_range(http_header(req, "Range"), size, &from, &len);

	*sent = 0;
	if (rr < 0) {
		close(fd);
		r = MHD_create_response_from_buffer(0, (void *)"",
						    MHD_RESPMEM_PERSISTENT);
		if (!r)
			return -1;
		snprintf(cr, sizeof(cr), "bytes */%llu", (unsigned long long)size);
		MHD_add_response_header(r, "Content-Range", cr);
		resp->status = 416;
		resp->mhd = r;
		return 0;
	}
	r = MHD_create_response_from_fd_at_offset64(len, fd, (int64_t)from);
	if (!r) {
		close(fd);
		return -1;
	}
	snprintf(etag, sizeof(etag), "\"%s\"", sha256);
	MHD_add_response_header(r, "Content-Type", "application/octet-stream");
	MHD_add_response_header(r, "ETag", etag);
	MHD_add_response_header(r, "X-Perflab-Sha256", sha256);
	MHD_add_response_header(r, "Accept-Ranges", "bytes");
	MHD_add_response_header(r, "Cache-Control", "no-store");
	resp->status = 200;
	if (rr == 1) {
		snprintf(cr, sizeof(cr), "bytes %llu-%llu/%llu",
			 (unsigned long long)from,
			 (unsigned long long)(from + len - 1),
			 (unsigned long long)size);
		MHD_add_response_header(r, "Content-Range", cr);
		resp->status = 206;
	}
	resp->mhd = r;
	*sent = strcmp(req->method, "HEAD") ? len : 0;
	return 0;
}
