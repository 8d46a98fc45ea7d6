// SPDX-License-Identifier: MIT
/*
 * GET /api/v1/experiments/{id}/perf-diff and .../flamegraph.svg: parse
 * the query, load the profiles (lab/profiles.h), diff them
 * (analysis/perfdiff.h) or draw the flame graph, and answer.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/http/api_perfdiff.h"
#include "daemon/lab/profiles.h"
#include "daemon/analysis/flamegraph.h"
#include "daemon/analysis/perfdiff.h"

#define MAX_LIMIT 1000000

/* A client error was answered: 1, or -1 when the reply failed. */
static int replied(int rc)
{
	return rc < 0 ? -1 : 1;
}

static int parse_num(const char *s, long lo, long hi, long *v)
{
	char *end;

	errno = 0;
	*v = strtol(s, &end, 10);
	return errno || end == s || *end || *v < lo || *v > hi ? -1 : 0;
}

struct query {
	struct perfdiff_opts o;
	const struct perfdiff_kind *kind; /* NULL: the lab picks */
	bool text;
};

/* Query options; replies 400 and returns 1 on a bad one. */
static int parse_query(struct http_req *req, struct http_resp *resp,
		       struct query *q)
{
	const char *k = http_query(req, "kind"),
		   *c = http_query(req, "compute");
	const char *s = http_query(req, "sort"),
		   *lim = http_query(req, "limit");
	const char *ord = http_query(req, "order"),
		   *fmt = http_query(req, "format");
	char names[128];
	long v;

	perfdiff_default_opts(&q->o);
	if (c && perfdiff_parse_compute(c, &q->o))
		return replied(http_error(
			resp, 400,
			"compute: expected delta, delta-abs, ratio or wdiff:W1,W2 (non-zero integers)"));
	if (s && perfdiff_parse_sort(s, &q->o.sort))
		return replied(http_error(
			resp, 400,
			"sort: expected baseline, new, delta, delta-abs, ratio, wdiff, stddev, samples, dso or symbol"));
	if (lim && parse_num(lim, 0, MAX_LIMIT, &v))
		return replied(http_error(
			resp, 400, "limit: expected 0 (all) to %d", MAX_LIMIT));
	q->o.limit = lim ? (size_t)v : 0;
	if (ord && parse_num(ord, 1, PROFILES_MAX_SIDES - 1, &v))
		return replied(http_error(
			resp, 400,
			"order: expected the index of a compared variant (1..)"));
	q->o.sort_idx = ord ? (int)v : 1;
	q->kind = k ? profiles_kind(k) : NULL;
	if (k && !q->kind) {
		profiles_kind_names(names, sizeof(names));
		return replied(
			http_error(resp, 400, "kind: expected %s", names));
	}
	if (fmt && strcmp(fmt, "json") && strcmp(fmt, "text"))
		return replied(
			http_error(resp, 400, "format: expected json or text"));
	q->text = fmt && !strcmp(fmt, "text");
	return 0;
}

static int reply(struct http_req *req, struct http_resp *resp,
		 const struct perfdiff_result *r, const struct profiles_diff *d,
		 bool text)
{
	size_t len;
	char *buf;
	json_t *j;

	if (text) {
		buf = perfdiff_text(r, &len);
		return buf ? http_take(resp, 200, "text/plain; charset=utf-8",
				       buf, len) :
			     -1;
	}
	j = perfdiff_json(r);
	if (!j)
		return -1;
	json_object_set_new(j, "experiment_id",
			    json_integer(http_param_id(req, "id")));
	/* whether ?kind=samples has anything to show (qemu-icount: no) */
	json_object_set_new(j, "sampled_runs", json_integer(d->sampled_runs));
	return http_json(resp, 200, j);
}

int api_perfdiff_get(struct http_req *req, struct http_resp *resp)
{
	struct profiles_diff d;
	struct perfdiff_result *r;
	struct lab_err e;
	struct query q;
	int rc;

	rc = parse_query(req, resp, &q);
	if (rc)
		return rc < 0 ? -1 : 0;
	r = profiles_perfdiff(req->db, http_param_id(req, "id"),
			      http_query(req, "variant"), q.kind, &q.o, &d, &e);
	rc = r ? reply(req, resp, r, &d, q.text) : http_lab_error(resp, &e);
	perfdiff_free(r);
	profiles_diff_free(&d);
	return rc < 0 ? -1 : 0;
}

int api_flamegraph_get(struct http_req *req, struct http_resp *resp)
{
	int64_t id = http_param_id(req, "id");
	char title[256], sub[512];
	struct profiles_stacks s;
	struct lab_err e;
	struct fg_opts o;
	size_t len;
	char *svg;
	int rc;

	if (profiles_stacks(req->db, id, http_query(req, "variant"), &s, &e)) {
		rc = http_lab_error(resp, &e);
		goto out;
	}
	flamegraph_default_opts(&o);
	snprintf(title, sizeof(title), "Differential Flame Graph: %s vs %s",
		 s.new_name, s.base_name);
	snprintf(
		sub, sizeof(sub),
		"experiment %lld; width = %s samples; red = more, blue = less than %s (scaled to the same total)",
		(long long)id, s.new_name, s.base_name);
	o.title = title;
	o.subtitle = sub;
	svg = flamegraph_diff_svg(s.base, s.nr_base, s.new, s.nr_new, &o, &len);
	rc = svg ? http_take(resp, 200, "image/svg+xml", svg, len) : -1;
out:
	profiles_stacks_free(&s);
	return rc < 0 ? -1 : 0;
}
