// SPDX-License-Identifier: MIT
/*
 * Description: job leases: a claim pins the experiment to the host and
 * hands out jobs in seq order; heartbeats with the current token extend
 * the lease, others are stale; an expired lease requeues the job with the
 * next attempt until the cap, then fails it with "lease expired"; a
 * patch_apply failure fails the variant and cancels its queued jobs while
 * the control keeps running; the experiment settles when nothing is left
 * (marked for the analysis worker, still 'running').
 */
#include <stdio.h>
#include <string.h>

#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "daemon/lab/jobs.h"
#include "daemon/lab/planner.h"
#include "unit/check.h"

static const char *job_state(sqlite3 *db, int64_t job, char *buf, size_t n)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT state FROM jobs WHERE id = ?");

	buf[0] = '\0';
	sqlite3_bind_int64(st, 1, job);
	if (sqlite3_step(st) == SQLITE_ROW)
		snprintf(buf, n, "%s", sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return buf;
}

int main(void)
{
	struct variant_spec vs[2] = { { .name = "base", .is_control = true }, { .name = "tag" } };
	struct experiment_spec spec = {
		.title = "t", .base_id = 1, .bench_json = "{}", .runs = 2,
		.variants = vs, .nvariants = 2,
	};
	struct jobs_ctx c = { .lease_seconds = 60, .max_attempts = 2, .ev = NULL };
	struct claim a, b;
	struct lab_err le;
	char err[256], s[32], old[33];
	time_t now = 1000000, exp_at;
	int64_t exp, h1 = 1, h2 = 2;
	sqlite3 *db;

	db = db_open(":memory:", err, sizeof(err));
	if (!db || db_migrate(db, err, sizeof(err)) < 0)
		return 1;
	db_exec(db, "INSERT INTO hosts (id, name, backend, registered_at, last_seen) VALUES"
		" (1, 'h1', 'local', 0, 0), (2, 'h2', 'local', 0, 0)");
	db_begin(db);
	exp = planner_create(db, &spec, &le);
	db_commit(db);
	CHECK(exp > 0, "create: %s", le.msg);

	CHECK(jobs_claim(db, &c, h1, now, &a) == 1, "claim");
	CHECK(a.attempt == 1 && a.expires == now + 60 && strlen(a.lease) == 32, "lease fields");
	CHECK(db_int(db, 0, "SELECT seq FROM jobs WHERE id = ?", 1, a.job_id) == 0, "seq 0 first");
	CHECK(db_int(db, 0, "SELECT host_id FROM experiments WHERE id = ?", 1, exp) == h1, "pinned");
	CHECK(jobs_claim(db, &c, h2, now, &b) == 0, "other host got a job of a pinned experiment");

	/* Heartbeats. */
	CHECK(jobs_heartbeat(db, &c, a.job_id, h1, a.lease, "build", "x", now + 30, &exp_at, &le) == 0 &&
	      exp_at == now + 90, "heartbeat extends");
	CHECK(jobs_heartbeat(db, &c, a.job_id, h1, "0000", NULL, NULL, now + 31, &exp_at, &le) == -1 && le.st == LAB_CONFLICT,
	      "wrong token");
	CHECK(jobs_heartbeat(db, &c, a.job_id, h2, a.lease, NULL, NULL, now + 31, &exp_at, &le) == -1 && le.st == LAB_CONFLICT,
	      "other host");
	CHECK(jobs_heartbeat(db, &c, 999, h1, a.lease, NULL, NULL, now + 31, &exp_at, &le) == -1 && le.st == LAB_NOT_FOUND,
	      "missing job");
	CHECK(!strcmp(job_state(db, a.job_id, s, sizeof(s)), "running"), "running after heartbeat");

	/* Expiry: not before the lease ends, then requeue with attempt 2. */
	CHECK(jobs_expire(db, &c, now + 90) == 0, "expired too early");
	CHECK(jobs_expire(db, &c, now + 91) == 1, "expire");
	CHECK(!strcmp(job_state(db, a.job_id, s, sizeof(s)), "queued"), "requeued: %s", s);
	CHECK(jobs_heartbeat(db, &c, a.job_id, h1, a.lease, NULL, NULL, now + 92, &exp_at, &le) == -1 && le.st == LAB_CONFLICT,
	      "expired lease still accepted");
	snprintf(old, sizeof(old), "%s", a.lease);
	CHECK(jobs_claim(db, &c, h1, now + 100, &a) == 1 && a.attempt == 2, "reclaim attempt 2");
	CHECK(db_int(db, 0, "SELECT seq FROM jobs WHERE id = ?", 1, a.job_id) == 0, "same job again");
	CHECK(strcmp(old, a.lease), "new token");
	CHECK(jobs_expire(db, &c, now + 161) == 1, "second expiry");
	CHECK(!strcmp(job_state(db, a.job_id, s, sizeof(s)), "failed"), "failed at cap: %s", s);
	CHECK(db_int(db, 0, "SELECT failure_reason = 'lease expired' FROM jobs WHERE id = ?", 1,
		     a.job_id) == 1, "reason lease expired");
	CHECK(db_int(db, 0, "SELECT count(*) FROM job_events WHERE job_id = ? AND event = 'expired'",
		     1, a.job_id) == 2, "expiries recorded");

	/* Next job (seq 1, variant tag): patch does not apply. */
	CHECK(jobs_claim(db, &c, h1, now + 200, &a) == 1, "claim seq 1");
	CHECK(db_int(db, 0, "SELECT seq FROM jobs WHERE id = ?", 1, a.job_id) == 1, "seq 1");
	CHECK(jobs_fail(db, &c, a.job_id, h1, a.lease, "patch_apply", "error: patch failed",
			now + 201, &le) == 0, "fail");
	CHECK(db_int(db, 0, "SELECT count(*) FROM variants WHERE name = 'tag' AND state = 'failed'"
		     " AND failure_log = 'error: patch failed'", 0) == 1, "variant failed with log");
	CHECK(db_int(db, 0, "SELECT count(*) FROM jobs j JOIN variants v ON v.id = j.variant_id"
		     " WHERE v.name = 'tag' AND j.state = 'cancelled'", 0) == 1, "tag's other job cancelled");
	CHECK(db_int(db, 0, "SELECT state = 'running' FROM experiments", 0) == 1, "still running");

	/* Control's last job: a boot failure retries, then it finishes. */
	CHECK(jobs_claim(db, &c, h1, now + 300, &a) == 1, "claim seq 3");
	CHECK(jobs_fail(db, &c, a.job_id, h1, a.lease, "boot", "panic", now + 301, &le) == 0, "boot fail");
	CHECK(!strcmp(job_state(db, a.job_id, s, sizeof(s)), "queued"), "boot failure retried: %s", s);
	CHECK(jobs_fail(db, &c, a.job_id, h1, a.lease, "boot", "panic", now + 302, &le) == -1 && le.st == LAB_CONFLICT,
	      "second fail with the same lease");
	CHECK(jobs_claim(db, &c, h1, now + 400, &a) == 1 && a.attempt == 2, "retry claim");
	db_exec(db, "UPDATE jobs SET state = 'done' WHERE state = 'claimed'");
	CHECK(jobs_settle_experiment(db, exp, now + 401) == 1, "settles done");
	/* Done means analysed: until the analysis worker ran, it is marked. */
	CHECK(db_int(db, 0, "SELECT state = 'running' AND analysis_pending = 1"
		     " FROM experiments", 0) == 1, "experiment marked for analysis");
	CHECK(jobs_settle_experiment(db, exp, now + 402) == 0, "settles once");
	sqlite3_close(db);
	if (fails)
		return 1;
	printf("ok\n");
	return 0;
}
