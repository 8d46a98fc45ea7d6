// SPDX-License-Identifier: MIT
/*
 * Tracks over HTTP; see api_tracks.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "daemon/http/api.h"
#include "daemon/http/api_tracks.h"
#include "daemon/http/api_trust.h"
#include "daemon/http/state.h"
#include "daemon/lab/githook.h"
#include "daemon/lab/validate.h"
#include "daemon/lab/tracks.h"

/* {"commits": N} or {"seconds": S} into the spec; 0 or -1 (answered). */
static int parse_every(json_t *ev, struct track_spec *s, struct http_resp *resp)
{
	json_t *c = json_object_get(ev, "commits"), *sec = json_object_get(ev, "seconds");

	s->every_commits = 1;
	s->every_seconds = 0;
	if (!ev)
		return 0;
	if (!json_is_object(ev) || json_object_size(ev) != 1 || (!c && !sec))
		return http_error(resp, 400, "'every' must be {\"commits\": N}"
				  " or {\"seconds\": S}"), -1;
	if (c && (!json_is_integer(c) || json_integer_value(c) < 1 ||
		  json_integer_value(c) > 10000))
		return http_error(resp, 400, "every.commits must be in [1, 10000]"), -1;
	if (sec && (!json_is_integer(sec) || json_integer_value(sec) < 60 ||
		    json_integer_value(sec) > 86400 * 30))
		return http_error(resp, 400, "every.seconds must be in [60, 2592000]"), -1;
	if (c)
		s->every_commits = (int)json_integer_value(c);
	else
		s->every_seconds = (int)json_integer_value(sec);
	return 0;
}

/* Change-point options: {"min_size": 2..50, "max_p": (0, 0.2]}. */
static int parse_detect(json_t *d, struct track_spec *s, struct http_resp *resp)
{
	json_t *m = json_object_get(d, "min_size"), *p = json_object_get(d, "max_p");

	if (!d)
		return 0;
	if (!json_is_object(d))
		return http_error(resp, 400, "'detect' must be an object"), -1;
	if (m && (!json_is_integer(m) || json_integer_value(m) < 2 ||
		  json_integer_value(m) > 50))
		return http_error(resp, 400, "detect.min_size must be in [2, 50]"), -1;
	if (p && (!json_is_number(p) || json_number_value(p) <= 0 ||
		  json_number_value(p) > 0.2))
		return http_error(resp, 400, "detect.max_p must be in (0, 0.2]"), -1;
	s->min_size = m ? (int)json_integer_value(m) : 0;
	s->max_p = p ? json_number_value(p) : 0;
	return 0;
}

int api_tracks_post(struct http_req *req, struct http_resp *resp)
{
	static const char *const keys[] = { "base", "ref", "label", "backend",
		"host_label", "bench", "runs", "every", "detect", NULL };
	struct track_spec s = { 0 };
	char *bench = NULL;
	struct trust_who who;
	json_t *body;
	struct lab_err e;
	int64_t id;
	int ret = 0;

	body = http_json_body_keys(req, resp, keys);
	if (!body)
		return 0;
	if (api_opt_string(body, "base", 64, &s.base, resp) ||
	    api_opt_string(body, "ref", 256, &s.ref, resp) ||
	    api_opt_string(body, "label", 64, &s.label, resp) ||
	    api_opt_string(body, "backend", 32, &s.backend, resp) ||
	    api_opt_string(body, "host_label", 64, &s.host_label, resp) ||
	    parse_every(json_object_get(body, "every"), &s, resp) ||
	    parse_detect(json_object_get(body, "detect"), &s, resp) ||
	    api_opt_int(body, "runs", 3, 1, 100, &s.runs, resp))
		goto out;
	if (!s.base || !s.label || !lab_valid_name(s.label) ||
	    (s.backend && !lab_valid_name(s.backend)) ||
	    (s.host_label && !lab_valid_name(s.host_label))) {
		ret = http_error(resp, 400, "'base' and 'label' are required; label,"
				 " backend and host_label are names of [A-Za-z0-9._+-]");
		goto out;
	}
	ret = api_bench(body, &bench, resp);
	if (ret != 1)
		goto out;
	/* A backend no runner runs would queue work nobody claims; checked
	 * before any git work. */
	api_trust_who(req, &who);
	if (trust_precheck(req->db, &who, s.backend, s.runs, &e)) {
		ret = http_lab_error(resp, &e);
		goto out;
	}
	s.bench_json = bench;
	s.key_id = req->auth.key_id;
	if (tracks_create(req->db, &s, &id, &e)) {
		ret = http_lab_error(resp, &e);
		goto out;
	}
	ret = api_queued(req, resp, "tracks", id, tracks_json(req->db, id));
out:
	free(bench);
	json_decref(body);
	return ret;
}

int api_tracks_list(struct http_req *req, struct http_resp *resp)
{
	return api_list(resp, "tracks", tracks_list_json(req->db));
}

int api_track_get(struct http_req *req, struct http_resp *resp)
{
	int64_t id = http_param_id(req, "id"), before, next;
	int limit;
	json_t *o;

	if (api_page_args(req, resp, TRACK_POINTS_PAGE, TRACK_POINTS_MAX, &limit,
			  &before))
		return 0;
	o = id < 0 ? NULL : tracks_page_json(req->db, id, limit, before, &next);
	return o ? http_json(resp, 200, o) : http_error(resp, 404, "no such track");
}

int api_track_poll(struct http_req *req, struct http_resp *resp)
{
	int64_t id = http_param_id(req, "id");
	struct lab_err e;
	int q, rc;

	if (id < 0)
		return http_error(resp, 404, "no such track");
	rc = tracks_poll(req->db, id, time(NULL), &q, &e);
	if (rc > 0)	/* the fetch goes on; the poll follows it */
		return http_json(resp, 202, json_pack("{s:I,s:i,s:b,s:s,s:o}",
			"id", (json_int_t)id, "queued", 0, "fetching", 1,
			"message", e.msg, "track", tracks_json(req->db, id)));
	if (rc)
		return http_lab_error(resp, &e);
	if (q)
		server_queue_kick(req->srv);
	return http_json(resp, 200, json_pack("{s:I,s:i,s:o}", "id", (json_int_t)id,
		"queued", q, "track", tracks_json(req->db, id)));
}

int api_hooks_git(struct http_req *req, struct http_resp *resp)
{
	const char *sig = http_header(req, "X-Hub-Signature-256");
	const char *token = http_header(req, "X-Gitlab-Token");
	const char *event = http_header(req, "X-GitHub-Event");
	struct githook_push p;
	struct lab_err e;
	int n, q, rc;

	if (!sig)
		sig = http_header(req, "X-Perflab-Signature");
	/* without a key, only a body signed with the base's secret */
	if (!(req->auth.role & ROLE_ADMIN) && !sig && !token)
		return http_error(resp, 401, "an admin key, or a body signed"
				  " with the base's hook_secret"
				  " (X-Hub-Signature-256: sha256=<HMAC-SHA256>,"
				  " or X-Gitlab-Token)");
	if (githook_parse(req->body, req->body_len, http_query(req, "base"),
			  &p, &e))
		return http_lab_error(resp, &e);
	if (!(req->auth.role & ROLE_ADMIN) &&
	    githook_verify(req->db, p.base, req->body, req->body_len, sig,
			   token, &e))
		return http_lab_error(resp, &e);
	if (p.ignored || (event && strcmp(event, "push")))
		return http_json(resp, 200, json_pack("{s:i,s:i,s:b,s:b}",
			"tracks", 0, "queued", 0, "fetching", 0, "ignored", 1));
	rc = tracks_poll_base(req->db, p.base, p.ref[0] ? p.ref : NULL,
			      time(NULL), &n, &q, &e);
	if (rc < 0)
		return http_lab_error(resp, &e);
	if (q)
		server_queue_kick(req->srv);
	/* 202: the fetch goes on in the background, the polls follow it. */
	return http_json(resp, rc ? 202 : 200, json_pack("{s:i,s:i,s:b}",
			 "tracks", n, "queued", q, "fetching", rc > 0));
}
