// SPDX-License-Identifier: MIT
/*
 * Description: a job a host gives up by claiming again ("abandoned: the
 * host claimed a new job") on its last attempt fails, and when it was its
 * experiment's last open job the experiment settles ("failed" without a
 * run) instead of staying "running" for ever. The reference is the job
 * table itself: no job open, none done, so jobs_settle_experiment's own
 * rule says failed (the kexec rehearsal's runner crashed on every claim,
 * and its experiment waited 2485 s until CI was stopped).
 */
#include <stdio.h>
#include <string.h>

#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "daemon/lab/jobs.h"
#include "daemon/lab/planner.h"
#include "unit/check.h"

static int64_t make_experiment(sqlite3 *db)
{
	struct variant_spec vs[1] = { { .name = "base", .is_control = true } };
	struct experiment_spec spec = {
		.title = "t", .base_id = 1, .bench_json = "{}", .runs = 1,
		.variants = vs, .nvariants = 1,
	};
	struct lab_err le;
	int64_t exp;

	db_begin(db);
	exp = planner_create(db, &spec, &le);
	db_commit(db);
	CHECK(exp > 0, "create: %s", le.msg);
	return exp;
}

static int64_t count(sqlite3 *db, const char *sql, int64_t id)
{
	return db_int(db, -1, sql, 1, id);
}

int main(void)
{
	struct jobs_ctx c = { .lease_seconds = 600, .max_attempts = 2 };
	struct claim a;
	char err[256], state[32];
	time_t now = 1000000;
	int64_t e;
	sqlite3 *db;
	sqlite3_stmt *st;

	db = db_open(":memory:", err, sizeof(err));
	if (!db || db_migrate(db, err, sizeof(err)) < 0)
		return 1;
	db_exec(db, "INSERT INTO hosts (id, name, backend, registered_at, last_seen)"
		" VALUES (1, 'h1', 'local', 0, 0)");
	e = make_experiment(db);
	CHECK(count(db, "SELECT count(*) FROM jobs WHERE experiment_id = ?", e) == 1,
	      "one job");
	/* Attempt 1, then the host claims again (its runner restarted). */
	CHECK(jobs_claim(db, &c, 1, now, &a) == 1, "claim 1");
	CHECK(jobs_claim(db, &c, 1, now + 1, &a) == 1, "claim 2: the job again");
	CHECK(a.attempt == 2, "attempt %d", a.attempt);
	/* Attempt 2 given up the same way: out of attempts. */
	CHECK(jobs_claim(db, &c, 1, now + 2, &a) == 0, "nothing left to claim");
	CHECK(count(db, "SELECT count(*) FROM jobs WHERE experiment_id = ? AND"
		    " state = 'failed'", e) == 1, "the job failed");
	CHECK(count(db, "SELECT count(*) FROM job_events WHERE job_id IN (SELECT id"
		    " FROM jobs WHERE experiment_id = ?) AND event = 'abandoned'",
		    e) == 2, "two abandoned attempts");
	st = db_prepare(db, "SELECT state FROM experiments WHERE id = ?");
	CHECK(st != NULL, "prepare");
	sqlite3_bind_int64(st, 1, e);
	CHECK(sqlite3_step(st) == SQLITE_ROW, "the experiment");
	snprintf(state, sizeof(state), "%s", sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	CHECK(!strcmp(state, "failed"), "experiment is '%s', not failed", state);
	db_close(db);
	DONE();
}
