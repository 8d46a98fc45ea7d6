// SPDX-License-Identifier: MIT
/*
 * proto: runner protocol client.
 */
#include "runners/runner/proto.h"
#include "http_client.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

json_t *proto_text(const char *s)
{
	char *c = strdup(s ? s : "");
	json_t *j;

	if (!c)
		return json_string("");
	for (unsigned char *p = (unsigned char *)c; *p; p++)
		if ((*p < 0x20 && *p != '\n' && *p != '\t') || *p > 0x7e)
			*p = '?';
	j = json_string(c);
	free(c);
	return j;
}

long proto_post(const struct proto *p, const char *path, json_t *body,
		json_t **answer, char *err, size_t errlen)
{
	struct http_response resp;
	struct http_request req = { .method = "POST", .key = p->key,
				    .timeout_s = 90 };
	char url[2048];
	char *text = NULL;
	long status;

	if (answer)
		*answer = NULL;
	snprintf(url, sizeof(url), "%s%s", p->server, path);
	req.url = url;
	text = body ? json_dumps(body, JSON_COMPACT) : NULL;
	json_decref(body);
	req.body = text ? text : "{}";
	if (http_do(&req, &resp)) {
		snprintf(err, errlen, "%s: %s", url, resp.error);
		free(text);
		http_response_free(&resp);
		return -1;
	}
	status = resp.status;
	if (answer && resp.len)
		*answer = json_loads(resp.body, 0, NULL);
	if (status >= 300) {
		json_t *e = json_loads(resp.body, 0, NULL);
		const char *m = json_string_value(json_object_get(e, "error"));

		snprintf(err, errlen, "%s: HTTP %ld: %s", path, status,
			 m ? m : resp.body);
		json_decref(e);
	}
	free(text);
	http_response_free(&resp);
	return status;
}

int proto_register(const struct proto *p, const char *backend,
		   const char *const *labels, int nlabels, json_t *facts,
		   char *err, size_t errlen)
{
	json_t *body = json_object(), *ls = json_array();
	long st;

	for (int i = 0; i < nlabels; i++)
		json_array_append_new(ls, json_string(labels[i]));
	json_object_set_new(body, "name", json_string(p->name));
	json_object_set_new(body, "labels", ls);
	json_object_set_new(body, "backend", json_string(backend));
	json_object_set(body, "facts", facts);
	if (p->role)
		json_object_set_new(body, "role", json_string(p->role));
	if (p->configs)
		json_object_set(body, "configs", p->configs);
	st = proto_post(p, "/api/v1/hosts/register", body, NULL, err, errlen);
	return st >= 200 && st < 300 ? PROTO_OK : PROTO_ERR;
}

int proto_claim(const struct proto *p, int wait, char **job, char *err,
		size_t errlen)
{
	json_t *body = json_object(), *ans = NULL;
	long st;

	*job = NULL;
	json_object_set_new(body, "host", json_string(p->name));
	json_object_set_new(body, "wait", json_integer(wait));
	st = proto_post(p, "/api/v1/jobs/claim", body, &ans, err, errlen);
	if (st == 204) {
		json_decref(ans);
		return PROTO_NONE;
	}
	if (st == 200 && ans) {
		*job = json_dumps(ans, JSON_COMPACT);
		json_decref(ans);
		return *job ? PROTO_OK : PROTO_ERR;
	}
	if (st == 200)
		snprintf(err, errlen, "claim: answer is not JSON");
	json_decref(ans);
	return PROTO_ERR;
}

static int kind_post(const struct proto *p, const char *kind, long long job,
		     const char *what, json_t *body, char *err, size_t errlen)
{
	char path[128];
	long st;

	snprintf(path, sizeof(path), "/api/v1/%s/%lld/%s", kind, job, what);
	st = proto_post(p, path, body, NULL, err, errlen);
	if (st >= 200 && st < 300)
		return PROTO_OK;
	if (st == 409)
		return PROTO_LOST;
	if (st >= 400 && st < 500 && st != 408 && st != 429)
		return PROTO_REFUSED;
	return PROTO_ERR;
}

static int job_post(const struct proto *p, long long job, const char *what,
		    json_t *body, char *err, size_t errlen)
{
	return kind_post(p, "jobs", job, what, body, err, errlen);
}

int proto_heartbeat(const struct proto *p, long long job, const char *lease,
		    const char *phase, const char *message, char *err,
		    size_t errlen)
{
	json_t *body = json_object();
	int ret;

	json_object_set_new(body, "lease", json_string(lease));
	json_object_set_new(body, "phase", json_string(phase));
	json_object_set_new(body, "message", json_string(message ? message :
							 ""));
	ret = job_post(p, job, "heartbeat", body, err, errlen);

	/* A refused beat is retried like a failed one: the lease decides. */
	return ret == PROTO_REFUSED ? PROTO_ERR : ret;
}

/* Retry with backoff until the server answers 2xx, 409 or a final 4xx. */
static int post_acked(const struct proto *p, long long job, const char *what,
		      json_t *body, char *err, size_t errlen)
{
	int delay = 1, ret;

	for (int tries = 0;; tries++) {
		ret = job_post(p, job, what, json_incref(body), err, errlen);
		if (ret != PROTO_ERR)
			break;
		fprintf(stderr, "perflab-runner: %s job %lld: %s (retry in "
			"%ds)\n", what, job, err, delay);
		if (p->stop && *p->stop && tries >= 2)
			break;
		sleep(delay);
		delay = delay < 30 ? delay * 2 : 30;
	}
	json_decref(body);
	if (ret == PROTO_LOST || ret == PROTO_REFUSED)
		fprintf(stderr, "perflab-runner: %s job %lld: %s; %s\n", what,
			job, err, ret == PROTO_LOST ? "dropping the job" :
			"refused, not retried");
	return ret;
}

int proto_result(const struct proto *p, long long job, json_t *body,
		 char *err, size_t errlen)
{
	return post_acked(p, job, "result", body, err, errlen);
}

int proto_fail(const struct proto *p, long long job, const char *lease,
	       const char *reason, const char *log)
{
	json_t *body = json_object();
	char err[512];

	json_object_set_new(body, "lease", json_string(lease));
	json_object_set_new(body, "reason", json_string(reason));
	json_object_set_new(body, "log", proto_text(log));
	return post_acked(p, job, "fail", body, err, sizeof(err));
}

int proto_build_heartbeat(const struct proto *p, long long id, const char *lease,
			  const char *phase, const char *message, char *err,
			  size_t errlen)
{
	json_t *body = json_pack("{s:s,s:s,s:s}", "lease", lease, "phase", phase,
				 "message", message ? message : "");
	int ret = kind_post(p, "builds", id, "heartbeat", body, err, errlen);

	return ret == PROTO_REFUSED ? PROTO_ERR : ret;
}

int proto_build_fail(const struct proto *p, long long id, const char *lease,
		     const char *reason, const char *log)
{
	json_t *body = json_object();
	char err[512];
	int delay = 1, ret;

	json_object_set_new(body, "lease", json_string(lease));
	json_object_set_new(body, "reason", json_string(reason));
	json_object_set_new(body, "log", proto_text(log));
	for (int tries = 0; tries < 5; tries++) {
		ret = kind_post(p, "builds", id, "fail", json_incref(body), err,
				sizeof(err));
		if (ret != PROTO_ERR)
			break;
		sleep(delay);
		delay *= 2;
	}
	json_decref(body);
	return ret;
}
