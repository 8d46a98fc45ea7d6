// SPDX-License-Identifier: MIT
/*
 * Series and baselines as JSON; see series_json.h.
 */
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

/* [[t, value], ...] */
static json_t *point_pairs(sqlite3 *db, int64_t id)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT t, value FROM series_points"
				      " WHERE series_id = ? ORDER BY t, id");
	json_t *a = json_array();

	if (!st)
		return a;
	sqlite3_bind_int64(st, 1, id);
	while (sqlite3_step(st) == SQLITE_ROW)
		json_array_append_new(a, json_pack("[I,f]",
			(json_int_t)sqlite3_column_int64(st, 0),
			sqlite3_column_double(st, 1)));
	sqlite3_finalize(st);
	return a;
}

json_t *series_json(sqlite3 *db, int64_t id, bool pairs)
{
	json_t *arr = rows_for(db, "SELECT id, name, metric, host_id, baseline_id,"
			       " label, created_at FROM series WHERE id = ?", id);
	json_t *s = json_incref(json_array_get(arr, 0));

	json_decref(arr);
	if (!s)
		return NULL;
	if (pairs)
		json_object_set_new(s, "points", point_pairs(db, id));
	else
		json_object_set_new(s, "points", rows_for(db,
			"SELECT sp.id AS id, sp.t AS t, sp.value AS value, sp.label"
			" AS label, sp.run_id AS run_id, sp.experiment_id AS"
			" experiment_id FROM series_points sp" SERIES_POINTS_JOIN
			" WHERE sp.series_id = ? ORDER BY" SERIES_POINTS_ORDER, id));
	json_object_set_new(s, "change_points", rows_for(db,
		"SELECT c.id, c.point_id, c.t, p.label, c.mean_before, c.mean_after,"
		" c.delta_pct, c.p_value, c.detected_at, c.state FROM change_points c"
		" LEFT JOIN series_points p ON p.id = c.point_id WHERE c.series_id = ?"
		" AND c.state != 'retracted' ORDER BY c.t", id));
	return s;
}
