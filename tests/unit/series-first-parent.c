// SPDX-License-Identifier: MIT
/*
 * Description: a track's series is in first-parent order, not committer
 * time. 30 track points, queued in first-parent order (track_points.id),
 * the last 15 10 % slower, with committer times that rebased and
 * back-dated commits give (every other commit of the second half dated
 * before the first half). Detection (series_detect_opts at the track
 * defaults, after each point) must store exactly one confirmed change
 * point, at the 16th commit in first-parent order, and its neighbour
 * before it the 15th; by committer time the series is shuffled and the
 * step lands elsewhere (or on several change points).
 */
#include <stdio.h>
#include <string.h>

#include "daemon/analysis/changepoint.h"
#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "daemon/lab/series.h"
#include "unit/check.h"

#define N 30

static int64_t pid_of[N];

static int add(sqlite3 *db, int64_t sid, int i)
{
	char sql[512];
	/* Back-dated: odd commits of the second half before everything. */
	long t = i >= N / 2 && i % 2 ? 1000 + i : 100000 + 100 * i;
	double v = i < N / 2 ? 100000 + 37 * (i % 3) : 90000 + 37 * (i % 3);

	snprintf(sql, sizeof(sql),
		 "INSERT INTO track_points (id, track_id, commit_sha, committed_at,"
		 " experiment_id, created_at) VALUES (%d, 1, 'c%d', %ld, %d, 0);"
		 "INSERT INTO series_points (series_id, t, value, label,"
		 " experiment_id, created_at) VALUES (%lld, %ld, %f, 'c%d', %d, 0);"
		 "UPDATE track_points SET point_id = last_insert_rowid() WHERE id = %d;",
		 i + 1, i, t, 500 + i, (long long)sid, t, v, i, 500 + i, i + 1);
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return -1;
	pid_of[i] = db_int(db, -1, "SELECT point_id FROM track_points WHERE id = ?",
			   1, (int64_t)i + 1);
	return 0;
}

int main(void)
{
	struct cp_opts o;
	char err[256];
	sqlite3 *db;
	int64_t sid;

	db = db_open(":memory:", err, sizeof(err));
	if (!db || db_migrate(db, err, sizeof(err)) < 0)
		return 1;
	/* Only the series code's tables matter here. */
	sqlite3_exec(db, "PRAGMA foreign_keys = OFF", NULL, NULL, NULL);
	sid = series_get_or_create(db, "track:t", "iops", 0, 0);
	CHECK(sid > 0);
	cp_opts_track(&o, 0, 0);
	for (int i = 0; i < N; i++) {
		CHECK(!add(db, sid, i), "point %d: %s", i, sqlite3_errmsg(db));
		CHECK(series_detect_opts(db, sid, &o, 1) >= 0, "detect at %d", i);
	}
	CHECK(db_int(db, -1, "SELECT count(*) FROM change_points WHERE"
		     " series_id = ? AND state != 'retracted'", 1, sid) == 1,
	      "one live change point");
	CHECK(db_int(db, -1, "SELECT count(*) FROM change_points WHERE"
		     " series_id = ? AND state = 'confirmed' AND point_id = ?",
		     2, sid, pid_of[N / 2]) == 1,
	      "confirmed at the 16th commit (point %lld); stored at %lld",
	      (long long)pid_of[N / 2],
	      (long long)db_int(db, -1, "SELECT point_id FROM change_points"
				" WHERE series_id = ? AND state != 'retracted'",
				1, sid));
	sqlite3_close(db);
	DONE();
}
