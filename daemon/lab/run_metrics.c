// SPDX-License-Identifier: MIT
/*
 * run_metrics rows; see run_metrics.h. Values keep the type the bench
 * reported: counts ('i') are bound as integers, everything else as reals,
 * so the API shows what the bench wrote.
 */
#include <stddef.h>

#include "daemon/lab/run_metrics.h"
#include "daemon/store/db.h"
#include "daemon/store/sql.h"

json_t *run_metrics_get(json_t *bench, const struct metric_def *m)
{
	const char *key;
	char obj[64];

	if (metric_path_split(m, obj, sizeof(obj), &key))
		return NULL;
	return json_object_get(*obj ? json_object_get(bench, obj) : bench, key);
}

int run_metrics_store(sqlite3 *db, int64_t run, json_t *bench)
{
	sqlite3_stmt *st = db_prepare(db, "INSERT INTO run_metrics (run_id,"
				      " metric, value) VALUES (?,?,?)");
	size_t i;
	int rc = 0;

	if (!st)
		return -1;
	for (i = 0; i < metric_defs_count && !rc; i++) {
		const struct metric_def *m = &metric_defs[i];
		json_t *v = run_metrics_get(bench, m);

		if (!json_is_number(v))
			continue;
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, run);
		sqlite3_bind_text(st, 2, m->name, -1, SQLITE_STATIC);
		if (m->type == 'i' && json_is_integer(v))
			sqlite3_bind_int64(st, 3, json_integer_value(v));
		else
			sqlite3_bind_double(st, 3, json_number_value(v));
		rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
	}
	sqlite3_finalize(st);
	return rc;
}

/* Set @m's path in run object @run to @v (stolen). */
static void put(json_t *run, const struct metric_def *m, json_t *v)
{
	const char *key;
	char obj[64];
	json_t *dst = run;

	if (metric_path_split(m, obj, sizeof(obj), &key)) {
		json_decref(v);
		return;
	}
	if (*obj) {
		dst = json_object_get(run, obj);
		if (!json_is_object(dst)) {
			dst = json_object();
			json_object_set_new(run, obj, dst);
		}
	}
	json_object_set_new(dst, key, v);
}

static json_t *value_json(sqlite3_stmt *st, int i)
{
	if (sqlite3_column_type(st, i) == SQLITE_INTEGER)
		return json_integer(sqlite3_column_int64(st, i));
	return json_real(sqlite3_column_double(st, i));
}

void run_metrics_attach(sqlite3 *db, json_t *runs, int64_t exp)
{
	sqlite3_stmt *st;
	size_t i, k, n = json_array_size(runs);

	for (i = 0; i < n; i++)
		for (k = 0; k < metric_defs_count; k++)
			put(json_array_get(runs, i), &metric_defs[k], json_null());
	st = db_prepare(db, "SELECT m.run_id, m.metric, m.value FROM run_metrics m"
			" JOIN runs r ON r.id = m.run_id WHERE r.experiment_id = ?"
			" ORDER BY m.run_id");
	if (!st)
		return;
	sqlite3_bind_int64(st, 1, exp);
	i = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);
		const struct metric_def *m;
		json_t *run;

		while (i < n && json_integer_value(json_object_get(
				json_array_get(runs, i), "id")) < id)
			i++;
		if (i == n)
			break;
		run = json_array_get(runs, i);
		m = metric_def_find((const char *)sqlite3_column_text(st, 1));
		if (m && json_integer_value(json_object_get(run, "id")) == id)
			put(run, m, value_json(st, 2));
	}
	sqlite3_finalize(st);
}
