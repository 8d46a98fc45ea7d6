// SPDX-License-Identifier: MIT
/*
 * Series and baselines as JSON; see series_json.h.
 */
#include <stdint.h>

#include "daemon/lab/series.h"
#include "daemon/lab/series_json.h"
#include "daemon/store/json.h"
#include "daemon/store/sql.h"

/* The rows of @sql (?1 bound to @id when it is one), [] on error. */
static json_t *rows_for(sqlite3 *db, const char *sql, int64_t id)
{
	json_t *a = id >= 0 ? json_query_id(db, sql, id) : json_query(db, sql);

	return a ? a : json_array();
}

json_t *series_baselines_json(sqlite3 *db)
{
	return rows_for(db,
		"SELECT b.id, b.name, ba.name AS base, b.label, b.backend,"
		" b.bench AS bench_json, b.runs, b.schedule_seconds, b.next_run_at,"
		" b.enabled, b.created_at, (SELECT json_group_array(s.id) FROM series s"
		" WHERE s.baseline_id = b.id) AS series_json FROM baselines b"
		" JOIN bases ba ON ba.id = b.base_id ORDER BY b.id", -1);
}

json_t *series_list_json(sqlite3 *db)
{
	return rows_for(db,
		"SELECT s.id, s.name, s.metric, s.host_id, s.baseline_id, s.label,"
		" (SELECT count(*) FROM series_points p WHERE p.series_id = s.id)"
		" AS points, (SELECT count(*) FROM change_points c WHERE"
		" c.series_id = s.id AND c.state != 'retracted') AS change_points"
		" FROM series s ORDER BY s.id", -1);
}

int64_t series_find(sqlite3 *db, const char *name, const char *metric)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT id FROM series WHERE name = ?"
				      " AND metric = ?");
	int64_t id = -1;

	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, metric, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return id;
}

/* The series' points page: newest first from the cursor, @limit + 1. */
static sqlite3_stmt *page_stmt(sqlite3 *db, int64_t id, int limit, int64_t before,
			       struct lab_err *e)
{
	int64_t tid = db_int(db, 0, "SELECT id FROM tracks WHERE series_id = ?", 1, id);
	sqlite3_stmt *st, *c;
	int found = 1;

	/* A track's series in the track's commit order, others by time:
	 * SERIES_POINTS_ORDER, each a search of an index from the cursor. */
	st = db_prepare(db, tid ?
		"SELECT sp.id, sp.t, sp.value, sp.label, sp.run_id, sp.experiment_id"
		" FROM track_points tp JOIN series_points sp ON sp.id = tp.point_id"
		" WHERE tp.track_id = ?1 AND tp.id < ?2 AND sp.series_id = ?3"
		" ORDER BY tp.id DESC LIMIT ?5" :
		"SELECT sp.id, sp.t, sp.value, sp.label, sp.run_id, sp.experiment_id"
		" FROM series_points sp WHERE sp.series_id = ?3 AND (sp.t, sp.id) <"
		" (?2, ?4) ORDER BY sp.t DESC, sp.id DESC LIMIT ?5");
	if (!st)
		return lab_fail_db(e, db), NULL;
	sqlite3_bind_int64(st, 1, tid);
	sqlite3_bind_int64(st, 2, INT64_MAX);
	sqlite3_bind_int64(st, 3, id);
	sqlite3_bind_int64(st, 4, INT64_MAX);
	sqlite3_bind_int(st, 5, limit + 1);
	if (before > 0) {
		c = db_prepare(db, tid ?
			"SELECT tp.id, 0 FROM series_points sp JOIN track_points tp ON"
			" tp.experiment_id = sp.experiment_id AND tp.point_id = sp.id"
			" WHERE sp.id = ?1 AND sp.series_id = ?2 AND tp.track_id = ?3" :
			"SELECT t, id FROM series_points WHERE id = ?1 AND series_id = ?2"
			" AND ?3 = ?3");
		found = 0;
		if (c) {
			sqlite3_bind_int64(c, 1, before);
			sqlite3_bind_int64(c, 2, id);
			sqlite3_bind_int64(c, 3, tid);
			if (sqlite3_step(c) == SQLITE_ROW) {
				sqlite3_bind_int64(st, 2, sqlite3_column_int64(c, 0));
				sqlite3_bind_int64(st, 4, sqlite3_column_int64(c, 1));
				found = 1;
			}
			sqlite3_finalize(c);
		}
	}
	if (!found) {
		sqlite3_finalize(st);
		return lab_fail(e, LAB_INVALID, "before must be the next of a page"
				" of this series"), NULL;
	}
	return st;
}

/* [t, value] pairs of @st's rows, the page's cursor in *@next. */
static json_t *pairs_of(sqlite3_stmt *st, int limit, int64_t *next)
{
	json_t *a = json_array();
	int n = 0;

	while (a && sqlite3_step(st) == SQLITE_ROW) {
		if (n++ == limit) {
			*next = json_integer_value(json_array_get(json_array_get(a,
					(size_t)limit - 1), 2));
			break;
		}
		json_array_append_new(a, json_pack("[I,f,I]",
			(json_int_t)sqlite3_column_int64(st, 1),
			sqlite3_column_double(st, 2),
			(json_int_t)sqlite3_column_int64(st, 0)));
	}
	return a;
}

/* Rows, or [t, value] pairs; in the series' order. */
static json_t *points_page(sqlite3 *db, int64_t id, bool pairs, int limit,
			   int64_t before, int64_t *next, struct lab_err *e)
{
	sqlite3_stmt *st = page_stmt(db, id, limit, before, e);
	json_t *a, *o;
	size_t i;

	if (!st)
		return NULL;
	/* Pairs straight from the rows: what a chart of 10000 points reads. */
	a = pairs ? pairs_of(st, limit, next) : json_rows(st);
	sqlite3_finalize(st);
	if (!a)
		return lab_fail_db(e, db), NULL;
	if (pairs)
		json_array_foreach(a, i, o)
			json_array_remove(o, 2);	/* the id: the cursor's */
	else
		*next = json_page_next(a, limit, "id");
	json_array_reverse(a);
	return a;
}

json_t *series_page_json(sqlite3 *db, int64_t id, bool pairs, int limit,
			 int64_t before, int64_t *next, struct lab_err *e)
{
	json_t *arr = rows_for(db, "SELECT id, name, metric, host_id, baseline_id,"
			       " label, created_at FROM series WHERE id = ?", id);
	json_t *s = json_incref(json_array_get(arr, 0)), *pts;

	*next = 0;
	json_decref(arr);
	if (!s)
		return lab_fail(e, LAB_NOT_FOUND, "no such series"), NULL;
	pts = points_page(db, id, pairs, limit, before, next, e);
	if (!pts) {
		json_decref(s);
		return NULL;
	}
	json_object_set_new(s, "points", pts);
	json_object_set_new(s, "next", *next ? json_integer(*next) : json_null());
	json_object_set_new(s, "change_points", rows_for(db,
		"SELECT c.id, c.point_id, c.t, p.label, c.mean_before, c.mean_after,"
		" c.delta_pct, c.p_value, c.detected_at, c.state FROM change_points c"
		" LEFT JOIN series_points p ON p.id = c.point_id WHERE c.series_id = ?"
		" AND c.state != 'retracted' ORDER BY c.t", id));
	return s;
}

json_t *series_json(sqlite3 *db, int64_t id, bool pairs)
{
	struct lab_err e;
	int64_t next;

	return series_page_json(db, id, pairs, SERIES_POINTS_PAGE, 0, &next, &e);
}
