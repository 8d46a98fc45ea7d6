/* SPDX-License-Identifier: MIT */
/*
 * The HTTP layer (daemon/http/, see its README.md): the server and its
 * threads, the route table, authentication, rate limits, caches, request
 * metrics, the SSE stream and the api_* handlers. A handler parses and
 * checks its request, calls the lab (daemon/lab/), which runs the SQL and
 * builds the resource's JSON, and maps the answer to a status and JSON
 * (http_lab_error for a refusal). This layer knows no SQL: req->db is an
 * opaque store_conn. Nothing below includes a header of this folder
 * (tests/layers/include-graph.sh).
 *
 * perflabd handler API. A handler gets a parsed request and fills a
 * response; routes.c maps METHOD + path pattern to handlers.
 *
 *	int api_thing_get(struct http_req *req, struct http_resp *resp)
 *	{
 *		int64_t id = http_param_id(req, "id");
 *		json_t *o;
 *
 *		if (id < 0)
 *			return http_error(resp, 404, "no such thing");
 *		o = json_pack("{s:I}", "id", (json_int_t)id);
 *		return http_json(resp, 200, o);		(steals o)
 *	}
 *
 * Handlers return the value of the reply helper (0), or -1 on an internal
 * error without a reply, which becomes 500 {"error": "internal error"}.
 * req->db is a connection owned by the request (do not close it; do not
 * keep it past the handler). Everything in req is valid until the handler
 * returns.
 */
#ifndef PERFLAB_HTTP_H
#define PERFLAB_HTTP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "daemon/lab/roles.h"
#include "daemon/lab/status.h"
#include "daemon/store/conn.h"

struct MHD_Connection;
struct MHD_Response;
struct server;

/* Key roles (ROLE_*, lab/roles.h); a route lists those it accepts. */
/* Route access: PUBLIC needs no key; READ = submit or admin (or anyone
 * when perflabd runs with --public-read). */
#define AUTH_PUBLIC 0u
#define AUTH_READ (ROLE_SUBMIT | ROLE_ADMIN)
#define AUTH_SUBMIT (ROLE_SUBMIT | ROLE_ADMIN)
#define AUTH_ADMIN ROLE_ADMIN
#define AUTH_RUNNER (ROLE_RUNNER | ROLE_ADMIN)

/* The authenticated caller (all zero for anonymous requests). */
struct http_auth {
	int role;		/* ROLE_* or ROLE_NONE */
	int64_t key_id;
	int64_t host_id;	/* runner keys: host bound to the key, or 0 */
	char name[64];		/* key name, for "who" fields */
};

#define HTTP_MAX_PARAMS 8

struct http_req {
	const char *method;	/* "GET", "POST", ... */
	const char *path;	/* URL path, no query string */
	const char *body;	/* request body, NUL-terminated; "" when none */
	size_t body_len;
	int nparams;		/* path parameters: {name} in the pattern */
	struct {
		const char *name;
		const char *value;
	} params[HTTP_MAX_PARAMS];
	struct http_auth auth;
	store_conn *db;		/* this request's connection */
	/* Set while the request holds the write lock: then db is the
	 * writer's and this is the pool connection (state.h). */
	store_conn *pool_db;
	struct server *srv;	/* daemon state (see server.h) */
	struct MHD_Connection *conn;
	void *stream;		/* a streamed route's context (routes.h) */
};

struct http_resp {
	int status;
	const char *content_type;
	char *body;		/* malloc'ed, freed by the server */
	size_t len;
	struct MHD_Response *mhd;	/* custom response (SSE); wins if set */
	char location[256];	/* Location header if non-empty */
	int retry_after;	/* Retry-After header (seconds) if > 0 */
};

typedef int (*http_handler)(struct http_req *req, struct http_resp *resp);

/*
 * A route whose body is not kept in memory (kernel images): @begin runs
 * after authentication, before the body, and may answer at once (sets
 * resp->status); @data gets the body as it arrives and may refuse it
 * (sets resp, returns -1: the rest is discarded and resp answered); the
 * handler runs at the end with req->stream; @end always runs last, also
 * when the client went away.
 */
struct route_stream {
	int (*begin)(struct http_req *req, struct http_resp *resp, void **ctx);
	int (*data)(struct http_req *req, void *ctx, const char *buf, size_t len,
		    struct http_resp *resp);
	void (*end)(void *ctx);
};


/* Path parameter by name, or NULL. */
const char *http_param(const struct http_req *req, const char *name);
/* Path parameter parsed as a positive decimal id, or -1. */
int64_t http_param_id(const struct http_req *req, const char *name);
/* Query string argument (URL-decoded), or NULL. */
const char *http_query(const struct http_req *req, const char *key);
/* Request header, or NULL. */
const char *http_header(const struct http_req *req, const char *name);

/*
 * Parse the body as a JSON object. On failure replies 400 with the reason
 * and returns NULL (the handler then just returns 0).
 */
json_t *http_json_body(struct http_req *req, struct http_resp *resp);
/* The same, also refusing (400) any key not in NULL-terminated @allowed. */
json_t *http_json_body_keys(struct http_req *req, struct http_resp *resp,
			   const char *const *allowed);

/* Reply helpers; all return 0 (or -1 when out of memory). */
int http_json(struct http_resp *resp, int status, json_t *o); /* steals o */
int http_text(struct http_resp *resp, int status, const char *content_type,
	      const char *text, size_t len);	/* copies text */
int http_take(struct http_resp *resp, int status, const char *content_type,
	      char *buf, size_t len);	/* takes malloc'ed buf */
/*
 * Answer the open file @fd (taken) of @size bytes: Range (one range: 206
 * with Content-Range; past the end: 416), ETag and X-Perflab-Sha256 from
 * @sha256, HEAD without the body. *sent: the bytes the answer carries.
 */
int http_reply_file(struct http_req *req, struct http_resp *resp, int fd,
		    uint64_t size, const char *sha256, uint64_t *sent);
int http_error(struct http_resp *resp, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/*
 * Answer the lab's refusal @e with its HTTP status and {"error": msg}
 * (0); an internal failure is logged and returns -1, which the
 * dispatcher answers 500 (503 when the store was unavailable).
 */
int http_lab_error(struct http_resp *resp, const struct lab_err *e);
/* The HTTP status of a lab status: the one mapping (http.c). */
int http_status_of(enum lab_status st);

#endif
