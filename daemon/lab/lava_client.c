// SPDX-License-Identifier: MIT
/*
 * lava_client: LAVA's REST API v0.2 as an external scheduler (extsched.h).
 *
 *   POST /api/v0.2/jobs/            {"definition": TEXT} -> 201 {"job_ids": [N]}
 *   GET  /api/v0.2/jobs/N/          {"state", "health", "failure_comment", ...}
 *   GET  /api/v0.2/jobs/N/logs/     the job log (lava_log.h)
 *   GET  /api/v0.2/jobs/N/cancel/   cancel
 *
 * with "Authorization: Token T", T read from the lab's token file at each
 * call (rotating it needs no restart). The token is never put in an error
 * text: LAVA's answer is quoted, our request is not.
 */
#include "daemon/lab/extsched.h"
#include "daemon/lab/lava.h"
#include "daemon/lab/lava_log.h"
#include "common/http_client.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TOKEN_MAX 256

static int read_token(const struct lava_lab *lab, char tok[TOKEN_MAX + 1],
		      char *err, size_t errlen)
{
	FILE *f = fopen(lab->token_file, "re");
	size_t n;

	if (!f) {
		snprintf(err, errlen, "LAVA token file %s: %s", lab->token_file,
			 strerror(errno));
		return -1;
	}
	n = fread(tok, 1, TOKEN_MAX, f);
	fclose(f);
	tok[n] = 0;
	while (n && isspace((unsigned char)tok[n - 1]))
		tok[--n] = 0;
	for (size_t i = 0; i < n; i++)
		if (!isgraph((unsigned char)tok[i])) {
			snprintf(err, errlen, "LAVA token file %s: not one"
				 " token", lab->token_file);
			return -1;
		}
	if (!n) {
		snprintf(err, errlen, "LAVA token file %s is empty",
			 lab->token_file);
		return -1;
	}
	return 0;
}

static void api_url(const struct lava_lab *lab, char *out, size_t len,
		    const char *fmt, long long id)
{
	size_t n = strlen(lab->url);
	const char *slash = n && lab->url[n - 1] == '/' ? "" : "/";
	char path[128];

	snprintf(path, sizeof(path), fmt, id);
	snprintf(out, len, "%s%s%s", lab->url, slash, path);
}

/* One call; the answer in @resp. 0, or -1 with err (transport). */
static int call(const struct lava_lab *lab, const char *method, const char *url,
		const char *body, long timeout, size_t max,
		struct http_response *resp, char *err, size_t errlen)
{
	char tok[TOKEN_MAX + 1];
	struct http_request rq = { .method = method, .url = url, .key = tok,
				   .auth_scheme = "Token", .body = body,
				   .timeout_s = timeout, .max_response = max };
	int rc;

	if (read_token(lab, tok, err, errlen))
		return -1;
	rc = http_do(&rq, resp);
	memset(tok, 0, sizeof(tok));
	if (rc) {
		snprintf(err, errlen, "LAVA %s: %s", lab->url, resp->error);
		return -1;
	}
	return 0;
}

/* LAVA's own words of a refusal, short and printable. */
static void answer_text(const struct http_response *r, char *out, size_t len)
{
	json_t *j = json_loadb(r->body, r->len, 0, NULL);
	const char *m = NULL;
	char *dump = NULL;
	size_t n = 0;

	if (j) {
		m = json_string_value(json_object_get(j, "message"));
		if (!m)
			m = json_string_value(json_object_get(j, "detail"));
		if (!m)
			m = dump = json_dumps(j, JSON_COMPACT);
	}
	if (!m)
		m = r->body;
	for (; m && *m && n + 1 < len; m++)
		out[n++] = (*m >= 0x20 && *m < 0x7f) ? *m : ' ';
	out[n] = 0;
	free(dump);
	json_decref(j);
}

static int lava_submit(const struct lava_lab *lab, const char *definition,
		       int64_t *id, int *retry, char *err, size_t errlen)
{
	struct http_response r = { 0 };
	char url[1200], txt[400];
	json_t *body = json_pack("{s:s}", "definition", definition), *a;
	char *text = body ? json_dumps(body, JSON_COMPACT) : NULL;
	int ret = -1;

	json_decref(body);
	*retry = 0;
	if (!text) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	api_url(lab, url, sizeof(url), "api/v0.2/jobs/", 0);
	if (call(lab, "POST", url, text, 60, 1u << 20, &r, err, errlen)) {
		*retry = 1;
		goto out;
	}
	if (r.status != 201) {
		answer_text(&r, txt, sizeof(txt));
		snprintf(err, errlen, "LAVA refused the job (HTTP %ld): %s",
			 r.status, txt);
		*retry = r.status >= 500 || r.status == 429 || r.status == 408;
		goto out;
	}
	body = json_loadb(r.body, r.len, 0, NULL);
	a = json_array_get(json_object_get(body, "job_ids"), 0);
	if (!json_is_integer(a) || json_integer_value(a) <= 0) {
		snprintf(err, errlen, "LAVA answered 201 without a job id");
	} else {
		*id = json_integer_value(a);
		ret = 0;
	}
	json_decref(body);
out:
	http_response_free(&r);
	free(text);
	return ret;
}

/* "2026-12-02T01:17:45.533851Z" -> UNIX seconds; 0. */
static double iso_time(const char *s)
{
	struct tm tm = { 0 };
	const char *rest;

	if (!s || !(rest = strptime(s, "%Y-%m-%dT%H:%M:%S", &tm)))
		return 0;
	return (double)timegm(&tm) + (*rest == '.' ? strtod(rest, NULL) : 0);
}

static void copy(char *dst, size_t len, const json_t *v)
{
	const char *s = json_string_value(v);

	snprintf(dst, len, "%s", s ? s : "");
}

static int lava_status(const struct lava_lab *lab, int64_t id,
		       struct extsched_job *j, char *err, size_t errlen)
{
	struct http_response r = { 0 };
	char url[1200], txt[400];
	json_t *o = NULL;
	int ret = -1;

	memset(j, 0, sizeof(*j));
	api_url(lab, url, sizeof(url), "api/v0.2/jobs/%lld/", (long long)id);
	if (call(lab, "GET", url, NULL, 30, 4u << 20, &r, err, errlen))
		goto out;
	if (r.status == 404) {
		/* Deleted in LAVA: it will never finish; say so as canceled. */
		snprintf(j->state, sizeof(j->state), "Gone");
		snprintf(j->health, sizeof(j->health), "Canceled");
		snprintf(j->failure_comment, sizeof(j->failure_comment),
			 "LAVA has no job %lld any more (deleted?)", (long long)id);
		j->finished = 1;
		ret = 0;
		goto out;
	}
	if (r.status != 200) {
		answer_text(&r, txt, sizeof(txt));
		snprintf(err, errlen, "LAVA job %lld: HTTP %ld: %s",
			 (long long)id, r.status, txt);
		goto out;
	}
	o = json_loadb(r.body, r.len, 0, NULL);
	if (!json_is_object(o)) {
		snprintf(err, errlen, "LAVA job %lld: not a JSON object",
			 (long long)id);
		goto out;
	}
	copy(j->state, sizeof(j->state), json_object_get(o, "state"));
	copy(j->health, sizeof(j->health), json_object_get(o, "health"));
	copy(j->failure_comment, sizeof(j->failure_comment),
	     json_object_get(o, "failure_comment"));
	j->finished = !strcmp(j->state, "Finished");
	j->start_time = iso_time(json_string_value(json_object_get(o, "start_time")));
	j->end_time = iso_time(json_string_value(json_object_get(o, "end_time")));
	ret = 0;
out:
	json_decref(o);
	http_response_free(&r);
	return ret;
}

static int lava_log_get(const struct lava_lab *lab, int64_t id, char **text,
			size_t *len, char *err, size_t errlen)
{
	struct http_response r = { 0 };
	char url[1200];

	api_url(lab, url, sizeof(url), "api/v0.2/jobs/%lld/logs/", (long long)id);
	if (call(lab, "GET", url, NULL, 120, LAVA_LOG_MAX_BYTES, &r, err, errlen))
		return -1;
	if (r.status != 200) {
		snprintf(err, errlen, "LAVA job %lld log: HTTP %ld",
			 (long long)id, r.status);
		http_response_free(&r);
		return -1;
	}
	*text = r.body;
	*len = r.len;
	return 0;
}

static int lava_cancel(const struct lava_lab *lab, int64_t id, char *err,
		       size_t errlen)
{
	struct http_response r = { 0 };
	char url[1200];
	int ret;

	api_url(lab, url, sizeof(url), "api/v0.2/jobs/%lld/cancel/", (long long)id);
	if (call(lab, "GET", url, NULL, 30, 1u << 20, &r, err, errlen))
		return -1;
	ret = r.status / 100 == 2 ? 0 : -1;
	if (ret)
		snprintf(err, errlen, "LAVA cancel %lld: HTTP %ld", (long long)id,
			 r.status);
	http_response_free(&r);
	return ret;
}

static char *lava_job_url(const struct lava_lab *lab, int64_t id)
{
	char url[1200];

	api_url(lab, url, sizeof(url), "scheduler/job/%lld", (long long)id);
	return strdup(url);
}

const struct extsched_ops extsched_lava = {
	.name = "lava",
	.submit = lava_submit,
	.status = lava_status,
	.log = lava_log_get,
	.cancel = lava_cancel,
	.job_url = lava_job_url,
};
