// SPDX-License-Identifier: MIT
/*
 * client - HTTP requests from the CLI to perflabd over common/http_client.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/client.h"
#include "common/http_client.h"

char *client_url(const struct client *c, const char *path)
{
	size_t sl = strlen(c->server);
	char *url;

	while (sl && c->server[sl - 1] == '/')
		sl--;
	if (asprintf(&url, "%.*s%s", (int)sl, c->server, path) < 0)
		return NULL;
	return url;
}

int client_request(const struct client *c, const char *method,
		   const char *path, const char *ctype, const void *body,
		   size_t len, struct client_resp *resp)
{
	struct http_request req = {
		.method = method,
		.key = c->key && *c->key ? c->key : NULL,
		.body = body,
		.body_len = len,
		.content_type = ctype,
		.timeout_s = c->timeout,
	};
	struct http_response r;
	char *url;
	int ret;

	memset(resp, 0, sizeof(*resp));
	url = client_url(c, path);
	if (!url) {
		fprintf(stderr, "perflab: out of memory\n");
		return -1;
	}
	req.url = url;
	if (body && !len)
		req.body = "";		/* http_do: body_len 0 means strlen */
	ret = http_do(&req, &r);
	if (ret) {
		fprintf(stderr, "perflab: %s %s: %s\n", method, url, r.error);
		http_response_free(&r);
	} else {
		resp->status = r.status;
		resp->body = r.body;
		resp->len = r.len;
	}
	free(url);
	return ret;
}

void client_resp_free(struct client_resp *resp)
{
	free(resp->body);
	memset(resp, 0, sizeof(*resp));
}

void client_print_error(const char *method, const char *path,
			const struct client_resp *resp)
{
	json_t *doc, *err;
	const char *text = NULL;

	doc = json_loadb(resp->body ? resp->body : "", resp->len, 0, NULL);
	err = json_object_get(doc, "error");
	if (json_is_string(err))
		text = json_string_value(err);
	if (text)
		fprintf(stderr, "perflab: %s %s: HTTP %ld: %s\n", method, path,
			resp->status, text);
	else if (resp->len && resp->len < 512)
		fprintf(stderr, "perflab: %s %s: HTTP %ld: %s\n", method, path,
			resp->status, resp->body);
	else
		fprintf(stderr, "perflab: %s %s: HTTP %ld\n", method, path,
			resp->status);
	json_decref(doc);
}

int client_json(const struct client *c, const char *method, const char *path,
		const char *ctype, const void *body, size_t len, json_t **out,
		long *status)
{
	struct client_resp r;
	json_error_t jerr;
	int ret = -1;

	*out = NULL;
	if (status)
		*status = 0;
	if (client_request(c, method, path, ctype, body, len, &r))
		return -1;
	if (status)
		*status = r.status;
	if (r.status < 200 || r.status > 299) {
		client_print_error(method, path, &r);
		goto out;
	}
	ret = 0;
	if (!r.len)
		goto out;
	*out = json_loadb(r.body, r.len, 0, &jerr);
	if (!*out) {
		fprintf(stderr, "perflab: %s %s: bad JSON in answer: %s\n",
			method, path, jerr.text);
		ret = -1;
	}
out:
	client_resp_free(&r);
	return ret;
}

int client_text(const struct client *c, const char *method, const char *path,
		char **out)
{
	struct client_resp r;

	*out = NULL;
	if (client_request(c, method, path, NULL, NULL, 0, &r))
		return -1;
	if (r.status < 200 || r.status > 299) {
		client_print_error(method, path, &r);
		client_resp_free(&r);
		return -1;
	}
	*out = r.body;
	r.body = NULL;
	client_resp_free(&r);
	return 0;
}
