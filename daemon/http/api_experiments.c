// SPDX-License-Identifier: MIT
/*
 * Experiments: create with explicit variants, list, show, cancel; run
 * logs; bases. Parsing and rendering; the lab makes and reads them
 * (lab/experiments.h, lab/experiment_json.h, lab/bases.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "daemon/http/api.h"
#include "daemon/http/state.h"
#include "daemon/lab/bases.h"
#include "daemon/lab/experiment_json.h"
#include "daemon/lab/experiments.h"
#include "daemon/lab/validate.h"

/* ---- POST /api/v1/experiments ---------------------------------------- */

/* The members of variant @k into @v; -1 when answered (400). */
static int parse_variant(json_t *o, size_t k, struct variant_req *v,
			 struct http_resp *resp)
{
	static const char *const keys[] = { "name", "patches", "cmdline", "setup",
		"setup_script", "control", "settings", "commit", NULL };
	const char *badkey;
	json_t *c;

	if (!json_is_object(o))
		return http_error(resp, 400, "variant %zu is not an object", k), -1;
	if (json_check_keys(o, keys, &badkey))
		return http_error(resp, 400, "variant %zu: unknown field '%.64s'",
				  k, badkey), -1;
	if (api_opt_string(o, "name", 64, &v->name, resp) ||
	    api_opt_string(o, "cmdline", 1024, &v->cmdline, resp) ||
	    api_opt_string(o, "setup", 65536, &v->setup, resp) ||
	    api_opt_string(o, "setup_script", 64, &v->setup_script, resp))
		return -1;
	if (!v->name || !lab_valid_name(v->name))
		return http_error(resp, 400, "variant %zu: 'name' is required: 1-64"
				  " characters of [A-Za-z0-9._+-]", k), -1;
	c = json_object_get(o, "commit");
	if (c && (!json_is_string(c) || json_string_length(c) > 64))
		return http_error(resp, 400, "variant %zu: 'commit' must be a"
				  " commit id", k), -1;
	v->commit = json_string_value(c);
	c = json_object_get(o, "control");
	if (c && !json_is_boolean(c))
		return http_error(resp, 400, "variant %zu: 'control' must be a"
				  " boolean", k), -1;
	v->control = json_is_true(c);
	v->settings = json_object_get(o, "settings");
	v->patches = json_object_get(o, "patches");
	return 0;
}

static int parse_variants(json_t *va, struct variant_req *v, int *n,
			  struct http_resp *resp)
{
	json_t *o;
	size_t k;

	if (!json_is_array(va) || json_array_size(va) < 1 ||
	    json_array_size(va) > EXP_MAX_VARIANTS)
		return http_error(resp, 400, "'variants' must be an array of 1 to"
				  " %d objects", EXP_MAX_VARIANTS), -1;
	json_array_foreach(va, k, o) {
		if (parse_variant(o, k, &v[k], resp))
			return -1;
		for (size_t j = 0; j < k; j++)
			if (!strcmp(v[j].name, v[k].name))
				return http_error(resp, 400, "duplicate variant"
						  " name '%s'", v[k].name), -1;
	}
	*n = (int)json_array_size(va);
	return 0;
}

/* The experiment's top-level fields into @r; -1 when answered. */
static int parse_experiment(json_t *body, struct experiment_req *r,
			    struct http_resp *resp)
{
	json_t *tog = json_object_get(body, "toggle");

	if (api_opt_string(body, "title", 200, &r->title, resp) ||
	    api_opt_string(body, "base", 64, &r->base, resp) ||
	    api_opt_string(body, "label", 64, &r->label, resp) ||
	    api_opt_string(body, "backend", 32, &r->backend, resp) ||
	    api_opt_string(body, "config", 64, &r->config, resp) ||
	    api_opt_string(body, "control", 64, &r->control, resp) ||
	    api_opt_int(body, "runs", 5, 1, 100, &r->runs, resp) ||
	    api_opt_int(body, "max_runs", 0, 0, 500, &r->max_runs, resp) ||
	    api_opt_int(body, "runs_per_boot", 0, 1, 500, &r->runs_per_boot, resp))
		return -1;
	if (tog && !json_is_boolean(tog))
		return http_error(resp, 400, "'toggle' must be a boolean"), -1;
	r->toggle = json_is_true(tog);
	if (r->runs_per_boot && !r->toggle)
		return http_error(resp, 400, "'runs_per_boot' is for toggle"
				  " experiments (\"toggle\": true)"), -1;
	if ((r->label && !lab_valid_name(r->label)) ||
	    (r->backend && !lab_valid_name(r->backend)) ||
	    (r->config && *r->config && !lab_valid_name(r->config)))
		return http_error(resp, 400, "label, backend and config must be"
				  " names of [A-Za-z0-9._+-]"), -1;
	if (r->max_runs && r->max_runs < r->runs)
		return http_error(resp, 400, "max_runs must be at least runs"), -1;
	if (!json_object_get(body, "variants"))
		return http_error(resp, 400, "missing field 'variants'"), -1;
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
	struct variant_req v[EXP_MAX_VARIANTS] = { 0 };
	struct experiment_req r = { .variants = v };
	char *bench = NULL;
	struct trust_who who;
	struct lab_err e;
	json_t *body;
	int64_t exp;
	int ret = 0;

	body = http_json_body_keys(req, resp, keys);
	if (!body)
		return 0;
	if (parse_experiment(body, &r, resp))
		goto out;
	ret = api_bench(body, &bench, resp);
	if (ret != 1)
		goto out;
	ret = 0;
	if (parse_variants(json_object_get(body, "variants"), v, &r.nvariants, resp))
		goto out;
	r.bench_json = bench;
	api_trust_who(req, &who);
	exp = experiments_submit(req->db, &who, &r, &e);
	ret = exp < 0 ? http_lab_error(resp, &e) :
	      created(req, resp, exp, r.nvariants * r.runs);
out:
	free(bench);
	json_decref(body);
	return ret;
}

/* ---- GET ------------------------------------------------------------- */

/* A cached answer of @kind/@key at the pool's generation, or 0. */
static int from_cache(struct http_req *req, struct http_resp *resp, int kind,
		      int64_t key, uint64_t gen)
{
	size_t len;
	char *body = cache_get(&req->srv->cache, kind, key, gen, &len);

	if (!body)
		return 0;
	http_take(resp, 200, "application/json", body, len);
	return 1;
}

int api_experiments_list(struct http_req *req, struct http_resp *resp)
{
	const char *state = http_query(req, "state");
	uint64_t gen = db_pool_generation(&req->srv->pool);
	uint64_t h = 0xcbf29ce484222325ull;
	int64_t next, bid;
	char key[128];
	int limit;
	json_t *a;

	if (state && !experiment_state_valid(state))
		return http_error(resp, 400, "state must be one of queued, running,"
				  " done, failed, cancelled");
	if (api_page_args(req, resp, 100, 1000, &limit, &bid))
		return 0;
	snprintf(key, sizeof(key), "%s|%d|%lld", state ? state : "", limit,
		 (long long)bid);
	for (int i = 0; key[i]; i++)
		h = (h ^ (unsigned char)key[i]) * 0x100000001b3ull;
	if (from_cache(req, resp, CACHE_EXPERIMENT_LIST, (int64_t)h, gen))
		return 0;
	a = experiments_list_json(req->db, state, limit, bid, &next);
	if (!a || http_json(resp, 200, json_pack("{s:o,s:o}", "experiments", a,
			     "next", next ? json_integer(next) : json_null())))
		return -1;
	cache_put(&req->srv->cache, CACHE_EXPERIMENT_LIST, (int64_t)h, gen, resp->body,
		  resp->len);
	return 0;
}

int api_experiment_get(struct http_req *req, struct http_resp *resp)
{
	int64_t id = http_param_id(req, "id");
	uint64_t gen = db_pool_generation(&req->srv->pool);
	json_t *o;

	if (id < 0)
		return http_error(resp, 404, "no such experiment");
	if (from_cache(req, resp, CACHE_EXPERIMENT, id, gen))
		return 0;
	o = experiment_json(req->db, id);
	if (!o)
		return http_error(resp, 404, "no such experiment");
	if (http_json(resp, 200, o))
		return -1;
	cache_put(&req->srv->cache, CACHE_EXPERIMENT, id, gen, resp->body, resp->len);
	return 0;
}

int api_experiment_cancel(struct http_req *req, struct http_resp *resp)
{
	int64_t id = http_param_id(req, "id");
	struct trust_who who;
	struct jobs_ctx c;
	struct lab_err e;

	if (id < 0)
		return http_error(resp, 404, "no such experiment");
	api_trust_who(req, &who);
	server_jobs_ctx(req->srv, &c);
	if (experiments_cancel(req->db, &c, &who, id, time(NULL), &e))
		return http_lab_error(resp, &e);
	return http_json(resp, 200, json_pack("{s:I,s:s}", "id", (json_int_t)id,
					     "state", "cancelled"));
}

/* PATCH {"pinned": true|false}: an admin keeps an experiment whole. */
int api_experiment_patch(struct http_req *req, struct http_resp *resp)
{
	static const char *const keys[] = { "pinned", NULL };
	int64_t id = http_param_id(req, "id");
	struct lab_err e;
	json_t *body, *p;
	int ret;

	if (id < 0)
		return http_error(resp, 404, "no such experiment");
	body = http_json_body_keys(req, resp, keys);
	if (!body)
		return 0;
	p = json_object_get(body, "pinned");
	if (!json_is_boolean(p))
		ret = http_error(resp, 400, "\"pinned\" (true or false) is required");
	else if (experiments_set_pinned(req->db, id, json_is_true(p), &e))
		ret = http_lab_error(resp, &e);
	else
		ret = http_json(resp, 200, json_pack("{s:I,s:b}", "id", (json_int_t)id,
						     "pinned", json_is_true(p)));
	json_decref(body);
	return ret;
}

static int reply_log(struct http_resp *resp, char *text, size_t len,
		     const struct lab_err *e)
{
	if (!text)
		return http_lab_error(resp, e);
	return http_take(resp, 200, "text/plain; charset=utf-8", text, len);
}

int api_run_log(struct http_req *req, struct http_resp *resp)
{
	int64_t id = http_param_id(req, "id");
	struct lab_err e;
	size_t len = 0;
	char *text;

	if (id < 0)
		return http_error(resp, 404, "no such run");
	text = experiments_run_log(req->db, id, http_param(req, "kind"), &len, &e);
	return reply_log(resp, text, len, &e);
}

int api_job_log(struct http_req *req, struct http_resp *resp)
{
	int64_t id = http_param_id(req, "id");
	struct lab_err e;
	size_t len = 0;
	char *text;

	if (id < 0)
		return http_error(resp, 404, "no such job");
	text = experiments_job_log(req->db, id, &len, &e);
	return reply_log(resp, text, len, &e);
}

/* ---- bases ----------------------------------------------------------- */

int api_bases_list(struct http_req *req, struct http_resp *resp)
{
	return api_list(resp, "bases", bases_list_json(req->db));
}

/* "mail_authors" (bool) and "hook_secret" (string, "" removes) into @o:
 * 0, or -1 (answered). */
static int base_opts(json_t *body, struct base_opts *o, struct http_resp *resp)
{
	json_t *m = json_object_get(body, "mail_authors");

	o->mail_authors = -1;
	if (m && !json_is_boolean(m))
		return http_error(resp, 400, "'mail_authors' must be true or"
				  " false"), -1;
	if (m)
		o->mail_authors = json_is_true(m);
	return api_opt_string(body, "hook_secret", 256, &o->hook_secret, resp);
}

int api_base_patch(struct http_req *req, struct http_resp *resp)
{
	static const char *const keys[] = { "mail_authors", "hook_secret", NULL };
	const char *name = http_param(req, "name");
	json_t *body = http_json_body_keys(req, resp, keys), *list, *o, *found = NULL;
	struct base_opts opts;
	struct lab_err e;
	size_t i;
	int ret = 0;

	if (!body)
		return 0;
	if (base_opts(body, &opts, resp))
		goto out;
	if (bases_set_options(req->db, name, &opts, &e)) {
		ret = http_lab_error(resp, &e);
		goto out;
	}
	list = bases_list_json(req->db);
	json_array_foreach(list, i, o)
		if (!found && json_string_value(json_object_get(o, "name")) &&
		    !strcmp(json_string_value(json_object_get(o, "name")), name))
			found = o;
	ret = found ? http_json(resp, 200, json_incref(found)) :
	      http_error(resp, 404, "no such base");
	json_decref(list);
out:
	json_decref(body);
	return ret;
}

int api_bases_post(struct http_req *req, struct http_resp *resp)
{
	static const char *const keys[] = { "name", "tree", "ref", "config", "git",
		"mail_authors", "hook_secret", NULL };
	const char *name, *tree, *ref, *config, *git;
	json_t *body = http_json_body_keys(req, resp, keys), *o;
	struct base_opts opts;
	struct lab_err e;
	int64_t id;
	int ret = 0;

	if (!body)
		return 0;
	if (api_opt_string(body, "name", 64, &name, resp) ||
	    api_opt_string(body, "tree", 1024, &tree, resp) ||
	    api_opt_string(body, "ref", 256, &ref, resp) ||
	    api_opt_string(body, "config", 64, &config, resp) ||
	    api_opt_string(body, "git", 1024, &git, resp) ||
	    base_opts(body, &opts, resp))
		goto out;
	if (opts.hook_secret && *opts.hook_secret &&
	    (strlen(opts.hook_secret) < 16 || !git)) {
		ret = http_error(resp, 400, "'hook_secret' (16-256 bytes) is for"
				 " git bases");
		goto out;
	}
	if (git && (!name || !lab_valid_name(name) || tree)) {
		ret = http_error(resp, 400, "a git base needs 'name' (1-64 of"
				 " [A-Za-z0-9._+-]) and 'git', and no 'tree'");
		goto out;
	}
	if (!git && (!name || !lab_valid_name(name) || !tree || !*tree)) {
		ret = http_error(resp, 400, "'name' (1-64 of [A-Za-z0-9._+-]) and 'tree' are required");
		goto out;
	}
	if (config && !lab_valid_name(config)) {
		ret = http_error(resp, 400, "'config' must be a name of [A-Za-z0-9._+-]");
		goto out;
	}
	if (git) {
		o = bases_create_git(req->db, name, git, ref && *ref ? ref : "master",
				     config ? config : "qemu", &e);
		if (o && (opts.mail_authors >= 0 || opts.hook_secret) &&
		    bases_set_options(req->db, name, &opts, &e)) {
			json_decref(o);
			o = NULL;
		}
		if (o) {
			json_object_set_new(o, "mail_authors",
					    json_boolean(opts.mail_authors > 0));
			json_object_set_new(o, "hook_signed", json_boolean(
				opts.hook_secret && *opts.hook_secret));
		}
		ret = o ? http_json(resp, 201, o) : http_lab_error(resp, &e);
		goto out;
	}
	id = bases_create_tree(req->db, name, tree, ref ? ref : "",
			       config ? config : "qemu", &e);
	if (id >= 0 && opts.mail_authors >= 0 &&
	    bases_set_options(req->db, name, &opts, &e))
		id = -1;
	ret = id < 0 ? http_lab_error(resp, &e) :
	      http_json(resp, 201, json_pack("{s:I,s:s}", "id", (json_int_t)id,
					     "name", name));
out:
	json_decref(body);
	return ret;
}
