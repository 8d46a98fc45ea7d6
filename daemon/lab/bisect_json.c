// SPDX-License-Identifier: MIT
/*
 * Bisections as JSON (GET /api/v1/bisections[/{id}]); see bisect_json.h
 * and docs/contracts.md. The report hook is in bisect_report.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/metric_defs.h"
#include "daemon/lab/bases.h"
#include "daemon/lab/bisect_json.h"
#include "daemon/lab/gitmirror.h"
#include "daemon/store/db.h"
#include "daemon/store/json.h"
#include "daemon/store/sql.h"

/* Every row of @st: column 0 is a JSON text (SQLite json_object). */
static json_t *rows_of(sqlite3_stmt *st)
{
	json_t *a = json_array();

	while (a && sqlite3_step(st) == SQLITE_ROW) {
		json_t *o = json_loads((const char *)sqlite3_column_text(st, 0), 0, NULL);

		if (o)
			json_array_append_new(a, o);
	}
	return a;
}

/* ?1 bound to @id, ?2 to @before (INT64_MAX when 0), ?3 to @limit + 1. */
static json_t *page_json(sqlite3 *db, const char *sql, int64_t id, int64_t before,
			 int limit, int64_t *next)
{
	sqlite3_stmt *st = db_prepare(db, sql);
	json_t *r;

	*next = 0;
	if (!st)
		return NULL;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int64(st, 2, before > 0 ? before : INT64_MAX);
	sqlite3_bind_int(st, 3, limit + 1);
	r = rows_of(st);
	sqlite3_finalize(st);
	*next = json_page_next(r, limit, "id");
	return r;
}

static json_t *query_json(sqlite3 *db, const char *sql, int64_t id, int many)
{
	sqlite3_stmt *st = db_prepare(db, sql);
	json_t *r = NULL;

	if (!st)
		return NULL;
	sqlite3_bind_int64(st, 1, id);
	if (many)
		r = rows_of(st);
	else if (sqlite3_step(st) == SQLITE_ROW)
		r = json_loads((const char *)sqlite3_column_text(st, 0), 0, NULL);
	sqlite3_finalize(st);
	return r;
}

#define STEP_JSON \
	"json_object('id', s.id, 'commit', s.commit_sha, 'subject', s.subject," \
	" 'author'," \
	" s.author, 'experiment_id', s.experiment_id, 'state', CASE WHEN" \
	" s.state = 'queued' AND e.state = 'running' THEN 'running' ELSE" \
	" s.state END, 'runs', s.runs, 'delta_pct', s.delta_pct, 'ci_lo'," \
	" s.ci_lo, 'ci_hi', s.ci_hi, 'mde_pct', s.mde_pct, 'verdict', s.verdict," \
	" 'call', s.call," \
	" 'bad', CASE WHEN s.bad IS NULL THEN NULL WHEN s.bad THEN json('true')" \
	" ELSE json('false') END)"

/* The culprit: its step's figures, its author's address and patch-id. */
static json_t *culprit_json(sqlite3 *db, int64_t id, int64_t base_id,
			    const char *sha)
{
	struct base_ref b;
	char pid[41] = "";
	json_t *c;

	c = query_json(db, "SELECT json_object('commit', s.commit_sha, 'subject',"
		       " s.subject, 'author', s.author, 'email', s.email,"
		       " 'delta_pct', s.delta_pct, 'ci_lo', s.ci_lo, 'ci_hi', s.ci_hi,"
		       " 'mde_pct', s.mde_pct, 'verdict', s.verdict, 'experiment_id',"
		       " s.experiment_id) FROM bisection_steps s JOIN bisections b"
		       " ON b.id = s.bisection_id WHERE s.bisection_id = ?1 AND"
		       " s.commit_sha = b.culprit AND s.state = 'done'"
		       " ORDER BY s.id DESC LIMIT 1", id, 0);
	if (!c)
		c = json_pack("{s:s}", "commit", sha);
	if (!bases_by_id(db, base_id, &b, NULL) && b.git) {
		char parent[41];

		gitmirror_patch_id(b.mirror, sha, pid);
		if (!gitmirror_parent(b.mirror, sha, parent))
			json_object_set_new(c, "parent", json_string(parent));
	}
	json_object_set_new(c, "patch_id", pid[0] ? json_string(pid) : json_null());
	json_object_set_new(c, "message_id", json_null());
	return c;
}

/* A bisection that ended without culprit: every commit it could be. */
static void range_json(json_t *o, int64_t lo, int64_t hi)
{
	json_t *commits = json_object_get(o, "commits"), *sk = json_array();

	for (int64_t i = lo + 1; i < hi; i++)
		json_array_append(sk, json_array_get(commits, (size_t)i));
	json_object_set_new(o, "skipped", sk);
	json_object_set_new(o, "range", json_pack("{s:O,s:O}", "good",
			    json_array_get(commits, (size_t)lo), "bad",
			    json_array_get(commits, (size_t)hi)));
}

/*
 * The metric its steps compared (the first step's comparison) and the
 * step's direction by that metric's table row: "regression" when bad is
 * worse than good, else "improvement"; null before the first analysis.
 */
static void metric_json(sqlite3 *db, json_t *o, int64_t id)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT c.metric FROM comparisons c JOIN"
				      " bisection_steps s ON s.experiment_id ="
				      " c.experiment_id WHERE s.bisection_id = ? ORDER BY"
				      " s.id, c.id LIMIT 1");
	double step = json_number_value(json_object_get(o, "step_pct"));
	const char *dir = NULL;
	char metric[32] = "";

	if (st) {
		sqlite3_bind_int64(st, 1, id);
		if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
			snprintf(metric, sizeof(metric), "%s",
				 (const char *)sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
	}
	if (metric[0] && json_is_number(json_object_get(o, "step_pct")) && step != 0)
		dir = (step > 0) == !!metric_higher_is_worse(metric) ? "regression" :
		      "improvement";
	json_object_set_new(o, "metric", metric[0] ? json_string(metric) : json_null());
	json_object_set_new(o, "direction", dir ? json_string(dir) : json_null());
}

json_t *bisect_run_page_json(sqlite3 *db, int64_t id, int limit, int64_t before,
			     int64_t *next)
{
	sqlite3_stmt *st;
	json_t *o, *steps;
	int64_t base_id = 0, lo = -1, hi = -1;
	char culprit[41] = "";

	o = query_json(db, "SELECT json_object('id', b.id, 'state', b.state, 'base',"
		       " ba.name, 'label', b.label, 'good', b.good, 'bad', b.bad,"
		       " 'step_pct', b.step_pct, 'track_id', b.track_id,"
		       " 'change_point_id', b.change_point_id, 'runs', b.runs,"
		       " 'backend', b.backend, 'host_label', b.host_label,"
		       " 'bench', json(b.bench), 'commits', json(b.commits),"
		       " 'failure_reason', b.failure_reason, 'created_at',"
		       " b.created_at, 'finished_at', b.finished_at,"
		       " 'report_alert_id', b.alert_id, 'outcome', b.outcome,"
		       " 'parent_id', b.parent_id) FROM bisections b JOIN"
		       " bases ba ON ba.id = b.base_id WHERE b.id = ?", id, 0);
	*next = 0;
	if (!o)
		return NULL;
	/* A split's two bisections, one each side of its midpoint. */
	json_object_set_new(o, "children", query_json(db, "SELECT json_object("
		"'id', id, 'state', state, 'outcome', outcome, 'good', good, 'bad',"
		" bad, 'culprit', culprit, 'step_pct', step_pct) FROM bisections"
		" WHERE parent_id = ? ORDER BY id", id, 1));
	/* The newest steps from the cursor down, shown in the order run. */
	steps = page_json(db, "SELECT " STEP_JSON " FROM bisection_steps s"
			  " LEFT JOIN experiments e ON e.id = s.experiment_id"
			  " WHERE s.bisection_id = ?1 AND s.id < ?2"
			  " ORDER BY s.id DESC LIMIT ?3", id, before, limit, next);
	json_array_reverse(steps);
	json_object_set_new(o, "steps", steps ? steps : json_array());
	json_object_set_new(o, "next", *next ? json_integer(*next) : json_null());
	st = db_prepare(db, "SELECT base_id, coalesce(culprit, ''),"
			" coalesce(range_lo, -1), coalesce(range_hi, -1)"
			" FROM bisections WHERE id = ?");
	if (st) {
		sqlite3_bind_int64(st, 1, id);
		if (sqlite3_step(st) == SQLITE_ROW) {
			base_id = sqlite3_column_int64(st, 0);
			snprintf(culprit, sizeof(culprit), "%s", sqlite3_column_text(st, 1));
			lo = sqlite3_column_int64(st, 2);
			hi = sqlite3_column_int64(st, 3);
		}
		sqlite3_finalize(st);
	}
	metric_json(db, o, id);
	json_object_set_new(o, "culprit", culprit[0] ?
			    culprit_json(db, id, base_id, culprit) : json_null());
	if (lo >= 0 && hi > lo)
		range_json(o, lo, hi);
	return o;
}

json_t *bisect_run_json(sqlite3 *db, int64_t id)
{
	int64_t next;

	return bisect_run_page_json(db, id, BISECT_STEPS_PAGE, 0, &next);
}

json_t *bisect_run_list_json(sqlite3 *db, int limit, int64_t before, int64_t *next)
{
	return page_json(db, "SELECT json_object('id', b.id, 'state', b.state,"
			 " 'base', ba.name, 'label', b.label, 'good', b.good, 'bad',"
			 " b.bad, 'culprit', b.culprit, 'track_id', b.track_id,"
			 " 'outcome', b.outcome, 'parent_id', b.parent_id,"
			 " 'steps', (SELECT count(*) FROM bisection_steps s WHERE"
			 " s.bisection_id = b.id), 'created_at', b.created_at)"
			 " FROM bisections b JOIN bases ba ON ba.id = b.base_id"
			 " WHERE ?1 = ?1 AND b.id < ?2 ORDER BY b.id DESC LIMIT ?3",
			 0, before, limit, next);
}
