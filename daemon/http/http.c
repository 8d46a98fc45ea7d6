// SPDX-License-Identifier: MIT
/*
 * Handler-side helpers: parameters, query, JSON body, replies.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <microhttpd.h>

#include "daemon/http/http.h"

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

int json_check_keys(json_t *o, const char *const *allowed, const char **bad)
{
	const char *k;
	json_t *v;
	int i;

	json_object_foreach(o, k, v) {
		for (i = 0; allowed[i]; i++)
			if (!strcmp(allowed[i], k))
				break;
		if (!allowed[i]) {
			*bad = k;
			return -1;
		}
	}
	return 0;
}

/* Length of the valid UTF-8 sequence at @s (at most @n bytes), or 0. */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
	size_t len, i;
	unsigned cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return len;
}

json_t *json_string_lossy(const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, o = 0, k;
	json_t *j;
	char *b;

	if (!s)
		return json_string("");
	while (i < len && (k = utf8_seq(u + i, len - i)) && u[i])
		i += k;
	if (i == len)
		return json_stringn(s, len);
	b = malloc(len * 3 + 1);
	if (!b)
		return NULL;
	for (i = 0; i < len;) {
		k = u[i] ? utf8_seq(u + i, len - i) : 0;
		if (k) {
			memcpy(b + o, s + i, k);
			o += k;
			i += k;
		} else {
			memcpy(b + o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
		}
	}
	j = json_stringn(b, o);
	free(b);
	return j;
}

json_t *json_col(sqlite3_stmt *st, int i)
{
	switch (sqlite3_column_type(st, i)) {
	case SQLITE_NULL:
		return json_null();
	case SQLITE_INTEGER:
		return json_integer(sqlite3_column_int64(st, i));
	case SQLITE_FLOAT:
		return json_real(sqlite3_column_double(st, i));
	default:
		return json_string_lossy((const char *)sqlite3_column_blob(st, i),
					 (size_t)sqlite3_column_bytes(st, i));
	}
}

json_t *json_row(sqlite3_stmt *st)
{
	json_t *o = json_object();
	int i, n = sqlite3_column_count(st);

	if (!o)
		return NULL;
	for (i = 0; i < n; i++) {
		const char *name = sqlite3_column_name(st, i);
		const char *dot = strchr(name, '.');
		size_t len = strlen(name);
		json_t *dst = o, *v;
		char key[128];

		if (dot && (size_t)(dot - name) < sizeof(key)) {
			memcpy(key, name, dot - name);
			key[dot - name] = '\0';
			dst = json_object_get(o, key);
			if (!dst) {
				dst = json_object();
				json_object_set_new(o, key, dst);
			}
			name = dot + 1;
			len = strlen(name);
		}
		if (len > 5 && len < sizeof(key) && !strcmp(name + len - 5, "_json")) {
			const char *txt = (const char *)sqlite3_column_text(st, i);

			v = txt ? json_loads(txt, JSON_DECODE_ANY, NULL) : NULL;
			if (!v)
				v = json_null();
			memcpy(key, name, len - 5);
			key[len - 5] = '\0';
			json_object_set_new(dst, key, v);
			continue;
		}
		json_object_set_new(dst, name, json_col(st, i));
	}
	return o;
}

json_t *json_rows(sqlite3_stmt *st)
{
	json_t *a = json_array();

	while (a && sqlite3_step(st) == SQLITE_ROW)
		json_array_append_new(a, json_row(st));
	return a;
}
