// SPDX-License-Identifier: MIT
/*
 * Description: migration 17 on a database holding tracks: a track stored
 * with the old change-point defaults (3, 0.05) moves to the new ones
 * (5, 0.001) and keeps what it held in detect_migrated_from; tracks that
 * asked for other options (4 / 0.01, 3 / 0.01, 5 / 0.05) keep theirs and
 * get no note; every other column of the moved track is untouched; the
 * change points gain an empty MDE gate (bisect_note, bisect_mde_pct,
 * bisect_gate_points NULL) and keep their values. Old bisections get
 * their outcome from what they stored (culprit, range, the reason's
 * text; one that did not reproduce becomes done), old steps their call.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "daemon/store/migrations.h"
#include "unit/check.h"

static const char *fill =
	"INSERT INTO bases (id, name, tree, kind, created_at) VALUES (2, 'g', '/x', 'git', 1);"
	"INSERT INTO series (id, name, metric, created_at) VALUES (1, 'track:a', 'iops', 1);"
	"INSERT INTO change_points (id, series_id, t, delta_pct, detected_at)"
	" VALUES (2, 1, 5, -3.5, 6);"
	"INSERT INTO bisections (id, base_id, good, bad, bench, runs, state, culprit,"
	" failure_reason, range_lo, range_hi, created_at) VALUES"
	" (1, 2, 'a', 'b', '{}', 5, 'done', 'c', NULL, NULL, NULL, 1),"
	" (2, 2, 'a', 'b', '{}', 5, 'done', NULL, NULL, 0, 3, 1),"
	" (3, 2, 'a', 'b', '{}', 5, 'failed', NULL, 'the step between good and bad"
	" did not reproduce (no change)', NULL, NULL, 1),"
	" (4, 2, 'a', 'b', '{}', 5, 'failed', NULL, 'unknown: commit x', NULL, NULL, 1),"
	" (5, 2, 'a', 'b', '{}', 5, 'failed', NULL, 'not confirmed: commit x', NULL, NULL, 1),"
	" (6, 2, 'a', 'b', '{}', 5, 'failed', NULL, 'a step failed (boot)', NULL, NULL, 1),"
	" (7, 2, 'a', 'b', '{}', 5, 'running', NULL, NULL, NULL, NULL, 1);"
	"INSERT INTO bisection_steps (id, bisection_id, idx, commit_sha, state, bad,"
	" verdict, created_at) VALUES (1, 1, 3, 'b', 'done', 1, 'regression', 1),"
	" (2, 1, 1, 'x', 'done', 0, 'no change', 1), (3, 1, 2, 'y', 'skipped', NULL, NULL, 1),"
	" (4, 7, 2, 'y', 'running', NULL, 'unknown', 1);";

static int add_track(sqlite3 *db, int id, int min_size, double max_p)
{
	char sql[512];

	snprintf(sql, sizeof(sql), "INSERT INTO tracks (id, base_id, ref, label,"
		 " bench, runs, every_commits, cp_min_size, cp_max_p, series_id,"
		 " created_at) VALUES (%d, 2, 'master', 't%d', '{}', 3, 1, %d, %g,"
		 " %s, 7)", id, id, min_size, max_p, id == 1 ? "1" : "NULL");
	return db_exec(db, sql);
}

int main(void)
{
	char dir[] = "/tmp/perflab-unit.XXXXXX", path[256], err[512];
	struct migration old[64];
	size_t n = 0;
	sqlite3 *db;

	if (!mkdtemp(dir))
		return 77;
	snprintf(path, sizeof(path), "%s/t.db", dir);
	for (size_t k = 0; k < perflab_migrations_count && n < 64; k++)
		if (perflab_migrations[k].version < 17)
			old[n++] = perflab_migrations[k];
	db = db_open(path, err, sizeof(err));
	CHECK(db, "open: %s", err);
	if (!db)
		return 1;
	CHECK(db_migrate_with(db, old, n, err, sizeof(err)) > 0, "%s", err);
	CHECK(!db_exec(db, fill), "fill: %s", sqlite3_errmsg(db));
	CHECK(!add_track(db, 1, 3, 0.05) && !add_track(db, 2, 4, 0.01) &&
	      !add_track(db, 3, 3, 0.01) && !add_track(db, 4, 5, 0.05),
	      "tracks: %s", sqlite3_errmsg(db));

	CHECK(db_migrate(db, err, sizeof(err)) == db_schema_version(), "%s", err);
	CHECK(db_int(db, 0, "SELECT count(*) FROM tracks WHERE id = 1 AND cp_min_size = 5"
		     " AND cp_max_p = 0.001 AND json_extract(detect_migrated_from,"
		     " '$.min_size') = 3 AND json_extract(detect_migrated_from,"
		     " '$.max_p') = 0.05 AND json_extract(detect_migrated_from,"
		     " '$.schema') = 17", 0) == 1, "old defaults moved, noted");
	CHECK(db_int(db, 0, "SELECT count(*) FROM tracks WHERE id = 1 AND label = 't1'"
		     " AND ref = 'master' AND runs = 3 AND series_id = 1 AND"
		     " created_at = 7", 0) == 1, "the rest of the track kept");
	CHECK(db_int(db, 0, "SELECT count(*) FROM tracks WHERE detect_migrated_from"
		     " IS NULL AND ((id = 2 AND cp_min_size = 4 AND cp_max_p = 0.01) OR"
		     " (id = 3 AND cp_min_size = 3 AND cp_max_p = 0.01) OR (id = 4 AND"
		     " cp_min_size = 5 AND cp_max_p = 0.05))", 0) == 3,
	      "asked-for options kept");
	CHECK(db_int(db, 0, "SELECT count(*) FROM change_points WHERE id = 2 AND"
		     " delta_pct = -3.5 AND bisect_note IS NULL AND bisect_mde_pct IS"
		     " NULL AND bisect_gate_points IS NULL", 0) == 1, "change point");
	CHECK(db_int(db, 0, "SELECT group_concat(id || ':' || state || ':' ||"
		     " coalesce(outcome, '-'), ' ') = '1:done:culprit 2:done:range"
		     " 3:done:did_not_reproduce 4:failed:unknown 5:failed:not_confirmed"
		     " 6:failed:failed 7:running:-' FROM (SELECT * FROM bisections"
		     " ORDER BY id)", 0) == 1, "outcomes of old bisections");
	CHECK(db_int(db, 0, "SELECT group_concat(id || ':' || coalesce(call, '-'), ' ')"
		     " = '1:bad 2:good 3:skipped 4:unknown' FROM (SELECT * FROM"
		     " bisection_steps ORDER BY id)", 0) == 1, "calls of old steps");
	CHECK(db_int(db, -1, "SELECT count(*) FROM pragma_foreign_key_check", 0) == 0);
	sqlite3_close(db);
	unlink(path);
	snprintf(path, sizeof(path), "%s/t.db-wal", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/t.db-shm", dir);
	unlink(path);
	rmdir(dir);
	DONE();
}
