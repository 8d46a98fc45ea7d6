// SPDX-License-Identifier: MIT
/*
 * http_client: small libcurl wrapper.
 */
#include "http_client.h"

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sink {
	char *buf;
	size_t len, cap, max;
	int overflow;
};

static size_t on_data(char *ptr, size_t size, size_t nmemb, void *arg)
{
	struct sink *s = arg;
	size_t n = size * nmemb;

	if (s->len + n > s->max) {
		s->overflow = 1;
		return 0;
	}
	if (s->len + n + 1 > s->cap) {
		size_t cap = (s->len + n + 1) * 2;
		char *nb = realloc(s->buf, cap);

		if (!nb)
			return 0;
		s->buf = nb;
		s->cap = cap;
	}
	memcpy(s->buf + s->len, ptr, n);
	s->len += n;
	s->buf[s->len] = 0;
	return n;
}

int http_client_global_init(void)
{
	return curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK ? 0 : -1;
}

static struct curl_slist *headers(const struct http_request *req)
{
	struct curl_slist *h = NULL, *t;
	char line[1024];

	if (req->key) {
		snprintf(line, sizeof(line), "Authorization: %s %s",
			 req->auth_scheme ? req->auth_scheme : "Bearer",
			 req->key);
		h = curl_slist_append(h, line);
	}
	if (req->body) {
		snprintf(line, sizeof(line), "Content-Type: %s",
			 req->content_type ? req->content_type :
			 "application/json");
		t = curl_slist_append(h, line);
		h = t ? t : h;
	}
	t = curl_slist_append(h, "Expect:");
	return t ? t : h;
}

int http_do(const struct http_request *req, struct http_response *resp)
{
	struct sink s = { .max = req->max_response ? req->max_response :
				 64u << 20 };
	struct curl_slist *h;
	CURLcode rc;
	CURL *c;

	memset(resp, 0, sizeof(*resp));
	c = curl_easy_init();
	if (!c) {
		snprintf(resp->error, sizeof(resp->error), "curl init failed");
		resp->body = strdup("");
		return -1;
	}
	h = headers(req);
	curl_easy_setopt(c, CURLOPT_URL, req->url);
	curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, req->method);
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_TIMEOUT, req->timeout_s > 0 ?
			 req->timeout_s : 60L);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 10L);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, &s);
	if (req->body) {
		curl_easy_setopt(c, CURLOPT_POSTFIELDS, req->body);
		curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE,
				 (curl_off_t)(req->body_len ? req->body_len :
					      strlen(req->body)));
	}
	rc = curl_easy_perform(c);
	if (rc == CURLE_OK)
		curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &resp->status);
	else
		snprintf(resp->error, sizeof(resp->error), "%s%s",
			 curl_easy_strerror(rc), s.overflow ?
			 " (response too large)" : "");
	curl_slist_free_all(h);
	curl_easy_cleanup(c);
	resp->body = s.buf ? s.buf : strdup("");
	resp->len = s.len;
	return rc == CURLE_OK ? 0 : -1;
}

void http_response_free(struct http_response *resp)
{
	free(resp->body);
	resp->body = NULL;
	resp->len = 0;
}
