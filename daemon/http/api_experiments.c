// SPDX-License-Identifier: MIT
/*
 * Experiments: create with explicit variants, list, show, cancel; run
 * logs; bases.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/bench_params.h"
#include "daemon/http/api.h"
#include "daemon/http/api_trust.h"
#include "daemon/store/db.h"
#include "daemon/lab/bases.h"
#include "daemon/lab/patches.h"
#include "daemon/lab/planner.h"
#include "daemon/http/state.h"
#include "daemon/lab/toggle.h"
#include "daemon/lab/run_metrics.h"

#define MAX_VARIANTS 16
#define MAX_VARIANT_PATCHES 100

/* ---- POST /api/v1/experiments ---------------------------------------- */

struct variants_in {
	struct variant_spec v[MAX_VARIANTS];
	int64_t ids[MAX_VARIANTS][MAX_VARIANT_PATCHES];
	char *scripts[MAX_VARIANTS];	/* stored setup texts, heap */
	char *settings[MAX_VARIANTS];	/* toggle settings JSON, heap */
	char commits[MAX_VARIANTS][41];	/* git base: variant "commit"s */
	struct base_ref *base;
	int n_commits;			/* -1: answered with an error */
	int n;
};

static void variants_free(struct variants_in *vi)
{
	for (int i = 0; vi && i < MAX_VARIANTS; i++) {
		free(vi->scripts[i]);
		free(vi->settings[i]);
	}
	free(vi);
}

/* What this key may make the host do: cmdline and setup (trust.h). */
static int variant_trust(struct http_req *req, struct http_resp *resp,
			 json_t *v, size_t k, struct variants_in *vi)
{
	struct variant_spec *s = &vi->v[k];
	const char *script;
	struct trust_who who;
	char err[512];
	int rc;

	if (api_opt_string(v, "setup_script", 64, &script, resp))
		return -1;
	api_trust_who(req, &who);
	rc = trust_variant(req->db, &who, s, script, &vi->scripts[k], err,
			   sizeof(err));
	if (rc)
		http_error(resp, rc > 0 ? rc : 500, "variant '%s': %s", s->name,
			   rc > 0 ? err : "internal error");
	return rc ? -1 : 0;
}

/* A toggle variant's runtime settings (toggle.h); none without toggle. */
static int variant_settings(struct http_req *req, struct http_resp *resp,
			    json_t *v, size_t k, bool toggle,
			    struct variants_in *vi)
{
	json_t *set = json_object_get(v, "settings");
	struct trust_who who;
	char err[512];
	int rc;

	if (!toggle) {
		if (set)
			return http_error(resp, 400, "variant '%s': 'settings'"
					  " are for toggle experiments"
					  " (\"toggle\": true)", vi->v[k].name), -1;
		return 0;
	}
	api_trust_who(req, &who);
	rc = toggle_settings_check(req->db, &who, set, err, sizeof(err));
	if (rc)
		return http_error(resp, rc > 0 ? rc : 500, "variant '%s': %s",
				  vi->v[k].name, rc > 0 ? err : "internal error"), -1;
	vi->settings[k] = set ? json_dumps(set, JSON_COMPACT) : strdup("{}");
	if (!vi->settings[k])
		return -1;
	vi->v[k].settings = vi->settings[k];
	return 0;
}

static int parse_variant_patches(struct http_req *req, struct http_resp *resp,
				 json_t *pa, int64_t *ids, int *n)
{
	char err[512];
	json_t *p;
	size_t i;
	int k;

	*n = 0;
	if (!pa)
		return 0;
	if (!json_is_array(pa))
		return http_error(resp, 400, "variant 'patches' must be an array"), -1;
	json_array_foreach(pa, i, p) {
		if (json_is_integer(p)) {
			if (*n == MAX_VARIANT_PATCHES)
				return http_error(resp, 400, "too many patches in a variant"), -1;
			ids[*n] = json_integer_value(p);
			if (db_int(req->db, 0, "SELECT count(*) FROM patches WHERE id = ?",
				   1, (int64_t)ids[*n]) != 1)
				return http_error(resp, 422, "no stored patch with id %lld",
						  (long long)ids[*n]), -1;
			(*n)++;
		} else if (json_is_string(p)) {
			k = patches_store_text(req->db, json_string_value(p),
					       json_string_length(p), req->auth.key_id,
					       ids + *n, MAX_VARIANT_PATCHES - *n,
					       NULL, 0, err, sizeof(err));
			if (k < 0)
				return http_error(resp, 400, "variant patch %zu is not a usable patch: %s",
						  i, err), -1;
			*n += k;
		} else {
			return http_error(resp, 400, "variant patches must be patch ids or patch text"), -1;
		}
	}
	return 0;
}

/*
 * Variants' "commit": another commit of the experiment's git base (a
 * bisection step builds the good commit and the midpoint side by side).
 */
static int parse_variant_commits(struct http_resp *resp, json_t *va,
				 struct variants_in *vi)
{
	char err[512];
	json_t *v, *c;
	size_t k;
	int rc;

	json_array_foreach(va, k, v) {
		c = json_object_get(v, "commit");
		if (!c || k >= MAX_VARIANTS)
			continue;
		vi->n_commits = -1;
		if (!json_is_string(c) || json_string_length(c) > 64)
			return http_error(resp, 400, "variant %zu: 'commit' must be a"
					  " commit id", k), -1;
		if (!vi->base->git)
			return http_error(resp, 422, "variant %zu: 'commit' needs a"
					  " git base", k), -1;
		rc = bases_commit(vi->base, json_string_value(c), vi->commits[k],
				  err, sizeof(err));
		if (rc) {
			api_http_status(resp, rc);
			return http_error(resp, rc, "variant %zu: %s", k, err), -1;
		}
		vi->n_commits = (int)k + 1;
	}
	return 0;
}

/* @dry: the trust checks only, nothing stored (patch texts). */
static int parse_variants(struct http_req *req, struct http_resp *resp,
			  json_t *va, const char *control, bool toggle,
			  struct variants_in *vi, bool dry)
{
	static const char *const keys[] = { "name", "patches", "cmdline", "setup",
		"setup_script", "control", "settings", "commit", NULL };
	int i, j, ncontrol = 0;
	const char *badkey;
	json_t *v;
	size_t k;

	if (!json_is_array(va) || json_array_size(va) < 1 ||
	    json_array_size(va) > MAX_VARIANTS)
		return http_error(resp, 400, "'variants' must be an array of 1 to %d objects",
				  MAX_VARIANTS), -1;
	json_array_foreach(va, k, v) {
		struct variant_spec *s = &vi->v[k];
		json_t *c;

		if (!json_is_object(v))
			return http_error(resp, 400, "variant %zu is not an object", k), -1;
		if (json_check_keys(v, keys, &badkey))
			return http_error(resp, 400, "variant %zu: unknown field '%.64s'", k, badkey), -1;
		if (api_opt_string(v, "name", 64, &s->name, resp) ||
		    api_opt_string(v, "cmdline", 1024, &s->cmdline, resp) ||
		    api_opt_string(v, "setup", 65536, &s->setup, resp))
			return -1;
		if (!s->name || !lab_valid_name(s->name))
			return http_error(resp, 400, "variant %zu: 'name' is required: 1-64"
					  " characters of [A-Za-z0-9._+-]", k), -1;
		if (variant_trust(req, resp, v, k, vi) ||
		    variant_settings(req, resp, v, k, toggle, vi))
			return -1;
		c = json_object_get(v, "control");
		if (c && !json_is_boolean(c))
			return http_error(resp, 400, "variant %zu: 'control' must be a boolean", k), -1;
		s->is_control = control ? !strcmp(control, s->name) : json_is_true(c);
		ncontrol += s->is_control;
		if (!dry && parse_variant_patches(req, resp, json_object_get(v, "patches"),
						  vi->ids[k], &s->npatches))
			return -1;
		s->patch_ids = vi->ids[k];
		s->base_commit = vi->commits[k][0] ? vi->commits[k] : NULL;
		vi->n = (int)k + 1;
	}
	for (i = 0; i < vi->n; i++)
		for (j = i + 1; j < vi->n; j++)
			if (!strcmp(vi->v[i].name, vi->v[j].name))
				return http_error(resp, 400, "duplicate variant name '%s'",
						  vi->v[i].name), -1;
	if (control && ncontrol == 0)
		return http_error(resp, 400, "'control' names no variant"), -1;
	if (ncontrol > 1)
		return http_error(resp, 400, "only one variant may be the control"), -1;
	if (ncontrol == 0)
		vi->v[0].is_control = true;
	return 0;
}

static int int_field(json_t *o, const char *k, int def, int min, int max,
		     int *out, struct http_resp *resp)
{
	json_t *v = json_object_get(o, k);

	*out = def;
	if (!v)
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < min ||
	    json_integer_value(v) > max) {
		http_error(resp, 400, "field '%s' must be an integer in [%d, %d]", k, min, max);
		return -1;
	}
	*out = (int)json_integer_value(v);
	return 0;
}

static int created(struct http_req *req, struct http_resp *resp, int64_t exp,
		   int njobs)
{
	char url[64];
	json_t *o;

	api_experiment_queued(req, resp, exp);
	o = json_pack("{s:I,s:s,s:i}", "id", (json_int_t)exp, "url",
		      resp->location, "jobs", njobs);
	snprintf(url, sizeof(url), "/#/experiments/%lld", (long long)exp);
	json_object_set_new(o, "web_url", json_string(url));
	return http_json(resp, 201, o);
}

int api_experiments_post(struct http_req *req, struct http_resp *resp)
{
	static const char *const keys[] = { "title", "base", "label", "backend",
		"config", "runs", "max_runs", "bench", "variants", "control",
		"toggle", "runs_per_boot", NULL };
	const char *title, *base, *label, *backend, *config, *control;
	struct experiment_spec spec = { 0 };
	struct variants_in *vi = NULL;
	char err[512], *bench_s = NULL;
	json_t *body, *bench = NULL;
	int runs, max_runs, per_boot, ret = 0, rc;
	struct base_ref bref;
	int64_t exp;
	json_t *tog;
	bool toggle;

	body = http_json_body_keys(req, resp, keys);
	if (!body)
		return 0;
	if (api_opt_string(body, "title", 200, &title, resp) ||
	    api_opt_string(body, "base", 64, &base, resp) ||
	    api_opt_string(body, "label", 64, &label, resp) ||
	    api_opt_string(body, "backend", 32, &backend, resp) ||
	    api_opt_string(body, "config", 64, &config, resp) ||
	    api_opt_string(body, "control", 64, &control, resp) ||
	    int_field(body, "runs", 5, 1, 100, &runs, resp) ||
	    int_field(body, "max_runs", 0, 0, 500, &max_runs, resp) ||
	    int_field(body, "runs_per_boot", 0, 1, 500, &per_boot, resp))
		goto out;
	tog = json_object_get(body, "toggle");
	if (tog && !json_is_boolean(tog)) {
		ret = http_error(resp, 400, "'toggle' must be a boolean");
		goto out;
	}
	toggle = json_is_true(tog);
	if (per_boot && !toggle) {
		ret = http_error(resp, 400, "'runs_per_boot' is for toggle"
				 " experiments (\"toggle\": true)");
		goto out;
	}
	if ((label && !lab_valid_name(label)) || (backend && !lab_valid_name(backend)) ||
	    (config && *config && !lab_valid_name(config))) {
		ret = http_error(resp, 400, "label, backend and config must be names of [A-Za-z0-9._+-]");
		goto out;
	}
	if (max_runs && max_runs < runs) {
		ret = http_error(resp, 400, "max_runs must be at least runs");
		goto out;
	}
	if (!json_object_get(body, "variants")) {
		ret = http_error(resp, 400, "missing field 'variants'");
		goto out;
	}
	bench = bench_params_json(json_object_get(body, "bench"), err, sizeof(err));
	if (!bench) {
		ret = http_error(resp, 400, "%s", err);
		goto out;
	}
	bench_s = json_dumps(bench, JSON_COMPACT | JSON_SORT_KEYS);
	vi = calloc(1, sizeof(*vi));
	if (!vi || !bench_s) {
		ret = -1;
		goto out;
	}
	/* Trust and quota under the writer lock before any git work; the
	 * transaction below checks again. */
	server_write_take(req);
	rc = parse_variants(req, resp, json_object_get(body, "variants"), control,
			    toggle, vi, true) ||
	     api_trust_precheck(req, resp, backend,
				(int)json_array_size(json_object_get(body, "variants")) * runs);
	server_write_release(req);
	variants_free(vi);
	vi = NULL;
	if (rc)
		goto out;
	rc = bases_lookup(req->db, base ? base : "linux-6.1", &bref, err, sizeof(err));
	if (rc) {
		api_http_status(resp, rc);
		ret = rc == 500 ? -1 : http_error(resp, rc, "%s", err);
		goto out;
	}
	vi = calloc(1, sizeof(*vi));
	if (!vi) {
		ret = -1;
		goto out;
	}
	vi->base = &bref;
	/* Variant commits resolve (and may fetch) before the transaction. */
	if (parse_variant_commits(resp, json_object_get(body, "variants"), vi) ||
	    server_write_begin(req)) {
		ret = vi->n_commits < 0 ? 0 : -1;
		goto out;
	}
	if (parse_variants(req, resp, json_object_get(body, "variants"), control,
			   toggle, vi, false) ||
	    api_trust_request(req, resp, backend, vi->n * runs))
		goto out;
	if (toggle && (ret = toggle_variants_check(vi->v, vi->n, err, sizeof(err)))) {
		ret = http_error(resp, ret, "%s", err);
		goto out;
	}
	spec = (struct experiment_spec){
		.title = title ? title : "", .kind = "explicit", .label = label,
		.backend = backend, .config = config, .base_id = bref.id,
		.base_commit = bref.git ? bref.commit : NULL,
		.bench_json = bench_s, .runs = runs,
		.max_runs = max_runs ? max_runs : runs * 2,
		/* Toggle: by default all planned rounds in one boot. */
		.runs_per_boot = toggle ? (per_boot ? per_boot : runs) : 0,
		.submitter_key_id = req->auth.key_id, .variants = vi->v,
		.nvariants = vi->n,
	};
	exp = planner_create(req->db, &spec, err, sizeof(err));
	if (exp < 0 || db_commit(req->db)) {
		ret = -1;
		goto out;
	}
	ret = created(req, resp, exp, vi->n * runs);
out:
	db_rollback(req->db);
	variants_free(vi);
	free(bench_s);
	json_decref(bench);
	json_decref(body);
	return ret;
}

/* ---- GET ------------------------------------------------------------- */

static const char *const exp_states[] = { "queued", "running", "done", "failed",
	"cancelled", NULL };

int api_experiments_list(struct http_req *req, struct http_resp *resp)
{
	const char *state = http_query(req, "state");
	const char *lim = http_query(req, "limit");
	const char *before = http_query(req, "before");
	char *lend = NULL, *bend = NULL;
	long limit = lim ? strtol(lim, &lend, 10) : 100;
	long long bid = before ? strtoll(before, &bend, 10) : 0;
	uint64_t gen = db_pool_generation(&req->srv->pool);
	uint64_t h = 0xcbf29ce484222325ull;
	char key[128], *body;
	sqlite3_stmt *st;
	size_t len;
	json_t *a;
	int i;

	if (state) {
		for (i = 0; exp_states[i]; i++)
			if (!strcmp(exp_states[i], state))
				break;
		if (!exp_states[i])
			return http_error(resp, 400, "state must be one of queued, running,"
					  " done, failed, cancelled");
	}
	if (limit < 1 || limit > 1000 || (lend && (lend == lim || *lend)))
		return http_error(resp, 400, "limit must be in [1, 1000]");
	if (bend && (bend == before || *bend || bid < 1))
		return http_error(resp, 400, "before must be an experiment id");
	snprintf(key, sizeof(key), "%s|%ld|%lld", state ? state : "", limit, bid);
	for (i = 0; key[i]; i++)
		h = (h ^ (unsigned char)key[i]) * 0x100000001b3ull;
	body = cache_get(&req->srv->cache, CACHE_EXPERIMENT_LIST, (int64_t)h, gen, &len);
	if (body)
		return http_take(resp, 200, "application/json", body, len);
	st = db_prepare(req->db,
		"SELECT e.id, e.title, e.kind, e.state, e.label, e.backend,"
		" b.name AS base, h.name AS host, k.name AS submitter, e.runs AS runs_planned,"
		" e.max_runs, e.created_at, e.started_at, e.finished_at, e.failure_reason,"
		" (SELECT count(*) FROM jobs j WHERE j.experiment_id = e.id) AS \"progress.jobs_total\","
		" (SELECT count(*) FROM jobs j WHERE j.experiment_id = e.id AND j.state = 'done') AS \"progress.jobs_done\","
		" (SELECT count(*) FROM jobs j WHERE j.experiment_id = e.id AND j.state IN ('failed', 'cancelled')) AS \"progress.jobs_failed\","
		" (SELECT json_group_array(json_object('variant', v.name, 'verdict', c.verdict,"
		"   'delta_pct', c.delta_pct, 'mde_pct', c.mde_pct, 'metric', c.metric))"
		"   FROM comparisons c JOIN variants v ON v.id = c.variant_id"
		"   WHERE c.id IN (SELECT max(id) FROM comparisons WHERE experiment_id = e.id"
		"   GROUP BY variant_id, metric)) AS verdicts_json"
		" FROM experiments e JOIN bases b ON b.id = e.base_id"
		" LEFT JOIN hosts h ON h.id = e.host_id LEFT JOIN api_keys k ON k.id = e.submitter_key_id"
		" WHERE (?1 IS NULL OR e.state = ?1) AND (?2 = 0 OR e.id < ?2)"
		" ORDER BY e.id DESC LIMIT ?3");
	if (!st)
		return -1;
	if (state)
		sqlite3_bind_text(st, 1, state, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, bid);
	sqlite3_bind_int(st, 3, (int)limit);
	a = json_rows(st);
	sqlite3_finalize(st);
	if (http_json(resp, 200, json_pack("{s:o}", "experiments", a)))
		return -1;
	cache_put(&req->srv->cache, CACHE_EXPERIMENT_LIST, (int64_t)h, gen, resp->body,
		  resp->len);
	return 0;
}

static json_t *query_rows(sqlite3 *db, const char *sql, int64_t id)
{
	sqlite3_stmt *st = db_prepare(db, sql);
	json_t *a;

	if (!st)
		return NULL;
	sqlite3_bind_int64(st, 1, id);
	a = json_rows(st);
	sqlite3_finalize(st);
	return a;
}

/* Attach rows of @sql (first column = owner id, dropped) to the objects of
 * @owners whose "id" matches, as member @key. Both ordered by id. */
static void attach(sqlite3 *db, json_t *owners, const char *key, const char *sql,
		   int64_t exp)
{
	sqlite3_stmt *st = db_prepare(db, sql);
	size_t i = 0, n = json_array_size(owners);

	for (i = 0; i < n; i++)
		json_object_set_new(json_array_get(owners, i), key, json_array());
	if (!st)
		return;
	sqlite3_bind_int64(st, 1, exp);
	i = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t owner = sqlite3_column_int64(st, 0);
		json_t *o, *row;

		while (i < n && json_integer_value(json_object_get(json_array_get(owners, i),
								  "id")) < owner)
			i++;
		if (i == n)
			break;
		o = json_array_get(owners, i);
		if (json_integer_value(json_object_get(o, "id")) != owner)
			continue;
		row = json_row(st);
		json_object_del(row, "owner");
		json_array_append_new(json_object_get(o, key), row);
	}
	sqlite3_finalize(st);
}

json_t *api_experiment_json(sqlite3 *db, int64_t id)
{
	json_t *o, *a;
	sqlite3_stmt *st;

	st = db_prepare(db,
		"SELECT e.id, e.title, e.kind, e.state, e.label, e.backend,"
		" b.name AS \"base.name\", b.tree AS \"base.tree\", b.ref AS \"base.ref\","
		" b.kind AS \"base.kind\", b.url AS \"base.url\", e.base_commit AS \"base.commit\","
		" CASE e.config WHEN '' THEN b.config ELSE e.config END AS config,"
		" e.bench AS bench_json, e.runs AS runs_planned, e.max_runs,"
		" e.host_id AS \"host.id\", h.name AS \"host.name\", k.name AS submitter,"
		" e.failure_reason, e.created_at, e.started_at, e.finished_at,"
		" CASE WHEN e.runs_per_boot > 0 THEN 'true' ELSE 'false' END AS toggle_json,"
		" e.runs_per_boot,"
		" CASE WHEN e.analysis_pending THEN 'true' ELSE 'false' END"
		" AS analysis_pending_json"
		" FROM experiments e JOIN bases b ON b.id = e.base_id"
		" LEFT JOIN hosts h ON h.id = e.host_id"
		" LEFT JOIN api_keys k ON k.id = e.submitter_key_id WHERE e.id = ?");
	if (!st)
		return NULL;
	sqlite3_bind_int64(st, 1, id);
	o = sqlite3_step(st) == SQLITE_ROW ? json_row(st) : NULL;
	sqlite3_finalize(st);
	if (!o)
		return NULL;
	if (json_is_null(json_object_get(json_object_get(o, "host"), "id")))
		json_object_set_new(o, "host", json_null());
	st = db_prepare(db, "SELECT count(*) AS jobs_total,"
			" coalesce(sum(state = 'queued'), 0) AS queued,"
			" coalesce(sum(state = 'claimed'), 0) AS claimed,"
			" coalesce(sum(state = 'running'), 0) AS running,"
			" coalesce(sum(state = 'done'), 0) AS done,"
			" coalesce(sum(state = 'failed'), 0) AS failed,"
			" coalesce(sum(state = 'cancelled'), 0) AS cancelled"
			" FROM jobs WHERE experiment_id = ?");
	if (st) {
		sqlite3_bind_int64(st, 1, id);
		if (sqlite3_step(st) == SQLITE_ROW)
			json_object_set_new(o, "progress", json_row(st));
		sqlite3_finalize(st);
	}
	a = query_rows(db, "SELECT id, name, CASE WHEN is_control THEN 'true' ELSE 'false' END"
		       " AS is_control_json, cmdline, setup, setup_script,"
		       " settings AS settings_json, base_commit AS \"commit\", state, failure_reason,"
		       " substr(failure_log, -65536) AS failure_log FROM variants"
		       " WHERE experiment_id = ?"
		       " ORDER BY id", id);
	attach(db, a, "patches",
	       "SELECT vp.variant_id AS owner, p.id, p.sha256, p.subject, p.author,"
	       " p.message_id, p.date, (SELECT json_group_array(json_object('old_path',"
	       " old_path, 'new_path', new_path, 'hunks', hunks, 'added', added,"
	       " 'removed', removed)) FROM patch_files f WHERE f.patch_id = p.id) AS files_json"
	       " FROM variant_patches vp JOIN patches p ON p.id = vp.patch_id"
	       " JOIN variants v ON v.id = vp.variant_id WHERE v.experiment_id = ?"
	       " ORDER BY vp.variant_id, vp.position", id);
	json_object_set_new(o, "variants", a);
	json_object_set_new(o, "jobs", query_rows(db,
		"SELECT j.id, j.variant_id, v.name AS variant, j.run_index, j.seq, j.state,"
		" j.attempt, j.phase, j.message, h.name AS host, j.lease_expires,"
		" j.failure_reason, substr(j.failure_log, -65536) AS failure_log,"
		" length(j.failure_log) AS failure_log_bytes, j.claimed_at, j.finished_at"
		" FROM jobs j JOIN variants v ON v.id = j.variant_id"
		" LEFT JOIN hosts h ON h.id = j.lease_host_id WHERE j.experiment_id = ?"
		" ORDER BY j.seq", id));
	a = query_rows(db,
		"SELECT r.id, r.job_id, r.variant_id, v.name AS variant, r.run_index,"
		" r.boot_id, r.boot_pos,"
		" r.attempt, h.name AS host, r.kernel, r.ring_flags AS ring_flags_json,"
		" r.device AS device_json, r.params AS params_json,"
		" r.warmup AS \"summary.warmup\", r.seconds AS \"summary.seconds\","
		" r.build_s AS \"timings.build_s\", r.boot_s AS \"timings.boot_s\","
		" r.run_s AS \"timings.run_s\", bu.cache_key AS \"build.cache_key\","
		" CASE WHEN bu.cached THEN 'true' WHEN bu.cached = 0 THEN 'false' END"
		" AS \"build.cached_json\", bu.seconds AS \"build.seconds\","
		" (SELECT total FROM profiles p WHERE p.run_id = r.id) AS profile_samples,"
		" r.created_at FROM runs r JOIN variants v ON v.id = r.variant_id"
		" JOIN hosts h ON h.id = r.host_id LEFT JOIN builds bu ON bu.id = r.build_id"
		" WHERE r.experiment_id = ? ORDER BY r.id", id);
	attach(db, a, "samples",
	       "SELECT s.run_id AS owner, s.t, s.iops, s.ios_per_submit, s.ios_per_reap,"
	       " s.inflight FROM samples s JOIN runs r ON r.id = s.run_id"
	       " WHERE r.experiment_id = ? ORDER BY s.run_id, s.t", id);
	run_metrics_attach(db, a, id);
	json_object_set_new(o, "runs", a);
	json_object_set_new(o, "comparison", query_rows(db,
		"SELECT c.id, c.variant_id, v.name AS variant, cv.name AS control,"
		" c.metric, c.verdict, c.delta_pct, c.ci_low, c.ci_high, c.p_value,"
		" c.mde_pct, c.runs, c.result AS result_json, c.computed_at"
		" FROM comparisons c JOIN variants v ON v.id = c.variant_id"
		" JOIN variants cv ON cv.id = c.control_variant_id"
		" WHERE c.id IN (SELECT max(id) FROM comparisons WHERE experiment_id = ?1"
		" GROUP BY variant_id, metric) ORDER BY v.idx, c.metric", id));
	return o;
}

int api_experiment_get(struct http_req *req, struct http_resp *resp)
{
	int64_t id = http_param_id(req, "id");
	json_t *o;

	uint64_t gen = db_pool_generation(&req->srv->pool);
	size_t len;
	char *body;

	if (id < 0)
		return http_error(resp, 404, "no such experiment");
	body = cache_get(&req->srv->cache, CACHE_EXPERIMENT, id, gen, &len);
	if (body)
		return http_take(resp, 200, "application/json", body, len);
	/* One snapshot for all the queries. */
	db_exec(req->db, "BEGIN");
	o = api_experiment_json(req->db, id);
	db_exec(req->db, "COMMIT");
	if (!o)
		return http_error(resp, 404, "no such experiment");
	if (http_json(resp, 200, o))
		return -1;
	cache_put(&req->srv->cache, CACHE_EXPERIMENT, id, gen, resp->body, resp->len);
	return 0;
}

int api_experiment_cancel(struct http_req *req, struct http_resp *resp)
{
	int64_t id = http_param_id(req, "id"), owner;
	struct jobs_ctx c;
	int rc;

	owner = id < 0 ? -1 : db_int(req->db, -1, "SELECT coalesce(submitter_key_id, 0)"
				      " FROM experiments WHERE id = ?", 1, (int64_t)id);
	if (owner < 0)
		return http_error(resp, 404, "no such experiment");
	if (req->auth.role != ROLE_ADMIN && owner != req->auth.key_id)
		return http_error(resp, 403, "only the submitter or an admin may cancel");
	server_jobs_ctx(req->srv, &c);
	rc = jobs_cancel_experiment(server_writer_lock(req->srv), &c, id, time(NULL));
	server_writer_unlock(req->srv);
	if (rc == JOB_STALE)
		return http_error(resp, 409, "the experiment already finished");
	if (rc != JOB_OK)
		return -1;
	return http_json(resp, 200, json_pack("{s:I,s:s}", "id", (json_int_t)id,
					     "state", "cancelled"));
}

int api_run_log(struct http_req *req, struct http_resp *resp)
{
	int64_t id = http_param_id(req, "id");
	const char *kind = http_param(req, "kind");
	sqlite3_stmt *st;
	int rc;

	if (id < 0)
		return http_error(resp, 404, "no such run");
	if (!strcmp(kind, "build"))
		st = db_prepare(req->db, "SELECT coalesce(b.log, '') FROM runs r LEFT JOIN"
				" builds b ON b.id = r.build_id WHERE r.id = ?");
	else if (!strcmp(kind, "boot"))
		st = db_prepare(req->db, "SELECT boot_log FROM runs WHERE id = ?");
	else
		return http_error(resp, 404, "log kind must be build or boot");
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_finalize(st);
		return http_error(resp, 404, "no such run");
	}
	rc = http_text(resp, 200, "text/plain; charset=utf-8",
		       (const char *)sqlite3_column_text(st, 0),
		       (size_t)sqlite3_column_bytes(st, 0));
	sqlite3_finalize(st);
	return rc;
}

int api_job_log(struct http_req *req, struct http_resp *resp)
{
	int64_t id = http_param_id(req, "id");
	sqlite3_stmt *st;
	int rc;

	if (id < 0)
		return http_error(resp, 404, "no such job");
	st = db_prepare(req->db, "SELECT coalesce(failure_log, '') FROM jobs WHERE id = ?");
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_finalize(st);
		return http_error(resp, 404, "no such job");
	}
	rc = http_text(resp, 200, "text/plain; charset=utf-8",
		       (const char *)sqlite3_column_text(st, 0),
		       (size_t)sqlite3_column_bytes(st, 0));
	sqlite3_finalize(st);
	return rc;
}

/* ---- bases ----------------------------------------------------------- */

int api_bases_list(struct http_req *req, struct http_resp *resp)
{
	return http_json(resp, 200, json_pack("{s:o}", "bases", query_rows(req->db,
		"SELECT id, name, kind, tree, url, ref, config, created_at FROM bases"
		" WHERE ?1 = ?1 ORDER BY id", 0)));
}

int api_bases_post(struct http_req *req, struct http_resp *resp)
{
	static const char *const keys[] = { "name", "tree", "ref", "config", "git", NULL };
	const char *name, *tree, *ref, *config, *git;
	sqlite3_stmt *st;
	json_t *body = http_json_body_keys(req, resp, keys), *o;
	char err[512];
	int ret = 0, rc;

	if (!body)
		return 0;
	if (api_opt_string(body, "name", 64, &name, resp) ||
	    api_opt_string(body, "tree", 1024, &tree, resp) ||
	    api_opt_string(body, "ref", 256, &ref, resp) ||
	    api_opt_string(body, "config", 64, &config, resp) ||
	    api_opt_string(body, "git", 1024, &git, resp))
		goto out;
	if (git) {
		if (!name || !lab_valid_name(name) || tree) {
			ret = http_error(resp, 400, "a git base needs 'name' (1-64 of"
					 " [A-Za-z0-9._+-]) and 'git', and no 'tree'");
			goto out;
		}
		if (config && !lab_valid_name(config)) {
			ret = http_error(resp, 400, "'config' must be a name of [A-Za-z0-9._+-]");
			goto out;
		}
		rc = bases_create_git(req->db, name, git, ref && *ref ? ref : "master",
				      config ? config : "qemu", &o, err, sizeof(err));
		ret = rc == 201 ? http_json(resp, 201, o) :
		      rc == 500 ? -1 : http_error(resp, rc, "%s", err);
		goto out;
	}
	if (!name || !lab_valid_name(name) || !tree || !*tree) {
		ret = http_error(resp, 400, "'name' (1-64 of [A-Za-z0-9._+-]) and 'tree' are required");
		goto out;
	}
	if (config && !lab_valid_name(config)) {
		ret = http_error(resp, 400, "'config' must be a name of [A-Za-z0-9._+-]");
		goto out;
	}
	st = db_prepare(server_write_take(req), "INSERT INTO bases (name, tree,"
			" ref, config, created_at)"
			" VALUES (?,?,?,?,?)");
	if (!st) {
		ret = -1;
		goto out;
	}
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, tree, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, ref ? ref : "", -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, config ? config : "qemu", -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, (int64_t)time(NULL));
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		ret = sqlite3_extended_errcode(req->db) == SQLITE_CONSTRAINT_UNIQUE ?
			http_error(resp, 409, "a base named '%s' exists", name) : -1;
	else
		ret = http_json(resp, 201, json_pack("{s:I,s:s}", "id",
			(json_int_t)sqlite3_last_insert_rowid(req->db), "name", name));
out:
	json_decref(body);
	return ret;
}
