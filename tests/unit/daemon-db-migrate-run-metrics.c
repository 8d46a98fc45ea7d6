// SPDX-License-Identifier: MIT
/*
 * Description: a version-6 database (run values in columns of runs)
 * migrates to run_metrics without losing a value or its type: every
 * column becomes the row of its metric, NULL columns no row, the old
 * columns are gone, and GET /api/v1/experiments/{id} shows the migrated
 * values at the same JSON paths as before (summary.mean, cpu.*, ...).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/metric_defs.h"
#include "daemon/lab/experiment_json.h"
#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "daemon/store/migrations.h"
#include "unit/check.h"

static void exec_ok(sqlite3 *db, const char *sql)
{
	CHECK(db_exec(db, sql) == 0, "%s: %s", sql, sqlite3_errmsg(db));
}

/* @key of the object at @obj in run @i of @exp, or NULL. */
static json_t *run_val(json_t *exp, size_t i, const char *obj, const char *key)
{
	json_t *run = json_array_get(json_object_get(exp, "runs"), i);

	return json_object_get(json_object_get(run, obj), key);
}

int main(void)
{
	char path[] = "/tmp/perflab-unit-rm.XXXXXX", err[512];
	struct migration old[16];
	size_t k, n = 0;
	json_t *exp, *v;
	sqlite3 *db;
	int fd = mkstemp(path);

	if (fd < 0)
		return 77;
	close(fd);
	for (k = 0; k < perflab_migrations_count && n < 16; k++)
		if (perflab_migrations[k].version <= 6)
			old[n++] = perflab_migrations[k];
	db = db_open(path, err, sizeof(err));
	CHECK(db && db_migrate_with(db, old, n, err, sizeof(err)) == 6,
	      "version 6: %s", err);
	if (!db)
		return 1;
	exec_ok(db, "INSERT INTO hosts (id, name, backend, registered_at, last_seen)"
		" VALUES (1, 'h1', 'local', 0, 0)");
	exec_ok(db, "INSERT INTO experiments (id, title, kind, state, backend,"
		" base_id, bench, runs, max_runs, host_id, created_at) VALUES"
		" (1, 't', 'explicit', 'done', 'local', 1, '{}', 2, 2, 1, 0)");
	exec_ok(db, "INSERT INTO variants (id, experiment_id, idx, name, is_control)"
		" VALUES (1, 1, 0, 'base', 1)");
	exec_ok(db, "INSERT INTO jobs (id, experiment_id, variant_id, run_index, seq,"
		" state, created_at) VALUES (1, 1, 1, 0, 0, 'done', 0),"
		" (2, 1, 1, 1, 1, 'done', 0)");
	/* A full run, and one of an old runner: no ns/IO, no CPU costs. */
	exec_ok(db, "INSERT INTO runs (id, job_id, lease_token, experiment_id,"
		" variant_id, host_id, run_index, attempt, warmup, seconds, mean,"
		" median, stddev, total_ios, ns_per_io, ios_measured,"
		" cpu_user_ns_per_io, cpu_sys_ns_per_io, created_at) VALUES"
		" (1, 1, 'l1', 1, 1, 1, 0, 1, 2, 8, 234500.5, 234510.0, 120.5,"
		" 2345000, 4264.39, 1000000, 120.1, 3900.2, 0),"
		" (2, 2, 'l2', 1, 1, 1, 1, 1, 2, 8, 230000.0, NULL, NULL, 2300000,"
		" NULL, NULL, NULL, NULL, 0)");

	CHECK(db_migrate(db, err, sizeof(err)) == db_schema_version(),
	      "migrate: %s", err);
	CHECK(db_int(db, -1, "SELECT count(*) FROM run_metrics WHERE run_id = 1", 0) == 8,
	      "full run: 8 metrics");
	CHECK(db_int(db, -1, "SELECT count(*) FROM run_metrics WHERE run_id = 2", 0) == 2,
	      "old run: iops and total_ios only");
	CHECK(db_int(db, -1, "SELECT count(*) FROM pragma_table_info('runs') WHERE"
		     " name IN ('mean', 'ns_per_io', 'cpu_sys_ns_per_io')", 0) == 0,
	      "old columns dropped");
	CHECK(db_int(db, -1, "SELECT count(*) FROM run_metrics WHERE metric ="
		     " 'total_ios' AND typeof(value) = 'integer'", 0) == 2,
	      "counts stay integers");
	/* The migration's names are the table's. */
	{
		sqlite3_stmt *st = db_prepare(db, "SELECT DISTINCT metric FROM run_metrics");

		while (st && sqlite3_step(st) == SQLITE_ROW)
			CHECK(metric_def_find((const char *)sqlite3_column_text(st, 0)),
			      "%s is not in the metric table", sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
	}

	exp = experiment_json(db, 1);
	CHECK(exp != NULL, "experiment json");
	CHECK(json_real_value(run_val(exp, 0, "summary", "mean")) == 234500.5, "mean");
	CHECK(json_real_value(run_val(exp, 0, "summary", "median")) == 234510.0, "median");
	CHECK(json_real_value(run_val(exp, 0, "summary", "stddev")) == 120.5, "stddev");
	CHECK(json_integer_value(run_val(exp, 0, "summary", "total_ios")) == 2345000,
	      "total_ios");
	CHECK(json_real_value(run_val(exp, 0, "summary", "ns_per_io")) == 4264.39,
	      "ns_per_io");
	CHECK(json_integer_value(run_val(exp, 0, "summary", "ios_measured")) == 1000000,
	      "ios_measured");
	CHECK(json_real_value(run_val(exp, 0, "cpu", "user_ns_per_io")) == 120.1, "cpu user");
	CHECK(json_real_value(run_val(exp, 0, "cpu", "sys_ns_per_io")) == 3900.2, "cpu sys");
	CHECK(json_integer_value(run_val(exp, 0, "summary", "warmup")) == 2, "warmup kept");
	v = run_val(exp, 1, "summary", "ns_per_io");
	CHECK(json_is_null(v), "absent value is null, as before");
	CHECK(json_is_null(run_val(exp, 1, "cpu", "sys_ns_per_io")), "absent cpu null");
	CHECK(json_real_value(run_val(exp, 1, "summary", "mean")) == 230000.0, "run 2 mean");
	/* Each table metric is at its path in every run (value or null). */
	for (k = 0; k < metric_defs_count; k++) {
		char obj[64];
		const char *key;

		CHECK(metric_path_split(&metric_defs[k], obj, sizeof(obj), &key) == 0);
		CHECK(json_object_get(json_object_get(json_array_get(json_object_get(exp,
			"runs"), 1), obj), key) != NULL, "%s missing", metric_defs[k].path);
	}
	json_decref(exp);
	sqlite3_close(db);
	unlink(path);
	if (fails)
		return 1;
	printf("ok\n");
	return 0;
}
