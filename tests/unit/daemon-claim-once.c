// SPDX-License-Identifier: MIT
/*
 * Description: two claims never get the same job. Two hosts that may run
 * the same experiments claim in turn: each gets its own job and its own
 * lease, and the first lease stays current. Then the experiment is made
 * claimable by any host again while its first job is still claimed (its
 * pin cleared by hand: the one thing that keeps other hosts away from a
 * claimed job besides the claim's "state = 'queued'"): the second host
 * gets another job, never the claimed one, and the first host's lease
 * still works. A job that is done is never handed out again, and a host
 * that claims again ends its own old lease first. (Two guards stand: the
 * pick's "state = 'queued'" and the lease's own; with the pick weakened
 * the claim fails instead of leasing a claimed job twice.)
 */
#include <stdio.h>
#include <string.h>

#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "daemon/lab/jobs.h"
#include "daemon/lab/planner.h"
#include "unit/check.h"

static int64_t make_experiment(sqlite3 *db, int runs)
{
	struct variant_spec vs[2] = { { .name = "base", .is_control = true },
				      { .name = "tag" } };
	struct experiment_spec spec = {
		.title = "t", .base_id = 1, .bench_json = "{}", .runs = runs,
		.variants = vs, .nvariants = 2,
	};
	struct lab_err le;
	int64_t exp;

	db_begin(db);
	exp = planner_create(db, &spec, &le);
	db_commit(db);
	CHECK(exp > 0, "create: %s", le.msg);
	return exp;
}

/* Leases of @job that the API would accept at @now. */
static int live_leases(sqlite3 *db, int64_t job, const struct claim *const *cl,
		       int n, time_t now)
{
	struct lab_err le;
	int live = 0;

	for (int i = 0; i < n; i++)
		if (cl[i]->job_id == job &&
		    !jobs_lease_check(db, job, 0, cl[i]->lease, now, NULL, NULL,
				      NULL, NULL, &le))
			live++;
	return live;
}

int main(void)
{
	struct jobs_ctx c = { .lease_seconds = 600, .max_attempts = 3 };
	struct claim a, b, d, again;
	const struct claim *all[4] = { &a, &b, &d, &again };
	struct lab_err le;
	char err[256];
	time_t now = 1000000, until;
	int64_t e1, e2, h1 = 1, h2 = 2;
	int rc;
	sqlite3 *db;

	db = db_open(":memory:", err, sizeof(err));
	if (!db || db_migrate(db, err, sizeof(err)) < 0)
		return 1;
	db_exec(db, "INSERT INTO hosts (id, name, backend, registered_at, last_seen) VALUES"
		" (1, 'h1', 'local', 0, 0), (2, 'h2', 'local', 0, 0)");
	e1 = make_experiment(db, 2);	/* 4 jobs */
	e2 = make_experiment(db, 1);	/* 2 jobs */

	/* Two hosts, one after the other: two jobs, two experiments. */
	CHECK(jobs_claim(db, &c, h1, now, &a) == 1, "h1 claims");
	CHECK(a.experiment_id == e1, "h1 got experiment %lld", (long long)a.experiment_id);
	CHECK(jobs_claim(db, &c, h2, now + 1, &b) == 1, "h2 claims");
	CHECK(b.job_id != a.job_id, "h2 got h1's job %lld", (long long)a.job_id);
	CHECK(b.experiment_id == e2, "h2 got experiment %lld", (long long)b.experiment_id);
	CHECK(live_leases(db, a.job_id, all, 2, now + 2) == 1, "h1's job: one live lease");
	CHECK(jobs_heartbeat(db, &c, a.job_id, h1, a.lease, "run", NULL, now + 2,
			     &until, &le) == 0, "h1's lease after h2's claim: %s", le.msg);

	/* Unpin e1 while a is claimed: only the claim's WHERE keeps a. */
	db_exec(db, "UPDATE experiments SET host_id = NULL, state = 'queued'");
	db_exec(db, "UPDATE hosts SET current_job_id = NULL WHERE id = 2");
	db_exec(db, "UPDATE jobs SET state = 'done', lease_token = NULL WHERE experiment_id = 2");
	CHECK(jobs_claim(db, &c, h2, now + 3, &d) == 1, "h2 claims e1");
	CHECK(d.experiment_id == e1, "h2 got experiment %lld", (long long)d.experiment_id);
	CHECK(d.job_id != a.job_id, "h2 was handed h1's claimed job %lld",
	      (long long)a.job_id);
	CHECK(db_int(db, 0, "SELECT lease_host_id FROM jobs WHERE id = ?", 1,
		     a.job_id) == h1, "job a's lease moved to another host");
	CHECK(jobs_heartbeat(db, &c, a.job_id, h1, a.lease, "run", NULL, now + 4,
			     &until, &le) == 0, "h1's lease after h2's claim of e1: %s",
	      le.msg);
	CHECK(live_leases(db, a.job_id, all, 3, now + 4) == 1, "job a: one live lease");
	CHECK(live_leases(db, d.job_id, all, 3, now + 4) == 1, "job d: one live lease");
	CHECK(db_int(db, -1, "SELECT count(*) FROM jobs WHERE experiment_id = 2"
		     " AND state != 'done'", 0) == 0, "a done job was handed out again");

	/* h1 claims again (its runner restarted): its old lease ends first;
	 * e1 is pinned to h2 now, so h1 gets nothing. */
	memset(&again, 0, sizeof(again));
	rc = jobs_claim(db, &c, h1, now + 5, &again);
	CHECK(rc == 0, "h1 claims again: %d, job %lld", rc, (long long)again.job_id);
	CHECK(jobs_heartbeat(db, &c, a.job_id, h1, a.lease, "run", NULL, now + 6,
			     &until, &le) == -1 && le.st == LAB_CONFLICT,
	      "h1's old lease still current after its new claim");
	CHECK(live_leases(db, a.job_id, all, 4, now + 6) == 0, "job a: a live lease");
	CHECK(live_leases(db, d.job_id, all, 4, now + 6) == 1, "job d: one live lease");
	/* h2 (holding d) claims again: d goes back and comes back to it. */
	CHECK(jobs_claim(db, &c, h2, now + 7, &again) == 1, "h2 claims again");
	CHECK(live_leases(db, again.job_id, all, 4, now + 8) == 1,
	      "job %lld: one live lease", (long long)again.job_id);
	CHECK(live_leases(db, d.job_id, all, 3, now + 8) == 0, "job d: old lease live");
	CHECK(db_int(db, -1, "SELECT count(*) FROM jobs WHERE state IN ('claimed',"
		     " 'running') GROUP BY lease_host_id HAVING count(*) > 1", 0) <= 0,
	      "a host holds two jobs");
	CHECK(db_int(db, -1, "SELECT count(*) FROM job_events WHERE event = 'claimed'"
		     " AND job_id IN (SELECT id FROM jobs WHERE experiment_id = 2)", 0) == 1,
	      "e2's done jobs claimed again");
	db_close(db);
	DONE();
}
