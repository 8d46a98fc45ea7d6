// SPDX-License-Identifier: MIT
/*
 * Experiments as the API shows them; see experiment_json.h. The JSON
 * shapes are written here once, for GET /api/v1/experiments[/{id}]
 * (docs/api.md): column aliases name the members ("a.b" a member of
 * object "a", "x_json" JSON text), store/json.c turns rows into objects.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/benchargs.h"
#include "common/metric_defs.h"
#include "daemon/analysis/lkp_table.h"
#include "daemon/lab/bases.h"
#include "daemon/lab/experiment_json.h"
#include "daemon/lab/lava.h"
#include "daemon/lab/run_metrics.h"
#include "daemon/store/db.h"
#include "daemon/store/json.h"
#include "daemon/store/sql.h"

static const char *const exp_states[] = { "queued", "running", "done",
	"failed", "cancelled", NULL };

int experiment_state_valid(const char *state)
{
	for (int i = 0; exp_states[i]; i++)
		if (!strcmp(exp_states[i], state))
			return 1;
	return 0;
}

#define LIST_SELECT \
	"SELECT e.id, e.title, e.kind, e.state, e.label, e.backend," \
	" b.name AS base, h.name AS host, k.name AS submitter, e.runs AS runs_planned," \
	" e.max_runs, e.created_at, e.started_at, e.finished_at, e.failure_reason," \
	" CASE WHEN e.analysis_pending THEN 'true' ELSE 'false' END AS analysis_pending_json," \
	" (SELECT count(*) FROM jobs j WHERE j.experiment_id = e.id) AS \"progress.jobs_total\"," \
	" (SELECT count(*) FROM jobs j WHERE j.experiment_id = e.id AND j.state = 'done') AS \"progress.jobs_done\"," \
	" (SELECT count(*) FROM jobs j WHERE j.experiment_id = e.id AND j.state IN ('failed', 'cancelled')) AS \"progress.jobs_failed\"," \
	" (SELECT json_group_array(json_object('variant', v.name, 'verdict', c.verdict," \
	"   'delta_pct', c.delta_pct, 'mde_pct', c.mde_pct, 'metric', c.metric))" \
	"   FROM comparisons c JOIN variants v ON v.id = c.variant_id" \
	"   WHERE c.id IN (SELECT max(id) FROM comparisons WHERE experiment_id = e.id" \
	"   GROUP BY variant_id, metric)) AS verdicts_json" \
	" FROM experiments e JOIN bases b ON b.id = e.base_id" \
	" LEFT JOIN hosts h ON h.id = e.host_id LEFT JOIN api_keys k ON k.id = e.submitter_key_id"

json_t *experiments_list_json(sqlite3 *db, const char *state, int limit,
			      int64_t before, int64_t *next)
{
	/* Without "?1 IS NULL OR": each form is one search of an index,
	 * (state, id) or the rowid, from the cursor down. */
	sqlite3_stmt *st = db_prepare(db, state ?
		LIST_SELECT " WHERE e.state = ?1 AND e.id < ?2 ORDER BY e.id DESC LIMIT ?3" :
		LIST_SELECT " WHERE e.id < ?2 ORDER BY e.id DESC LIMIT ?3");
	json_t *a;

	*next = 0;
	if (!st)
		return NULL;
	if (state)
		sqlite3_bind_text(st, 1, state, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, before > 0 ? before : INT64_MAX);
	sqlite3_bind_int(st, 3, limit + 1);
	a = json_rows(st);
	sqlite3_finalize(st);
	*next = json_page_next(a, limit, "id");
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

/* The experiments row: base, host, submitter, config and bench. */
static json_t *experiment_row(sqlite3 *db, int64_t id)
{
	sqlite3_stmt *st;
	json_t *o;

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
		" AS analysis_pending_json,"
		" CASE WHEN e.pinned THEN 'true' ELSE 'false' END AS pinned_json,"
		" e.compacted_at"
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
	bases_redact_json(json_object_get(o, "base"));
	return o;
}

/* Jobs by state. */
static json_t *progress_json(sqlite3 *db, int64_t id)
{
	sqlite3_stmt *st;
	json_t *p = NULL;

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
			p = json_row(st);
		sqlite3_finalize(st);
	}
	return p;
}

/* The variants with their patches (and the patches' files). */
static json_t *variants_json(sqlite3 *db, int64_t id)
{
	json_t *a;

	a = json_query_id(db, "SELECT id, name, CASE WHEN is_control THEN 'true' ELSE 'false' END"
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
	return a;
}

/* The runs with their per-second samples and metric values. */
static json_t *runs_json(sqlite3 *db, int64_t id)
{
	json_t *a;

	a = json_query_id(db,
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
		" r.compacted_at, r.created_at FROM runs r JOIN variants v ON v.id = r.variant_id"
		" JOIN hosts h ON h.id = r.host_id LEFT JOIN builds bu ON bu.id = r.build_id"
		" WHERE r.experiment_id = ? ORDER BY r.id", id);
	attach(db, a, "samples",
	       "SELECT s.run_id AS owner, s.t, s.iops, s.ios_per_submit, s.ios_per_reap,"
	       " s.inflight FROM samples s JOIN runs r ON r.id = s.run_id"
	       " WHERE r.experiment_id = ? ORDER BY s.run_id, s.t", id);
	run_metrics_attach(db, a, id);
	return a;
}

static json_t *experiment_rows(sqlite3 *db, int64_t id)
{
	json_t *o = experiment_row(db, id);

	if (!o)
		return NULL;
	json_object_set_new(o, "progress", progress_json(db, id));
	json_object_set_new(o, "variants", variants_json(db, id));
	json_object_set_new(o, "jobs", json_query_id(db,
		"SELECT j.id, j.variant_id, v.name AS variant, j.run_index, j.seq, j.state,"
		" j.attempt, j.phase, j.message, h.name AS host, j.lease_expires,"
		" j.failure_reason, substr(j.failure_log, -65536) AS failure_log,"
		" length(j.failure_log) AS failure_log_bytes, j.claimed_at, j.finished_at"
		" FROM jobs j JOIN variants v ON v.id = j.variant_id"
		" LEFT JOIN hosts h ON h.id = j.lease_host_id WHERE j.experiment_id = ?"
		" ORDER BY j.seq", id));
	/* Jobs that ran through a LAVA lab: LAVA's ids and links. */
	json_object_set_new(o, "lava_jobs", lava_experiment_jobs(db, id));
	json_object_set_new(o, "runs", runs_json(db, id));
	json_object_set_new(o, "comparison", json_query_id(db,
		"SELECT c.id, c.variant_id, v.name AS variant, cv.name AS control,"
		" c.metric, c.verdict, c.delta_pct, c.ci_low, c.ci_high, c.p_value,"
		" c.mde_pct, c.runs, c.result AS result_json, c.computed_at"
		" FROM comparisons c JOIN variants v ON v.id = c.variant_id"
		" JOIN variants cv ON cv.id = c.control_variant_id"
		" WHERE c.id IN (SELECT max(id) FROM comparisons WHERE experiment_id = ?1"
		" GROUP BY variant_id, metric) ORDER BY v.idx, c.metric", id));
	return o;
}

/* The command line perflab-bench runs, from the bench object of @o. */
static void set_command(json_t *o, const char *bench_key, const char *target)
{
	char *cmd = benchargs_command(json_object_get(o, bench_key), target);

	json_object_set_new(o, "bench_command", cmd ? json_string(cmd) : json_null());
	free(cmd);
}

/* Each variant's run values of every metric with a direction. */
static void lkp_side(struct lkp_table_side *s, json_t *v, json_t *runs,
		     const struct metric_def **m, size_t nm, double *buf)
{
	int64_t vid = json_integer_value(json_object_get(v, "id"));
	size_t i, n = 0;
	json_t *r;

	s->name = json_string_value(json_object_get(v, "name"));
	s->value = buf;
	json_array_foreach(runs, i, r)
		n += json_integer_value(json_object_get(r, "variant_id")) == vid;
	s->nruns = n;
	n = 0;
	json_array_foreach(runs, i, r) {
		if (json_integer_value(json_object_get(r, "variant_id")) != vid)
			continue;
		for (size_t k = 0; k < nm; k++) {
			json_t *x = run_metrics_get(r, m[k]);

			buf[k * s->nruns + n] = json_is_number(x) ?
				json_number_value(x) : NAN;
		}
		n++;
	}
}

/* The metrics with a direction, in the table's order; their count. */
static size_t directed(const struct metric_def **m, const char **names)
{
	size_t n = 0;

	for (size_t i = 0; i < metric_defs_count; i++)
		if (metric_defs[i].dir != METRIC_NEUTRAL) {
			m[n] = &metric_defs[i];
			names[n++] = metric_defs[i].name;
		}
	return n;
}

/* "lkp": the LKP comparison table of the runs so far (null before the
 * control has one), the control first, the others in their order. */
static char *lkp_text(json_t *vars, json_t *runs)
{
	size_t nv = json_array_size(vars), nr = json_array_size(runs), nm, i, k = 0;
	const struct metric_def **m = calloc(metric_defs_count, sizeof(*m));
	const char **names = calloc(metric_defs_count, sizeof(*names));
	struct lkp_table_side *sides = calloc(nv + 1, sizeof(*sides)), ctl = { 0 };
	double *buf = calloc((nv + 1) * (nr + 1) * (metric_defs_count + 1),
			     sizeof(*buf));
	char *text = NULL;
	json_t *v;

	if (!m || !names || !sides || !buf || !nv)
		goto out;
	nm = directed(m, names);
	json_array_foreach(vars, i, v) {
		struct lkp_table_side s;

		lkp_side(&s, v, runs, m, nm, buf + i * (nr + 1) * nm);
		if (!ctl.name && json_is_true(json_object_get(v, "is_control")))
			ctl = s;
		else
			sides[k++] = s;
	}
	if (ctl.name)
		text = lkp_table_text(names, nm, &ctl, sides, k);
out:
	free(m);
	free(names);
	free(sides);
	free(buf);
	return text;
}

/* What the daemon renders from the rows: command lines, the LKP table. */
static void add_views(json_t *o)
{
	json_t *r;
	size_t i;

	char *lkp;

	set_command(o, "bench", "<target>");
	json_array_foreach(json_object_get(o, "runs"), i, r)
		set_command(r, "params", "<target>");
	lkp = lkp_text(json_object_get(o, "variants"), json_object_get(o, "runs"));
	json_object_set_new(o, "lkp", lkp ? json_string(lkp) : json_null());
	free(lkp);
}

json_t *experiment_json(sqlite3 *db, int64_t id)
{
	json_t *o;

	/* One snapshot for all the queries. */
	db_exec(db, "BEGIN");
	o = experiment_rows(db, id);
	db_exec(db, "COMMIT");
	if (o)
		add_views(o);
	return o;
}
