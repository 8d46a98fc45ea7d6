/* SPDX-License-Identifier: MIT */
/*
 * client - the CLI's connection to perflabd: base URL + API key, one
 * request at a time, JSON decoding and the {"error"} convention.
 *
 * The transport is common/http_client (libcurl).
 */
#ifndef PERFLAB_CLI_CLIENT_H
#define PERFLAB_CLI_CLIENT_H

#include <stddef.h>
#include <jansson.h>

struct client {
	const char *server;	/* base URL, e.g. http://127.0.0.1:8080 */
	const char *key;	/* API key or NULL */
	long timeout;		/* seconds for the whole request; 0 = none */
};

struct client_resp {
	long status;		/* HTTP status; 0 if no answer */
	char *body;		/* NUL-terminated */
	size_t len;
};

/*
 * Send one request to server + @path.  Returns 0 when an HTTP answer
 * arrived (any status), -1 on connection/transport failure with a message
 * on stderr.  Free @resp with client_resp_free().
 */
int client_request(const struct client *c, const char *method,
		   const char *path, const char *ctype, const void *body,
		   size_t len, struct client_resp *resp);
void client_resp_free(struct client_resp *resp);

/*
 * Like client_request() but for JSON answers: on a 2xx status returns 0
 * and the decoded document in @out (NULL for an empty body).  Otherwise
 * prints the server's {"error"} text (or the raw status) to stderr and
 * returns -1.  @status (may be NULL) receives the HTTP status.
 */
int client_json(const struct client *c, const char *method, const char *path,
		const char *ctype, const void *body, size_t len, json_t **out,
		long *status);

/* Same as client_json(), text answer in @out (malloc'd) instead. */
int client_text(const struct client *c, const char *method, const char *path,
		char **out);

/* server + @path without a doubled slash (malloc'd), NULL on no memory. */
char *client_url(const struct client *c, const char *path);

/* Print "perflab: METHOD PATH: HTTP N: error text" for a failed answer. */
void client_print_error(const char *method, const char *path,
			const struct client_resp *resp);

#endif /* PERFLAB_CLI_CLIENT_H */
