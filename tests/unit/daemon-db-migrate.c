// SPDX-License-Identifier: MIT
/*
 * Description: migrations bring an empty database to the newest schema
 * version in one go (WAL, foreign keys on), are a no-op when reapplied, a
 * failing migration leaves nothing behind, and a database from a newer
 * perflabd is refused with a clear message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "daemon/store/migrations.h"
#include "unit/check.h"

static int has_table(sqlite3 *db, const char *name)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT count(*) FROM sqlite_master WHERE"
				      " type = 'table' AND name = ?");
	int n = 0;

	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return n;
}

int main(void)
{
	static const char *const tables[] = { "api_keys", "hosts", "bases", "patches",
		"patch_files", "experiments", "variants", "variant_patches", "builds",
		"jobs", "runs", "samples", "profiles", "symbols", "profile_symbols",
		"stacks", "profile_stacks", "comparisons", "baselines", "series",
		"series_points", "change_points", "alerts", "alert_history",
		"webhooks", "deliveries", "host_calibration", "exact_profiles",
		"exact_profile_symbols", NULL };
	char dir[] = "/tmp/perflab-unit.XXXXXX", path[256], err[512];
	struct migration bad[2];
	sqlite3 *db;
	int v, i, newest = 0;
	size_t k;

	if (!mkdtemp(dir))
		return 77;
	snprintf(path, sizeof(path), "%s/t.db", dir);
	for (k = 0; k < perflab_migrations_count; k++)
		if (perflab_migrations[k].version > newest)
			newest = perflab_migrations[k].version;
	CHECK(newest >= 1 && db_schema_version() == newest, "schema version %d", newest);

	db = db_open(path, err, sizeof(err));
	CHECK(db, "open: %s", err);
	if (!db)
		return 1;
	CHECK(db_user_version(db) == 0, "empty database has version 0");
	v = db_migrate(db, err, sizeof(err));
	CHECK(v == newest, "migrated to %d, want %d (%s)", v, newest, err);
	CHECK(db_user_version(db) == newest, "user_version %d", db_user_version(db));
	for (i = 0; tables[i]; i++)
		CHECK(has_table(db, tables[i]), "table %s missing", tables[i]);
	CHECK(db_int(db, 0, "PRAGMA foreign_keys", 0) == 1, "foreign keys on");
	CHECK(db_int(db, 0, "SELECT count(*) FROM pragma_journal_mode WHERE journal_mode = 'wal'", 0) == 1,
	      "WAL mode");
	/* Foreign keys are enforced. */
	CHECK(db_exec(db, "INSERT INTO variants (experiment_id, idx, name) VALUES (999, 0, 'x')") != 0,
	      "variant of a missing experiment accepted");
	CHECK(db_migrate(db, err, sizeof(err)) == newest, "second migrate is a no-op");

	/* A failing migration rolls back entirely. */
	bad[0] = perflab_migrations[0];
	for (k = 0; k < perflab_migrations_count; k++)
		if (perflab_migrations[k].version == newest)
			bad[0] = perflab_migrations[k];
	bad[1] = (struct migration){ newest + 1, "bad.sql",
		"CREATE TABLE half_done (x INTEGER); CREATE TABLE broken (;" };
	v = db_migrate_with(db, bad, 2, err, sizeof(err));
	CHECK(v == -1, "broken migration accepted");
	CHECK(strstr(err, "bad.sql") != NULL, "message names the migration: %s", err);
	CHECK(!has_table(db, "half_done"), "partial migration left a table");
	CHECK(db_user_version(db) == newest, "version moved on failure");

	/* A newer database is refused. */
	db_exec(db, "PRAGMA user_version = 999");
	v = db_migrate(db, err, sizeof(err));
	CHECK(v == -1, "newer database accepted");
	CHECK(strstr(err, "newer") && strstr(err, "999"), "unclear message: %s", err);
	CHECK(db_user_version(db) == 999, "newer database was modified");
	sqlite3_close(db);

	snprintf(err, sizeof(err), "rm -rf %s", dir);
	if (system(err))
		fprintf(stderr, "cleanup failed\n");
	if (fails)
		return 1;
	printf("ok\n");
	return 0;
}
