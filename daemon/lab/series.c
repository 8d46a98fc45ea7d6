// SPDX-License-Identifier: MIT
/*
 * Series, change points and tracked baselines: the lab's side of
 * series.h (how they are shown: series_json.h).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/default_base.h"
#include "common/metric_defs.h"
#include "daemon/analysis/changepoint.h"
#include "daemon/analysis/cp_track.h"
#include "daemon/analysis/series_import.h"
#include "daemon/lab/alerts.h"
#include "daemon/lab/planner.h"
#include "daemon/lab/series.h"
#include "daemon/lab/trust.h"
#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "daemon/store/writer.h"

int64_t series_get_or_create(sqlite3 *db, const char *name, const char *metric,
			     int64_t host_id, int64_t baseline_id)
{
	sqlite3_stmt *st = db_prepare(db,
		"INSERT INTO series (name, metric, host_id, baseline_id, created_at)"
		" VALUES (?, ?, NULLIF(?, 0), NULLIF(?, 0), ?) ON CONFLICT (name, metric)"
		" DO UPDATE SET name = excluded.name RETURNING id");
	int64_t id = -1;

	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, metric, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, host_id);
	sqlite3_bind_int64(st, 4, baseline_id);
	sqlite3_bind_int64(st, 5, (int64_t)time(NULL));
	if (sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return id;
}

int series_add_point(sqlite3 *db, int64_t sid, int64_t t, double value,
		     const char *label, int64_t run_id, int64_t exp_id)
{
	sqlite3_stmt *st = db_prepare(db,
		"INSERT INTO series_points (series_id, t, value, label, run_id,"
		" experiment_id, created_at) VALUES (?, ?, ?, ?, NULLIF(?, 0),"
		" NULLIF(?, 0), ?)");
	int ok;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, sid);
	sqlite3_bind_int64(st, 2, t);
	sqlite3_bind_double(st, 3, value);
	if (label && *label)
		sqlite3_bind_text(st, 4, label, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, run_id);
	sqlite3_bind_int64(st, 6, exp_id);
	sqlite3_bind_int64(st, 7, (int64_t)time(NULL));
	ok = sqlite3_step(st) == SQLITE_DONE;
	sqlite3_finalize(st);
	return ok ? 0 : -1;
}

static int higher_is_worse(const char *metric)
{
	return metric_higher_is_worse(metric);
}

static int64_t store_cp(sqlite3 *db, int64_t sid, int64_t pid, int64_t t,
			const struct cp *c, const char *state, time_t now)
{
	sqlite3_stmt *st = db_prepare(db,
		"INSERT INTO change_points (series_id, point_id, t, mean_before,"
		" mean_after, delta_pct, p_value, detected_at, state)"
		" VALUES (?,?,?,?,?,?,?,?,?)");
	int64_t id = -1;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, sid);
	sqlite3_bind_int64(st, 2, pid);
	sqlite3_bind_int64(st, 3, t);
	sqlite3_bind_double(st, 4, c->mean_before);
	sqlite3_bind_double(st, 5, c->mean_after);
	if (isfinite(c->delta_pct))
		sqlite3_bind_double(st, 6, c->delta_pct);
	sqlite3_bind_double(st, 7, c->p);
	sqlite3_bind_int64(st, 8, (int64_t)now);
	sqlite3_bind_text(st, 9, state, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_DONE)
		id = sqlite3_last_insert_rowid(db);
	sqlite3_finalize(st);
	return id;
}

/*
 * A stored change point's new state, and, when this run found it, its
 * location (@pid, @t: where the current detection puts it) and figures.
 */
static int update_cp(sqlite3 *db, int64_t id, const char *state,
		     const struct cp *c, int64_t pid, int64_t t)
{
	sqlite3_stmt *st = db_prepare(db,
		"UPDATE change_points SET state = ?, mean_before = COALESCE(?,"
		" mean_before), mean_after = COALESCE(?, mean_after), delta_pct ="
		" COALESCE(?, delta_pct), p_value = COALESCE(?, p_value), point_id ="
		" COALESCE(?, point_id), t = COALESCE(?, t) WHERE id = ?");
	int ok;

	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, state, -1, SQLITE_STATIC);
	if (c) {
		sqlite3_bind_double(st, 2, c->mean_before);
		sqlite3_bind_double(st, 3, c->mean_after);
		if (isfinite(c->delta_pct))
			sqlite3_bind_double(st, 4, c->delta_pct);
		sqlite3_bind_double(st, 5, c->p);
		sqlite3_bind_int64(st, 6, pid);
		sqlite3_bind_int64(st, 7, t);
	}
	sqlite3_bind_int64(st, 8, id);
	ok = sqlite3_step(st) == SQLITE_DONE;
	sqlite3_finalize(st);
	return ok ? 0 : -1;
}

struct spoints {
	int64_t *ids, *ts;
	double *x;
	size_t n;
	char metric[64];
};

static void spoints_free(struct spoints *p)
{
	free(p->ids);
	free(p->ts);
	free(p->x);
}

static int load_points(sqlite3 *db, int64_t sid, struct spoints *p)
{
	sqlite3_stmt *st = db_prepare(db,
		"SELECT sp.id, sp.t, sp.value FROM series_points sp"
		SERIES_POINTS_JOIN " WHERE sp.series_id = ? ORDER BY"
		SERIES_POINTS_ORDER " LIMIT 200000");
	size_t cap = 0;
	int ret = -1;

	memset(p, 0, sizeof(*p));
	snprintf(p->metric, sizeof(p->metric), "iops");
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, sid);
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (p->n == cap) {
			int64_t *i, *t;
			double *x;

			cap = cap ? 2 * cap : 256;
			i = realloc(p->ids, cap * sizeof(*i));
			if (i)
				p->ids = i;
			t = realloc(p->ts, cap * sizeof(*t));
			if (t)
				p->ts = t;
			x = realloc(p->x, cap * sizeof(*x));
			if (x)
				p->x = x;
			if (!i || !t || !x)
				goto out;
		}
		p->ids[p->n] = sqlite3_column_int64(st, 0);
		p->ts[p->n] = sqlite3_column_int64(st, 1);
		p->x[p->n++] = sqlite3_column_double(st, 2);
	}
	sqlite3_finalize(st);
	st = db_prepare(db, "SELECT metric FROM series WHERE id = ?");
	if (st) {
		sqlite3_bind_int64(st, 1, sid);
		if (sqlite3_step(st) == SQLITE_ROW)
			snprintf(p->metric, sizeof(p->metric), "%s",
				 sqlite3_column_text(st, 0));
	}
	ret = 0;
out:
	sqlite3_finalize(st);
	return ret;
}

/* Detection and merge on x[0..n): the change points in a new array. */
static int detect(const double *x, size_t n, const struct cp_opts *o,
		  struct cp **out)
{
	size_t max = n / 5 + 1;
	int k;

	*out = calloc(max, sizeof(**out));
	if (!*out)
		return -1;
	if (n < 2 * (size_t)o->min_size)
		return 0;
	k = cp_detect(x, n, o, *out, max);
	return k < 0 ? -1 : cp_merge(x, n, o, *out, (size_t)k);
}

static int is_worse(const char *metric, const struct cp *c)
{
	return higher_is_worse(metric) ? c->delta_pct > 0 : c->delta_pct < 0;
}

static const char *const cp_state_name[] = {
	[CP_CANDIDATE] = "candidate",
	[CP_CONFIRMED] = "confirmed",
	[CP_RETRACTED] = "retracted",
};

static enum cp_state cp_state_of(const char *s)
{
	return !strcmp(s, "confirmed") ? CP_CONFIRMED :
	       !strcmp(s, "candidate") ? CP_CANDIDATE : CP_RETRACTED;
}

struct srows {
	int64_t *id;
	struct cp_row *r;
	size_t n;
};

/* The stored change points of @sid at their point's index in @p. */
static int load_rows(sqlite3 *db, int64_t sid, const struct spoints *p,
		     struct srows *rows)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT id, point_id, state FROM"
				      " change_points WHERE series_id = ? ORDER BY id");
	size_t cap = 0;
	int ret = -1;

	memset(rows, 0, sizeof(*rows));
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, sid);
	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t pid = sqlite3_column_int64(st, 1);
		long idx = -1;

		for (size_t i = 0; i < p->n && idx < 0; i++)
			if (p->ids[i] == pid)
				idx = (long)i;
		if (rows->n == cap) {
			int64_t *i;
			struct cp_row *r;

			cap = cap ? 2 * cap : 16;
			i = realloc(rows->id, cap * sizeof(*i));
			if (i)
				rows->id = i;
			r = realloc(rows->r, cap * sizeof(*r));
			if (r)
				rows->r = r;
			if (!i || !r)
				goto out;
		}
		rows->id[rows->n] = sqlite3_column_int64(st, 0);
		/* A row whose point is gone can match nothing: retracted. */
		rows->r[rows->n++] = (struct cp_row){
			.index = idx < 0 ? SIZE_MAX / 2 : (size_t)idx,
			.state = idx < 0 ? CP_RETRACTED :
				 cp_state_of((const char *)sqlite3_column_text(st, 2)),
		};
	}
	ret = 0;
out:
	sqlite3_finalize(st);
	return ret;
}

/*
 * Stored change points against this run (@cur) and the run before the
 * last point (@prev), by cp_track_reconcile(): rows move to the current
 * detection's location, gone ones are retracted, new ones are stored.
 * Inside a transaction; @alert gets the ids of rows just confirmed that
 * make the metric worse. Returns new rows or -1.
 */
static int reconcile(sqlite3 *db, int64_t sid, const struct spoints *p,
		     const struct cp *cur, int k, const struct cp *prev,
		     int kp, const struct cp_opts *o, int64_t *alert,
		     size_t *nalert, time_t now)
{
	unsigned char *fresh = calloc((size_t)k + 1, 1);
	struct srows rows;
	int nfresh = 0, ret = -1;

	if (load_rows(db, sid, p, &rows) || !fresh)
		goto out;
	cp_track_reconcile(rows.r, rows.n, cur, (size_t)k, prev, (size_t)kp,
			   (size_t)o->min_size, fresh);
	for (size_t i = 0; i < rows.n; i++) {
		const struct cp_row *r = &rows.r[i];
		const struct cp *c = r->match >= 0 ? &cur[r->match] : NULL;

		if (update_cp(db, rows.id[i], cp_state_name[r->state], c,
			      c ? p->ids[c->index] : 0, c ? p->ts[c->index] : 0))
			goto out;
		if (r->promoted && is_worse(p->metric, c))
			alert[(*nalert)++] = rows.id[i];
	}
	for (int c = 0; c < k; c++) {
		enum cp_state s = (enum cp_state)(fresh[c] - 1);
		int64_t id;

		if (!fresh[c])
			continue;
		id = store_cp(db, sid, p->ids[cur[c].index], p->ts[cur[c].index],
			      &cur[c], cp_state_name[s], now);
		if (id < 0)
			goto out;
		nfresh++;
		if (s == CP_CONFIRMED && is_worse(p->metric, &cur[c]))
			alert[(*nalert)++] = id;
	}
	ret = nfresh;
out:
	free(rows.id);
	free(rows.r);
	free(fresh);
	return ret;
}

int series_detect(sqlite3 *db, int64_t sid, time_t now)
{
	struct cp_opts o;

	cp_opts_default(&o);
	return series_detect_opts(db, sid, &o, now);
}

int series_detect_opts(sqlite3 *db, int64_t sid, const struct cp_opts *opts,
		       time_t now)
{
	struct cp *cur = NULL, *prev = NULL;
	struct spoints p;
	struct cp_opts o = *opts;
	int64_t *alert = NULL;
	size_t nalert = 0;
	int k, kp, fresh, ret = -1;

	if (load_points(db, sid, &p))
		goto out;
	o.seed ^= (uint64_t)sid;
	/* The run before the last point, and the full re-run. */
	kp = detect(p.x, p.n ? p.n - 1 : 0, &o, &prev);
	k = kp < 0 ? -1 : detect(p.x, p.n, &o, &cur);
	if (k < 0)
		goto out;
	/* Every stored row may alert at most once: bound by both counts. */
	alert = calloc((size_t)k + (size_t)db_int(db, 0, "SELECT count(*) FROM"
				" change_points WHERE series_id = ?", 1, sid) + 1,
		       sizeof(*alert));
	if (!alert || db_begin(db))
		goto out;
	fresh = reconcile(db, sid, &p, cur, k, prev, kp, &o, alert, &nalert, now);
	if (fresh < 0 || db_commit(db)) {
		db_rollback(db);
		goto out;
	}
	/* Alerts have their own transactions. */
	for (size_t i = 0; i < nalert; i++)
		if (alerts_raise_change_point(db, alert[i], 1, now) < 0)
			goto out;
	ret = fresh;
out:
	spoints_free(&p);
	free(cur);
	free(prev);
	free(alert);
	return ret;
}

/* ---- baselines ------------------------------------------------------------------ */

static int64_t queue_baseline(sqlite3 *db, sqlite3_stmt *row,
			      struct lab_err *err)
{
	struct variant_spec v = { .name = "base", .is_control = true,
				  .cmdline = "", .setup = "" };
	struct experiment_spec e = {
		.title = (const char *)sqlite3_column_text(row, 1),
		.kind = "baseline",
		.label = (const char *)sqlite3_column_text(row, 3),
		.backend = (const char *)sqlite3_column_text(row, 4),
		.config = "",
		.base_id = sqlite3_column_int64(row, 2),
		.bench_json = (const char *)sqlite3_column_text(row, 5),
		.runs = sqlite3_column_int(row, 6),
		.max_runs = sqlite3_column_int(row, 6),
		.baseline_id = sqlite3_column_int64(row, 0),
		.variants = &v,
		.nvariants = 1,
	};

	return planner_create(db, &e, err);
}

int series_baselines_tick(sqlite3 *db, time_t now)
{
	sqlite3_stmt *st;
	struct lab_err err;
	int queued = 0;

	if (db_begin(db))
		return -1;
	st = db_prepare(db,
		"SELECT b.id, b.name, b.base_id, b.label, b.backend, b.bench, b.runs,"
		" b.schedule_seconds FROM baselines b WHERE b.enabled = 1 AND"
		" COALESCE(b.next_run_at, 0) <= ? AND NOT EXISTS (SELECT 1 FROM"
		" experiments e WHERE e.baseline_id = b.id AND e.state IN"
		" ('queued', 'running'))");
	if (!st)
		goto fail;
	sqlite3_bind_int64(st, 1, (int64_t)now);
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (queue_baseline(db, st, &err) < 0) {
			fprintf(stderr, "perflabd: baseline %s: %s\n",
				sqlite3_column_text(st, 1), err.msg);
			goto fail;
		}
		if (db_int(db, -1, "UPDATE baselines SET next_run_at = ? + ?"
			   " WHERE id = ? RETURNING id", 3, (int64_t)now,
			   sqlite3_column_int64(st, 7),
			   sqlite3_column_int64(st, 0)) < 0)
			goto fail;
		queued++;
	}
	sqlite3_finalize(st);
	return db_commit(db) ? -1 : queued;
fail:
	sqlite3_finalize(st);
	db_rollback(db);
	return -1;
}

int64_t series_import(sqlite3 *db, const char *name, const char *metric,
		      const struct series_point_in *pts, size_t n, int *fresh,
		      struct lab_err *e)
{
	sqlite3 *w = db_write_lock(db);
	int64_t sid = -1;

	*fresh = 0;
	if (db_begin(w)) {
		lab_fail_db(e, w);
		goto out;
	}
	sid = series_get_or_create(w, name, metric, 0, 0);
	for (size_t i = 0; sid >= 0 && i < n; i++)
		if (series_add_point(w, sid, pts[i].t, pts[i].v, pts[i].label, 0, 0))
			sid = -1;
	if (sid < 0 || db_commit(w)) {
		lab_fail_db(e, w);
		sid = -1;
		goto out;
	}
	*fresh = series_detect(w, sid, time(NULL));
	if (*fresh < 0)
		*fresh = 0;
out:
	db_write_unlock(db, w);
	return sid;
}

int64_t series_baseline_create(sqlite3 *db, const struct baseline_spec *b,
			       struct lab_err *e)
{
	const char *base = b->base ? b->base : PERFLAB_DEFAULT_BASE;
	sqlite3 *w = db_write_lock(db);
	sqlite3_stmt *st = NULL;
	int64_t base_id, id = -1;

	if (b->backend && trust_backend_check(w, b->backend, e))
		goto out;
	/* Git bases have no tree to re-run: their history is a track's. */
	st = db_prepare(w, "SELECT CASE kind WHEN 'git' THEN 0 ELSE id END"
			" FROM bases WHERE name = ?");
	if (!st) {
		lab_fail_db(e, w);
		goto out;
	}
	sqlite3_bind_text(st, 1, base, -1, SQLITE_STATIC);
	base_id = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
	sqlite3_finalize(st);
	st = NULL;
	if (base_id < 0) {
		lab_fail(e, LAB_REJECTED, "no such base \"%s\"", base);
		goto out;
	}
	if (base_id == 0) {
		lab_fail(e, LAB_REJECTED, "base \"%s\" is a git base: track it"
			 " (POST /api/v1/tracks)", base);
		goto out;
	}
	st = db_prepare(w, "INSERT INTO baselines (name, base_id, label, backend,"
			" bench, runs, schedule_seconds, next_run_at, created_at)"
			" VALUES (?,?,?,?,?,?,?,?,?)");
	if (!st) {
		lab_fail_db(e, w);
		goto out;
	}
	sqlite3_bind_text(st, 1, b->name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, base_id);
	if (b->label)
		sqlite3_bind_text(st, 3, b->label, -1, SQLITE_STATIC);
	if (b->backend)
		sqlite3_bind_text(st, 4, b->backend, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, b->bench_json, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 6, b->runs);
	sqlite3_bind_int64(st, 7, b->schedule_seconds);
	sqlite3_bind_int64(st, 8, (int64_t)time(NULL));
	sqlite3_bind_int64(st, 9, (int64_t)time(NULL));
	if (sqlite3_step(st) == SQLITE_DONE)
		id = sqlite3_last_insert_rowid(w);
	else if (sqlite3_extended_errcode(w) == SQLITE_CONSTRAINT_UNIQUE)
		lab_fail(e, LAB_CONFLICT, "baseline \"%s\" exists", b->name);
	else
		lab_fail_db(e, w);
out:
	sqlite3_finalize(st);
	db_write_unlock(db, w);
	return id;
}
