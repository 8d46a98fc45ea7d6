// SPDX-License-Identifier: MIT
/*
 * sse_client: event-stream parser and a libcurl waiter; see sse_client.h.
 */
#include "sse_client.h"

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sse_parser_init(struct sse_parser *p)
{
	memset(p, 0, sizeof(*p));
	strcpy(p->cur.type, "message");
}

static void field(struct sse_parser *p, const char *name, const char *value)
{
	struct sse_event *e = &p->cur;
	size_t have, add;
	char *end;

	if (!strcmp(name, "event")) {
		snprintf(e->type, sizeof(e->type), "%s", value);
	} else if (!strcmp(name, "data")) {
		have = strlen(e->data);
		if (p->has_data && have + 1 < sizeof(e->data))
			e->data[have++] = '\n';
		add = strlen(value);
		if (add > sizeof(e->data) - 1 - have)
			add = sizeof(e->data) - 1 - have;
		memcpy(e->data + have, value, add);
		e->data[have + add] = '\0';
		p->has_data = true;
	} else if (!strcmp(name, "id") && *value) {
		unsigned long long id = strtoull(value, &end, 10);

		if (!*end)
			e->id = id;
	}
}

/* One complete line; returns @fn's verdict when it dispatched an event. */
static int line(struct sse_parser *p, sse_event_fn fn, void *arg)
{
	char *colon, *value;
	int ret = 0;

	if (p->overlong)
		goto out;
	p->line[p->len] = '\0';
	if (!p->len) {
		if (p->has_data)
			ret = fn(arg, &p->cur);
		p->cur.data[0] = '\0';
		strcpy(p->cur.type, "message");
		p->has_data = false;
		goto out;
	}
	if (p->line[0] == ':')
		goto out;
	colon = strchr(p->line, ':');
	value = "";
	if (colon) {
		*colon = '\0';
		value = colon + 1;
		if (*value == ' ')
			value++;
	}
	field(p, p->line, value);
out:
	p->len = 0;
	p->overlong = false;
	return ret;
}

int sse_parse(struct sse_parser *p, const char *buf, size_t n, sse_event_fn fn,
	      void *arg)
{
	int ret;

	for (size_t i = 0; i < n; i++) {
		char c = buf[i];

		if (c == '\n' && p->cr) {
			p->cr = false;
			continue;
		}
		p->cr = c == '\r';
		if (c == '\n' || c == '\r') {
			ret = line(p, fn, arg);
			if (ret)
				return ret;
			continue;
		}
		if (p->len + 1 >= sizeof(p->line))
			p->overlong = true;
		else
			p->line[p->len++] = c;
	}
	return 0;
}

struct waiter {
	CURL *curl;
	struct sse_parser parser;
	struct sse_event *ev;
	bool got;
	long status;
};

static int keep_newest(void *arg, const struct sse_event *ev)
{
	struct waiter *w = arg;

	*w->ev = *ev;
	w->got = true;
	return 0;
}

/* Parses what arrived; stops the transfer after a batch with an event. */
static size_t on_bytes(char *ptr, size_t size, size_t nmemb, void *arg)
{
	struct waiter *w = arg;

	if (!w->status)
		curl_easy_getinfo(w->curl, CURLINFO_RESPONSE_CODE, &w->status);
	if (w->status != 200)
		return 0;
	sse_parse(&w->parser, ptr, size * nmemb, keep_newest, w);
	return w->got ? 0 : size * nmemb;
}

int sse_wait(const char *url, const char *key, long timeout_s,
	     struct sse_event *ev, char *err, size_t errlen)
{
	struct waiter w = { .ev = ev };
	struct curl_slist *h = NULL, *t;
	char auth[1024];
	CURLcode rc;

	sse_parser_init(&w.parser);
	w.curl = curl_easy_init();
	if (!w.curl) {
		snprintf(err, errlen, "curl init failed");
		return SSE_ERROR;
	}
	if (key) {
		snprintf(auth, sizeof(auth), "Authorization: Bearer %s", key);
		h = curl_slist_append(h, auth);
	}
	t = curl_slist_append(h, "Accept: text/event-stream");
	h = t ? t : h;
	curl_easy_setopt(w.curl, CURLOPT_URL, url);
	curl_easy_setopt(w.curl, CURLOPT_HTTPHEADER, h);
	curl_easy_setopt(w.curl, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(w.curl, CURLOPT_TIMEOUT, timeout_s);
	curl_easy_setopt(w.curl, CURLOPT_CONNECTTIMEOUT, 10L);
	curl_easy_setopt(w.curl, CURLOPT_WRITEFUNCTION, on_bytes);
	curl_easy_setopt(w.curl, CURLOPT_WRITEDATA, &w);
	rc = curl_easy_perform(w.curl);
	if (!w.status)
		curl_easy_getinfo(w.curl, CURLINFO_RESPONSE_CODE, &w.status);
	curl_slist_free_all(h);
	curl_easy_cleanup(w.curl);
	if (w.got)
		return SSE_EVENT;
	if (rc == CURLE_OPERATION_TIMEDOUT && w.status == 200)
		return SSE_TIMEOUT;
	if (w.status && w.status != 200)
		snprintf(err, errlen, "%s: HTTP %ld", url, w.status);
	else
		snprintf(err, errlen, "%s: %s", url,
			 rc == CURLE_OK ? "the event stream ended" :
					  curl_easy_strerror(rc));
	return SSE_ERROR;
}
