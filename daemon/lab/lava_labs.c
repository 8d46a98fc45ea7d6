// SPDX-License-Identifier: MIT
/*
 * lava_labs: adding, listing and loading LAVA labs (lava.h).
 */
#include "daemon/lab/lava.h"
#include "daemon/lab/builds.h"
#include "daemon/lab/lava_template.h"
#include "daemon/lab/validate.h"
#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "daemon/store/json.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What perflab gives every template (docs/operating.md lists them). */
static const char *const perflab_vars[] = {
	"job_name", "experiment_id", "job_id", "attempt", "variant",
	"run_index", "metadata", "tags", "kernel_url", "kernel_sha256",
	"initrd_url", "initrd_sha256", "file_headers", "cmdline", "target",
	"bench_command", "job_minutes", "boot_minutes", "test_minutes",
	"notify", "callback_url", "callback_token", NULL
};

static int url_ok(const char *u)
{
	if (strncmp(u, "http://", 7) && strncmp(u, "https://", 8))
		return 0;
	if (strlen(u) > 1024)
		return 0;
	for (; *u; u++)
		if (*u <= 0x20 || *u >= 0x7f || *u == '"' || *u == '\\')
			return 0;
	return 1;
}

static int str_field(const json_t *b, const char *k, int required,
		     const char **out, struct lab_err *e)
{
	const json_t *v = json_object_get(b, k);

	*out = NULL;
	if (!v)
		return required ? lab_fail(e, LAB_INVALID, "\"%s\" is required",
					 k) : 0;
	if (!json_is_string(v))
		return lab_fail(e, LAB_INVALID, "\"%s\" must be a string", k);
	*out = json_string_value(v);
	return 0;
}

static char *read_small(const char *path, size_t max, struct lab_err *e)
{
	FILE *f = fopen(path, "re");
	char *buf;
	size_t n;

	if (!f) {
		lab_fail(e, LAB_REJECTED, "template_file %s: %s", path,
			 strerror(errno));
		return NULL;
	}
	buf = malloc(max + 1);
	n = buf ? fread(buf, 1, max + 1, f) : 0;
	fclose(f);
	if (!buf || n > max) {
		free(buf);
		lab_fail(e, buf ? LAB_REJECTED : LAB_INTERNAL, "template_file %s:"
			 " over %zu bytes", path, max);
		return NULL;
	}
	buf[n] = 0;
	return buf;
}

/* Every variable the template names is perflab's or the lab's. */
static int check_vars(const json_t *tmpl, const json_t *vars,
		      struct lab_err *e)
{
	json_t *names = lava_template_vars(tmpl), *n;
	size_t i;
	int k;

	if (!names)
		return lab_fail(e, LAB_INTERNAL, "out of memory");
	json_array_foreach(names, i, n) {
		const char *s = json_string_value(n);

		for (k = 0; perflab_vars[k] && strcmp(perflab_vars[k], s); k++)
			;
		if (!perflab_vars[k] && !json_object_get(vars, s)) {
			lab_fail(e, LAB_REJECTED, "template variable ${%s} is"
				 " neither perflab's nor in \"vars\"", s);
			json_decref(names);
			return -1;
		}
	}
	json_decref(names);
	return 0;
}

static int check_lists(const json_t *tags, const json_t *vars,
		       struct lab_err *e)
{
	const char *k;
	json_t *x;
	size_t i;

	if (tags && (!json_is_array(tags) || json_array_size(tags) > 16))
		return lab_fail(e, LAB_INVALID, "\"tags\" must be a list of at"
			      " most 16 names");
	json_array_foreach(tags, i, x)
		if (!json_is_string(x) || !lab_valid_name(json_string_value(x)))
			return lab_fail(e, LAB_INVALID, "\"tags\": a tag is 1-64"
				      " characters of [A-Za-z0-9._+-]");
	if (vars && (!json_is_object(vars) || json_object_size(vars) > 32))
		return lab_fail(e, LAB_INVALID, "\"vars\" must be an object of"
			      " at most 32 strings");
	json_object_foreach((json_t *)vars, k, x) {
		const char *s = json_string_value(x);

		if (!lab_valid_name(k) || !s || strlen(s) > 1024)
			return lab_fail(e, LAB_INVALID, "\"vars\": names are"
				      " [A-Za-z0-9._+-], values strings of at"
				      " most 1 KiB");
		for (int j = 0; perflab_vars[j]; j++)
			if (!strcmp(perflab_vars[j], k))
				return lab_fail(e, LAB_INVALID, "\"vars\": %s is"
					      " perflab's", k);
		for (; *s; s++)
			if (*s < 0x20 || *s > 0x7e)
				return lab_fail(e, LAB_INVALID, "\"vars\": %s:"
					      " printable ASCII only", k);
	}
	return 0;
}

static int insert(sqlite3 *db, const json_t *b, const char *tmpl_text,
		  const json_t *tags, const json_t *vars, json_t *configs,
		  int poll, int64_t *id, struct lab_err *e)
{
	const char *name = json_string_value(json_object_get(b, "name"));
	const char *label = json_string_value(json_object_get(b, "label"));
	const char *backend = json_string_value(json_object_get(b, "backend"));
	json_t *empty_a = json_array(), *empty_o = json_object();
	json_t *fo = json_pack("{s:s,s:s}", "lava",
			       json_string_value(json_object_get(b, "url")),
			       "device_type", json_string_value(json_object_get(b,
			       "device_type")));
	char *tj = json_dumps(tags ? tags : empty_a, JSON_COMPACT);
	char *vj = json_dumps(vars ? vars : empty_o, JSON_COMPACT);
	char *facts = fo ? json_dumps(fo, JSON_COMPACT) : NULL;
	char *cj = configs ? json_dumps(configs, JSON_COMPACT) : NULL;
	sqlite3_stmt *st = NULL;
	int64_t host;
	int rc = -1, refused = 0;

	json_decref(empty_a);
	json_decref(empty_o);
	json_decref(fo);
	if (!tj || !vj || !facts || (configs && !cj)) {
		lab_fail(e, LAB_INTERNAL, "out of memory");
		goto out;
	}
	if (db_begin(db)) {
		lab_fail_db(e, db);
		goto out;
	}
	st = db_prepare(db, "SELECT 1 FROM hosts WHERE name = ?");
	if (!st)
		goto rollback;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		refused = lab_fail(e, LAB_CONFLICT, "host name '%s' is taken",
				   name);
		goto rollback;
	}
	sqlite3_finalize(st);
	st = db_prepare(db, "INSERT INTO hosts (name, backend, labels, facts,"
			" registered_at, last_seen) VALUES (?, ?, json_array(?), ?,"
			" unixepoch(), unixepoch()) RETURNING id");
	if (!st)
		goto rollback;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, backend, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, label, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, facts, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_ROW)
		goto rollback;
	host = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	/* The label claims match on (jobs.c, pick_experiment). */
	st = db_prepare(db, "INSERT INTO host_labels (host_id, label) VALUES (?, ?)");
	if (!st)
		goto rollback;
	sqlite3_bind_int64(st, 1, host);
	sqlite3_bind_text(st, 2, label, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE)
		goto rollback;
	sqlite3_finalize(st);
	st = NULL;
	/* A test host of the build machinery: it never builds (builds.h). */
	if (builds_set_host(db, host, "test", configs))
		goto rollback;
	st = db_prepare(db, "INSERT INTO lava_labs (name, label, url, token_file,"
			" device_type, backend, tags, template, vars, callback_url,"
			" poll_seconds, host_id, configs, created_at) VALUES (?, ?, ?,"
			" ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, unixepoch()) RETURNING id");
	if (!st)
		goto rollback;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, label, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, json_string_value(json_object_get(b, "url")), -1,
			  SQLITE_STATIC);
	sqlite3_bind_text(st, 4, json_string_value(json_object_get(b,
			  "token_file")), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, json_string_value(json_object_get(b,
			  "device_type")), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, backend, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 7, tj, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 8, tmpl_text, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 9, vj, -1, SQLITE_STATIC);
	if (json_string_value(json_object_get(b, "callback_url")))
		sqlite3_bind_text(st, 10, json_string_value(json_object_get(b,
				  "callback_url")), -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 11, poll);
	sqlite3_bind_int64(st, 12, host);
	if (cj)
		sqlite3_bind_text(st, 13, cj, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_ROW)
		goto rollback;
	*id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	st = NULL;
	if (db_commit(db))
		goto rollback;
	rc = 0;
	goto out;
rollback:
	if (!refused)
		lab_fail_db(e, db);
	sqlite3_finalize(st);
	db_rollback(db);
out:
	free(tj);
	free(vj);
	free(facts);
	free(cj);
	return rc;
}

int lava_lab_add(sqlite3 *wdb, const json_t *b, int64_t *id, struct lab_err *e)
{
	static const char *const keys[] = { "name", "label", "url", "token_file",
		"device_type", "backend", "tags", "template", "template_file",
		"vars", "callback_url", "poll_seconds", "configs", NULL };
	const char *name, *label, *url, *tok, *dt, *be, *tt, *tf, *cb, *bad;
	const json_t *tags = json_object_get(b, "tags");
	const json_t *vars = json_object_get(b, "vars");
	const json_t *poll = json_object_get(b, "poll_seconds");
	json_t *configs = json_object_get(b, "configs");
	char *text = NULL, err[512];
	json_t *tmpl = NULL;
	int rc;

	if (json_check_keys((json_t *)b, keys, &bad))
		return lab_fail(e, LAB_INVALID, "unknown field '%s'", bad);
	if ((rc = str_field(b, "name", 1, &name, e)) ||
	    (rc = str_field(b, "label", 1, &label, e)) ||
	    (rc = str_field(b, "url", 1, &url, e)) ||
	    (rc = str_field(b, "token_file", 1, &tok, e)) ||
	    (rc = str_field(b, "device_type", 1, &dt, e)) ||
	    (rc = str_field(b, "backend", 1, &be, e)) ||
	    (rc = str_field(b, "template", 0, &tt, e)) ||
	    (rc = str_field(b, "template_file", 0, &tf, e)) ||
	    (rc = str_field(b, "callback_url", 0, &cb, e)))
		return rc;
	if (!lab_valid_name(name) || !lab_valid_name(label) ||
	    !lab_valid_name(dt) || !lab_valid_name(be) || strlen(be) > 32)
		return lab_fail(e, LAB_INVALID, "name, label, device_type and"
			      " backend are 1-64 (backend 32) characters of"
			      " [A-Za-z0-9._+-]");
	if (!url_ok(url) || (cb && !url_ok(cb)))
		return lab_fail(e, LAB_INVALID, "url and callback_url are"
			      " http:// or https:// URLs of at most 1 KiB");
	if (tok[0] != '/' || strlen(tok) > 4096)
		return lab_fail(e, LAB_INVALID, "token_file must be an"
			      " absolute path");
	if (access(tok, R_OK))
		return lab_fail(e, LAB_REJECTED, "token_file %s: %s", tok,
			      strerror(errno));
	if (poll && (!json_is_integer(poll) || json_integer_value(poll) < 1 ||
		     json_integer_value(poll) > 3600))
		return lab_fail(e, LAB_INVALID, "poll_seconds is 1-3600");
	if ((rc = check_lists(tags, vars, e)))
		return rc;
	if (configs && (builds_check_caps(NULL, configs, err, sizeof(err)) ||
			!json_object_size(configs)))
		return lab_fail(e, LAB_INVALID, "\"configs\" must be an object of"
			      " 1-64 {name: config hash (64 lower-case hex)}"
			      " (leave it out: the label's builders' configs)");
	if (!tt == !tf)
		return lab_fail(e, LAB_INVALID, "give \"template\" (its JSON"
			      " text) or \"template_file\" (a path perflabd"
			      " reads), one of them");
	text = tf ? read_small(tf, LAVA_TEMPLATE_MAX, e) : strdup(tt);
	if (!text)
		return tf ? -1 : lab_fail(e, LAB_INTERNAL, "out of memory");
	tmpl = lava_template_parse(text, err, sizeof(err));
	if (!tmpl) {
		free(text);
		return lab_fail(e, LAB_REJECTED, "%s", err);
	}
	rc = check_vars(tmpl, vars, e);
	json_decref(tmpl);
	if (!rc)
		rc = insert(wdb, b, text, tags, vars, configs,
			    poll ? (int)json_integer_value(poll) : 60, id, e);
	free(text);
	return rc;
}

int lava_label_lab(sqlite3 *db, const char *label, char name[65])
{
	sqlite3_stmt *st = db_prepare(db, "SELECT name FROM lava_labs WHERE"
				      " label = ? AND enabled != 0 ORDER BY id"
				      " LIMIT 1");
	int rc;

	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, label, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		snprintf(name, 65, "%s", sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

int lava_lab_disable(sqlite3 *wdb, const char *name, struct lab_err *e)
{
	sqlite3_stmt *st = db_prepare(wdb, "UPDATE lava_labs SET enabled = 0"
				      " WHERE name = ? RETURNING id");
	int rc;

	if (!st)
		return lab_fail_db(e, wdb);
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		lab_fail_db(e, wdb);
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return 0;
	if (rc == SQLITE_DONE)
		return lab_fail(e, LAB_NOT_FOUND, "no LAVA lab '%.64s'", name);
	return -1;
}

json_t *lava_labs_json(sqlite3 *db)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT l.id, l.name, l.label, l.url,"
		" l.token_file, l.device_type, l.backend, l.tags AS tags_json,"
		" l.vars AS vars_json, l.callback_url, l.poll_seconds,"
		" l.enabled != 0 AS enabled, l.created_at, h.id AS host_id,"
		" CASE WHEN l.configs IS NULL THEN 'builders' ELSE 'lab' END AS"
		" configs_from, (SELECT json_group_object(name, hash) FROM"
		" host_configs WHERE host_id = h.id) AS configs_json,"
		" (SELECT count(*) FROM lava_jobs j WHERE j.lab_id = l.id) AS"
		" lava_jobs FROM lava_labs l JOIN hosts h ON h.id = l.host_id"
		" ORDER BY l.id");
	json_t *rows, *r;
	size_t i;

	if (!st)
		return NULL;
	rows = json_rows(st);
	sqlite3_finalize(st);
	json_array_foreach(rows, i, r)
		json_object_set(r, "enabled", json_boolean(json_integer_value(
					json_object_get(r, "enabled"))));
	return rows ? json_pack("{s:o}", "labs", rows) : NULL;
}

void lava_lab_free(struct lava_lab *l)
{
	json_decref(l->tags);
	json_decref(l->vars);
	json_decref(l->tmpl);
	free(l->callback_url);
	memset(l, 0, sizeof(*l));
}

static void cpy(char *dst, size_t len, sqlite3_stmt *st, int col)
{
	const char *s = (const char *)sqlite3_column_text(st, col);

	snprintf(dst, len, "%s", s ? s : "");
}

static int load_row(sqlite3_stmt *st, struct lava_lab *l)
{
	char err[256];
	const char *cb;

	memset(l, 0, sizeof(*l));
	l->id = sqlite3_column_int64(st, 0);
	cpy(l->name, sizeof(l->name), st, 1);
	cpy(l->label, sizeof(l->label), st, 2);
	cpy(l->url, sizeof(l->url), st, 3);
	cpy(l->token_file, sizeof(l->token_file), st, 4);
	cpy(l->device_type, sizeof(l->device_type), st, 5);
	cpy(l->backend, sizeof(l->backend), st, 6);
	l->tags = json_loads((const char *)sqlite3_column_text(st, 7), 0, NULL);
	l->vars = json_loads((const char *)sqlite3_column_text(st, 9), 0, NULL);
	l->tmpl = lava_template_parse((const char *)sqlite3_column_text(st, 8),
				      err, sizeof(err));
	cb = (const char *)sqlite3_column_text(st, 10);
	l->callback_url = cb ? strdup(cb) : NULL;
	l->poll_seconds = sqlite3_column_int(st, 11);
	l->host_id = sqlite3_column_int64(st, 12);
	l->own_configs = sqlite3_column_type(st, 13) != SQLITE_NULL;
	if (!l->tags || !l->vars || !l->tmpl) {
		fprintf(stderr, "perflabd: LAVA lab %s: unusable row (%s)\n",
			l->name, l->tmpl ? "tags/vars" : err);
		lava_lab_free(l);
		return -1;
	}
	return 0;
}

int lava_labs_load(sqlite3 *db, struct lava_lab **labs)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT id, name, label, url, token_file,"
		" device_type, backend, tags, template, vars, callback_url,"
		" poll_seconds, host_id, configs FROM lava_labs WHERE enabled != 0"
		" ORDER BY id");
	struct lava_lab *a = NULL;
	int n = 0, rc;

	*labs = NULL;
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct lava_lab *na = realloc(a, (n + 1) * sizeof(*a));

		if (!na)
			break;
		a = na;
		if (!load_row(st, &a[n]))
			n++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		for (int i = 0; i < n; i++)
			lava_lab_free(&a[i]);
		free(a);
		return -1;
	}
	*labs = a;
	return n;
}

#define LAVA_JOB_COLS \
	"SELECT lj.id, lj.job_id, lj.attempt, lj.lava_id, l.name AS lab," \
	" CASE WHEN lj.lava_id IS NULL THEN NULL ELSE rtrim(l.url, '/') ||" \
	" '/scheduler/job/' || lj.lava_id END AS url, lj.state, lj.lava_state," \
	" lj.lava_health, lj.outcome, lj.message, lj.image_key, lj.callbacks," \
	" lj.submitted_at, lj.finished_at"

json_t *lava_experiment_jobs(sqlite3 *db, int64_t experiment_id)
{
	sqlite3_stmt *st = db_prepare(db, LAVA_JOB_COLS " FROM lava_jobs lj"
		" JOIN lava_labs l ON l.id = lj.lab_id JOIN jobs j ON j.id ="
		" lj.job_id WHERE j.experiment_id = ? ORDER BY lj.id");
	json_t *a;

	if (!st)
		return NULL;
	sqlite3_bind_int64(st, 1, experiment_id);
	a = json_rows(st);
	sqlite3_finalize(st);
	return a;
}

json_t *lava_job_json(sqlite3 *db, int64_t id, struct lab_err *e)
{
	sqlite3_stmt *st = db_prepare(db, LAVA_JOB_COLS ", lj.definition,"
		" j.experiment_id FROM lava_jobs lj JOIN lava_labs l ON l.id ="
		" lj.lab_id JOIN jobs j ON j.id = lj.job_id WHERE lj.id = ?");
	json_t *o = NULL;
	int rc;

	if (!st) {
		lab_fail_db(e, db);
		return NULL;
	}
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		o = json_row(st);
	else if (rc == SQLITE_DONE)
		lab_fail(e, LAB_NOT_FOUND, "no such LAVA job");
	else
		lab_fail_db(e, db);
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW && !o)
		lab_fail(e, LAB_INTERNAL, "out of memory");
	return o;
}
