/* SPDX-License-Identifier: MIT */
/*
 * http_client: one HTTP request with libcurl: method, URL, optional bearer
 * key and JSON body -> status + body. Used by the runner and the CLI.
 * Thread-safe once http_client_global_init() has run (call it first,
 * before any thread starts).
 */
#ifndef PERFLAB_HTTP_CLIENT_H
#define PERFLAB_HTTP_CLIENT_H

#include <stddef.h>

struct http_response {
	long status;		/* HTTP status, 0 if no answer */
	char *body;		/* heap, NUL-terminated, never NULL after a call */
	size_t len;
	char error[256];	/* transport error text when status == 0 */
};

struct http_request {
	const char *method;	/* "GET", "POST", "PATCH", ... */
	const char *url;
	const char *key;	/* bearer token or NULL */
	const char *auth_scheme; /* NULL: "Bearer"; LAVA's API: "Token" */
	const char *body;	/* request body or NULL */
	size_t body_len;	/* 0: strlen(body) */
	const char *content_type; /* NULL: application/json when body set */
	long timeout_s;		/* whole request; 0: 60 */
	size_t max_response;	/* 0: 64 MiB */
};

int http_client_global_init(void);
/* 0 when an HTTP answer arrived (any status); -1 transport error. */
int http_do(const struct http_request *req, struct http_response *resp);
void http_response_free(struct http_response *resp);

#endif
