// SPDX-License-Identifier: MIT
/*
 * Job leases, retries, variant failure and experiment completion.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <openssl/rand.h>

#include "common/failure_reasons.h"
#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "daemon/lab/jobs.h"

#define LOG_MAX (4u << 20)

void jobs_publish(const struct jobs_ctx *c, int64_t job_id, int64_t exp,
		  const char *state, int attempt, const char *phase,
		  const char *message)
{
	json_t *o;

	if (!c->ev)
		return;
	o = json_pack("{s:I,s:I,s:s,s:i}", "job_id", (json_int_t)job_id,
		      "experiment_id", (json_int_t)exp, "state", state,
		      "attempt", attempt);
	if (o && phase)
		json_object_set_new(o, "phase", json_string(phase));
	if (o && message)
		json_object_set_new(o, "message", json_string(message));
	events_publish(c->ev, "job", o);
}

static void publish_experiment(const struct jobs_ctx *c, int64_t exp,
			       const char *state)
{
	if (c->ev)
		events_publish(c->ev, "experiment",
			       json_pack("{s:I,s:s}", "experiment_id",
					 (json_int_t)exp, "state", state));
}

static int job_event(sqlite3 *db, int64_t job, int attempt, time_t now,
		     const char *event, int64_t host, const char *lease,
		     const char *reason, const char *log)
{
	sqlite3_stmt *st = db_prepare(db, "INSERT INTO job_events (job_id, attempt,"
				      " at, event, host_id, lease_token, reason, log)"
				      " VALUES (?,?,?,?,?,?,?,?)");
	int rc;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, job);
	sqlite3_bind_int(st, 2, attempt);
	sqlite3_bind_int64(st, 3, (int64_t)now);
	sqlite3_bind_text(st, 4, event, -1, SQLITE_STATIC);
	if (host > 0)
		sqlite3_bind_int64(st, 5, host);
	if (lease)
		sqlite3_bind_text(st, 6, lease, -1, SQLITE_STATIC);
	if (reason)
		sqlite3_bind_text(st, 7, reason, -1, SQLITE_STATIC);
	if (log)
		sqlite3_bind_text(st, 8, log, -1, SQLITE_STATIC);
	rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
	sqlite3_finalize(st);
	return rc;
}

static void free_host(sqlite3 *db, int64_t job)
{
	db_int(db, 0, "UPDATE hosts SET current_job_id = NULL WHERE"
	       " current_job_id = ? RETURNING id", 1, (int64_t)job);
}

int jobs_done(sqlite3 *db, int64_t job, int attempt, int64_t host,
	      const char *lease, time_t now)
{
	if (db_int(db, -1, "UPDATE jobs SET state = 'done', phase = 'done',"
		   " finished_at = ?, lease_expires = NULL WHERE id = ? AND state"
		   " IN ('claimed', 'running') RETURNING 0", 2, (int64_t)now,
		   job) != 0)
		return -1;
	db_int(db, 0, "UPDATE hosts SET current_job_id = NULL, last_seen = ?"
	       " WHERE current_job_id = ? RETURNING id", 2, (int64_t)now, job);
	return job_event(db, job, attempt, now, "done", host, lease, NULL, NULL);
}

struct jobrow {
	int64_t id, exp, variant, host;
	int attempt;
	char lease[33];
};

static int load_job(sqlite3 *db, int64_t job, struct jobrow *j)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT experiment_id, variant_id,"
				      " coalesce(lease_host_id, 0), attempt,"
				      " coalesce(lease_token, '') FROM jobs WHERE id = ?");
	int rc = -1;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, job);
	if (sqlite3_step(st) == SQLITE_ROW) {
		j->id = job;
		j->exp = sqlite3_column_int64(st, 0);
		j->variant = sqlite3_column_int64(st, 1);
		j->host = sqlite3_column_int64(st, 2);
		j->attempt = sqlite3_column_int(st, 3);
		snprintf(j->lease, sizeof(j->lease), "%s", sqlite3_column_text(st, 4));
		rc = 0;
	}
	sqlite3_finalize(st);
	return rc;
}

/*
 * End the current lease of a job: back to the queue when @retry and
 * attempts remain, else failed. Returns the new state or NULL on error.
 */
static const char *release(sqlite3 *db, const struct jobs_ctx *c,
			   const struct jobrow *j, const char *event,
			   const char *reason, const char *log, bool retry,
			   time_t now)
{
	bool requeue = retry && j->attempt < c->max_attempts;
	const char *state = requeue ? "queued" : "failed";
	sqlite3_stmt *st;
	int rc;

	if (job_event(db, j->id, j->attempt, now, event, j->host, j->lease,
		      reason, log))
		return NULL;
	st = db_prepare(db, "UPDATE jobs SET state = ?, lease_token = NULL,"
			" lease_expires = NULL, phase = NULL, message = NULL,"
			" failure_reason = ?, failure_log = ?,"
			" finished_at = CASE WHEN ? = 'failed' THEN ? END WHERE id = ?");
	if (!st)
		return NULL;
	sqlite3_bind_text(st, 1, state, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, reason, -1, SQLITE_STATIC);
	if (log)
		sqlite3_bind_text(st, 3, log, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, state, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, (int64_t)now);
	sqlite3_bind_int64(st, 6, j->id);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return NULL;
	free_host(db, j->id);
	return state;
}

int jobs_settle_experiment(sqlite3 *db, int64_t exp, time_t now)
{
	sqlite3_stmt *st;
	int64_t left, done;
	int rc;

	left = db_int(db, -1, "SELECT count(*) FROM jobs WHERE experiment_id = ?"
		      " AND state IN ('queued', 'claimed', 'running')", 1, (int64_t)exp);
	if (left != 0)
		return left < 0 ? -1 : 0;
	done = db_int(db, 0, "SELECT count(*) FROM jobs WHERE experiment_id = ?"
		      " AND state = 'done'", 1, (int64_t)exp);
	/* Runs to analyse: the worker sets 'done' once the verdicts are in. */
	if (done > 0) {
		st = db_prepare(db, "UPDATE experiments SET analysis_pending = 1,"
				" state = 'running' WHERE id = ? AND state IN"
				" ('queued', 'running') AND analysis_pending = 0");
		if (!st)
			return -1;
		sqlite3_bind_int64(st, 1, exp);
	} else {
		st = db_prepare(db, "UPDATE experiments SET state = 'failed',"
				" finished_at = ?, failure_reason = (SELECT"
				" 'no run succeeded: ' || coalesce(failure_reason, '?')"
				" FROM jobs WHERE experiment_id = experiments.id AND"
				" failure_reason IS NOT NULL ORDER BY seq LIMIT 1)"
				" WHERE id = ? AND state IN ('queued', 'running')");
		if (!st)
			return -1;
		sqlite3_bind_int64(st, 1, (int64_t)now);
		sqlite3_bind_int64(st, 2, exp);
	}
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return -1;
	if (sqlite3_changes(db) == 0)
		return 0;
	return done > 0 ? 1 : 2;
}

void jobs_after_settle(const struct jobs_ctx *c, int64_t exp, int settled)
{
	if (settled == 1)
		analysis_worker_kick(c->analysis);
	else if (settled == 2)
		publish_experiment(c, exp, "failed");
}

/* ---- claim ----------------------------------------------------------- */

/*
 * The next experiment @host may take a job of: those pinned to it first,
 * then the oldest unpinned queued ones that match its label and backend,
 * each after the ids already tried (*pinned, *free).
 */
static int64_t next_experiment(sqlite3 *db, int64_t host, int64_t *pinned,
			       int64_t *free_after)
{
	int64_t exp;
	sqlite3_stmt *st;

	exp = db_int(db, 0, "SELECT e.id FROM experiments e WHERE e.host_id = ? AND"
		     " e.state IN ('queued', 'running') AND e.id > ? AND EXISTS"
		     " (SELECT 1 FROM jobs j WHERE j.experiment_id = e.id AND"
		     " j.state = 'queued') ORDER BY e.id LIMIT 1", 2, (int64_t)host,
		     *pinned);
	if (exp) {
		*pinned = exp > 0 ? exp : *pinned;
		return exp;
	}
	st = db_prepare(db, "SELECT e.id FROM experiments e, hosts h WHERE h.id = ?"
			" AND e.state = 'queued' AND e.host_id IS NULL AND e.id > ? AND"
			" (e.backend IS NULL OR e.backend = h.backend) AND"
			" (e.label IS NULL OR e.label IN (SELECT label FROM host_labels"
			" WHERE host_id = h.id)) ORDER BY e.id LIMIT 1");
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, host);
	sqlite3_bind_int64(st, 2, *free_after);
	exp = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	if (exp > 0)
		*free_after = exp;
	return exp;
}

/* The next job of @host (its experiment in *exp): 0 none, -1 error. */
static int64_t pick_job(sqlite3 *db, const struct jobs_ctx *c, int64_t host,
			const char *lease, time_t now, int64_t *exp)
{
	int64_t pinned = 0, free_after = 0, job;
	int g;

	/* A job that waits (for its kernel image) lets the host try others. */
	for (int tries = 0; tries < 32; tries++) {
		*exp = next_experiment(db, host, &pinned, &free_after);
		if (*exp <= 0)
			return *exp;
		job = db_int(db, 0, "SELECT id FROM jobs WHERE experiment_id = ? AND"
			     " state = 'queued' ORDER BY seq LIMIT 1", 1, *exp);
		if (job <= 0)
			continue;
		g = c->gate ? c->gate(db, host, job, lease, now) : 1;
		if (g)
			return g < 0 ? -1 : job;
	}
	return 0;
}

/* Experiments that a claim's requeue settled, kicked after the commit. */
struct held_settled {
	int64_t exp[8];
	int how[8];
	int n;
};

/*
 * A host that claims again has given up the jobs it held. A job out of
 * attempts then fails, and its experiment may be settled by it: without
 * the settle an experiment whose last jobs went this way stayed
 * "running" for ever (the kexec rehearsal's hang, tests/unit/
 * daemon-abandon-settles).
 */
static int requeue_held(sqlite3 *db, const struct jobs_ctx *c, int64_t host,
			time_t now, struct held_settled *hs)
{
	const char *state;
	int64_t job;
	struct jobrow j;
	int how;

	while ((job = db_int(db, 0, "SELECT id FROM jobs WHERE lease_host_id = ?"
			     " AND state IN ('claimed', 'running') LIMIT 1",
			     1, (int64_t)host)) > 0) {
		if (load_job(db, job, &j))
			return -1;
		state = release(db, c, &j, "abandoned",
				"abandoned: the host claimed a new job", NULL,
				true, now);
		if (!state)
			return -1;
		if (strcmp(state, "failed"))
			continue;
		how = jobs_settle_experiment(db, j.exp, now);
		if (how < 0)
			return -1;
		if (how > 0 && hs->n < 8) {
			hs->exp[hs->n] = j.exp;
			hs->how[hs->n++] = how;
		}
	}
	return 0;
}

static void held_after_settle(const struct jobs_ctx *c,
			      const struct held_settled *hs)
{
	for (int i = 0; i < hs->n; i++)
		jobs_after_settle(c, hs->exp[i], hs->how[i]);
}

static int new_lease(char lease[33])
{
	unsigned char rnd[16];
	int i;

	if (RAND_bytes(rnd, sizeof(rnd)) != 1)
		return -1;
	for (i = 0; i < 16; i++)
		snprintf(lease + 2 * i, 3, "%02x", rnd[i]);
	return 0;
}

/*
 * Lease @job to @host; its attempt number, or -1. Only a queued job: the
 * picks above choose one, and this keeps a claimed job from getting a
 * second lease should a pick ever be wrong (tests/unit/daemon-claim-once).
 */
static int lease_job(sqlite3 *db, const struct jobs_ctx *c, int64_t host,
		     int64_t job, const char *lease, const char *group,
		     time_t now)
{
	sqlite3_stmt *st;
	int rc, attempt;

	st = db_prepare(db, "UPDATE jobs SET state = 'claimed', attempt = attempt + 1,"
			" lease_token = ?, lease_host_id = ?, lease_expires = ?,"
			" claimed_at = ?, phase = NULL, message = NULL, lease_group = ?"
			" WHERE id = ? AND state = 'queued' RETURNING attempt");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, lease, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, host);
	sqlite3_bind_int64(st, 3, (int64_t)(now + c->lease_seconds));
	sqlite3_bind_int64(st, 4, (int64_t)now);
	if (group)
		sqlite3_bind_text(st, 5, group, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 6, job);
	rc = sqlite3_step(st);
	attempt = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
	sqlite3_finalize(st);
	if (attempt < 0 ||
	    job_event(db, job, attempt, now, "claimed", host, lease, NULL, NULL))
		return -1;
	return attempt;
}

/*
 * A toggle experiment (runs_per_boot > 0) hands out the queued jobs of
 * @first's boot (run_index / runs_per_boot) with it, in seq order, each
 * with its own lease and all in @first's lease group.
 */
static int lease_boot_siblings(sqlite3 *db, const struct jobs_ctx *c,
			       int64_t host, int64_t exp, int64_t first,
			       const char *group, time_t now)
{
	int64_t per_boot, ids[1024];
	sqlite3_stmt *st;
	char lease[33];
	int n = 0, i;

	per_boot = db_int(db, 0, "SELECT runs_per_boot FROM experiments WHERE"
			  " id = ?", 1, (int64_t)exp);
	if (per_boot <= 0)
		return 0;
	st = db_prepare(db, "SELECT id FROM jobs WHERE experiment_id = ?1 AND"
			" state = 'queued' AND id != ?2 AND run_index / ?3 ="
			" (SELECT run_index / ?3 FROM jobs WHERE id = ?2)"
			" ORDER BY seq");
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, exp);
	sqlite3_bind_int64(st, 2, first);
	sqlite3_bind_int64(st, 3, per_boot);
	while (n < (int)(sizeof(ids) / sizeof(ids[0])) &&
	       sqlite3_step(st) == SQLITE_ROW)
		ids[n++] = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	for (i = 0; i < n; i++)
		if (new_lease(lease) ||
		    lease_job(db, c, host, ids[i], lease, group, now) < 0)
			return -1;
	return n;
}

int jobs_claim(sqlite3 *db, const struct jobs_ctx *c, int64_t host,
	       time_t now, struct claim *out)
{
	struct held_settled hs = { .n = 0 };
	int64_t exp, job;
	int n;

	if (new_lease(out->lease))
		return -1;
	if (db_begin(db))
		return -1;
	if (requeue_held(db, c, host, now, &hs))
		goto fail;
	job = pick_job(db, c, host, out->lease, now, &exp);
	if (job < 0)
		goto fail;
	if (job == 0) {
		db_int(db, 0, "UPDATE hosts SET last_seen = ? WHERE id = ? RETURNING id",
		       2, (int64_t)now, (int64_t)host);
		if (db_commit(db))
			return -1;
		held_after_settle(c, &hs);
		return 0;
	}
	out->attempt = lease_job(db, c, host, job, out->lease, NULL, now);
	if (out->attempt < 0)
		goto fail;
	n = lease_boot_siblings(db, c, host, exp, job, out->lease, now);
	if (n < 0)
		goto fail;
	/* A boot of several jobs: the first one's lease names the group. */
	if (n > 0 && db_int(db, -1, "UPDATE jobs SET lease_group = lease_token"
			    " WHERE id = ? RETURNING 0", 1, (int64_t)job) != 0)
		goto fail;
	if (db_int(db, -1, "UPDATE hosts SET current_job_id = ?, last_seen = ?"
		   " WHERE id = ? RETURNING id", 3, (int64_t)job, (int64_t)now,
		   (int64_t)host) < 0)
		goto fail;
	if (db_int(db, -1, "UPDATE experiments SET host_id = ?, state = 'running',"
		   " started_at = coalesce(started_at, ?) WHERE id = ? RETURNING id",
		   3, (int64_t)host, (int64_t)now, (int64_t)exp) < 0)
		goto fail;
	if (db_commit(db))
		return -1;
	held_after_settle(c, &hs);
	out->job_id = job;
	out->experiment_id = exp;
	out->expires = now + c->lease_seconds;
	jobs_publish(c, job, exp, "claimed", out->attempt, NULL, NULL);
	return 1;
fail:
	db_rollback(db);
	return -1;
}

/* ---- lease checks, heartbeat, failure --------------------------------- */

int jobs_stale_lease(struct lab_err *e)
{
	return lab_fail(e, LAB_CONFLICT, "the lease is not current (expired,"
			" superseded or the job finished)");
}

int jobs_lease_check(sqlite3 *db, int64_t job, int64_t host, const char *lease,
		     time_t now, int64_t *exp, int64_t *variant, int *attempt,
		     int *run_index, struct lab_err *e)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT state, coalesce(lease_token, ''),"
				      " coalesce(lease_host_id, 0), coalesce(lease_expires, 0),"
				      " experiment_id, variant_id, attempt, run_index"
				      " FROM jobs WHERE id = ?");
	int rc;

	if (!st)
		return lab_fail_db(e, db);
	sqlite3_bind_int64(st, 1, job);
	rc = lab_fail(e, LAB_NOT_FOUND, "no such job");
	if (sqlite3_step(st) != SQLITE_ROW)
		goto out;
	rc = jobs_stale_lease(e);
	const char *state = (const char *)sqlite3_column_text(st, 0);

	if (strcmp(state, "claimed") && strcmp(state, "running"))
		goto out;
	if (strcmp((const char *)sqlite3_column_text(st, 1), lease))
		goto out;
	if (host && sqlite3_column_int64(st, 2) != host)
		goto out;
	if (sqlite3_column_int64(st, 3) < (int64_t)now)
		goto out;
	if (exp)
		*exp = sqlite3_column_int64(st, 4);
	if (variant)
		*variant = sqlite3_column_int64(st, 5);
	if (attempt)
		*attempt = sqlite3_column_int(st, 6);
	if (run_index)
		*run_index = sqlite3_column_int(st, 7);
	rc = 0;
out:
	sqlite3_finalize(st);
	return rc;
}

int jobs_heartbeat(sqlite3 *db, const struct jobs_ctx *c, int64_t job,
		   int64_t host, const char *lease, const char *phase,
		   const char *message, time_t now, time_t *expires,
		   struct lab_err *e)
{
	sqlite3_stmt *st;
	int64_t exp;
	int rc, attempt;

	if (db_begin(db))
		return lab_fail_db(e, db);
	rc = jobs_lease_check(db, job, host, lease, now, &exp, NULL, &attempt,
			      NULL, e);
	if (rc)
		goto out;
	rc = -1;
	/* A toggle boot's jobs share the lease group: one heartbeat keeps
	 * every job of the boot that is not uploaded yet. */
	st = db_prepare(db, "UPDATE jobs SET state = 'running', lease_expires = ?,"
			" phase = coalesce(?, phase), message = ? WHERE id = ?4 OR"
			" (lease_group = (SELECT lease_group FROM jobs WHERE id = ?4)"
			" AND state IN ('claimed', 'running'))");
	if (!st)
		goto out;
	sqlite3_bind_int64(st, 1, (int64_t)(now + c->lease_seconds));
	if (phase)
		sqlite3_bind_text(st, 2, phase, -1, SQLITE_STATIC);
	if (message)
		sqlite3_bind_text(st, 3, message, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, job);
	if (sqlite3_step(st) == SQLITE_DONE)
		rc = 0;
	else
		lab_fail_db(e, db);
	sqlite3_finalize(st);
	if (!rc)
		db_int(db, 0, "UPDATE hosts SET last_seen = ? WHERE id = (SELECT"
		       " lease_host_id FROM jobs WHERE id = ?) RETURNING id", 2,
		       (int64_t)now, (int64_t)job);
out:
	if (rc) {
		db_rollback(db);
		return -1;
	}
	if (db_commit(db))
		return lab_fail_db(e, db);
	*expires = now + c->lease_seconds;
	jobs_publish(c, job, exp, "running", attempt, phase, message);
	return 0;
}

static int fail_variant(sqlite3 *db, const struct jobrow *j, const char *reason,
			const char *log, time_t now)
{
	sqlite3_stmt *st;
	int rc;

	st = db_prepare(db, "UPDATE variants SET state = 'failed', failure_reason = ?,"
			" failure_log = ? WHERE id = ?");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, reason, -1, SQLITE_STATIC);
	if (log)
		sqlite3_bind_text(st, 2, log, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, j->variant);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return -1;
	st = db_prepare(db, "UPDATE jobs SET state = 'cancelled', finished_at = ?,"
			" failure_reason = 'variant failed: ' || ? WHERE variant_id = ?"
			" AND state = 'queued'");
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, (int64_t)now);
	sqlite3_bind_text(st, 2, reason, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, j->variant);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

int jobs_fail_variant(sqlite3 *db, int64_t variant, const char *reason,
		      const char *log, time_t now)
{
	struct jobrow j = { .variant = variant };

	j.exp = db_int(db, -1, "SELECT experiment_id FROM variants WHERE id = ?",
		       1, variant);
	if (j.exp < 0 || fail_variant(db, &j, reason, log, now))
		return -1;
	return jobs_settle_experiment(db, j.exp, now);
}

/*
 * The boot of a toggle job ended early: its other jobs that are still
 * leased (not uploaded) go back to the queue for a new boot. Their failure
 * is not theirs, so they are retried whatever @reason was.
 */
static int release_boot(sqlite3 *db, const struct jobs_ctx *c,
			const struct jobrow *failed, const char *reason,
			time_t now)
{
	char why[160];
	struct jobrow j;
	int64_t job;

	snprintf(why, sizeof(why), "the boot ended with job %lld (%s)",
		 (long long)failed->id, reason);
	while ((job = db_int(db, 0, "SELECT id FROM jobs WHERE lease_group ="
			     " (SELECT lease_group FROM jobs WHERE id = ?) AND"
			     " state IN ('claimed', 'running') AND id != ?"
			     " ORDER BY seq LIMIT 1", 2, (int64_t)failed->id,
			     (int64_t)failed->id)) > 0) {
		if (load_job(db, job, &j) ||
		    !release(db, c, &j, "requeued", why, NULL, true, now))
			return -1;
	}
	return 0;
}

int jobs_fail(sqlite3 *db, const struct jobs_ctx *c, int64_t job, int64_t host,
	      const char *lease, const char *reason, const char *log, time_t now,
	      struct lab_err *e)
{
	/* Retried or the variant fails: common/failure_reasons.c. */
	const struct failure_reason *fr = failure_reason_find(reason);
	const char *state = NULL;
	struct jobrow j;
	bool retry;
	int rc, settled = 0;

	if (!fr)
		return lab_fail(e, LAB_INVALID, "unknown failure reason '%.32s'",
				reason ? reason : "");
	retry = fr->retryable;
	if (db_begin(db))
		return lab_fail_db(e, db);
	rc = jobs_lease_check(db, job, host, lease, now, NULL, NULL, NULL, NULL, e);
	if (rc)
		goto out;
	rc = lab_fail(e, LAB_INTERNAL, "cannot record the failure");
	if (load_job(db, job, &j))
		goto out;
	state = release(db, c, &j, "failed", reason, log, retry, now);
	if (!state)
		goto out;
	/* The boot's other jobs first: those of a failing variant are then
	 * queued and cancelled with it, not handed to the next boot. */
	if (release_boot(db, c, &j, reason, now))
		goto out;
	if (!retry && fail_variant(db, &j, reason, log, now))
		goto out;
	settled = jobs_settle_experiment(db, j.exp, now);
	if (settled < 0)
		goto out;
	rc = 0;
out:
	if (rc) {
		if (e && e->st == LAB_INTERNAL)
			lab_fail_db(e, db);
		db_rollback(db);
		return -1;
	}
	if (db_commit(db))
		return lab_fail_db(e, db);
	jobs_publish(c, job, j.exp, state, j.attempt, NULL, reason);
	jobs_after_settle(c, j.exp, settled);
	return 0;
}

int jobs_expire(sqlite3 *db, const struct jobs_ctx *c, time_t now)
{
	struct jobrow j;
	const char *state;
	int64_t job;
	int n = 0, settled;

	for (;;) {
		job = db_int(db, 0, "SELECT id FROM jobs WHERE state IN ('claimed',"
			     " 'running') AND lease_expires < ? ORDER BY id LIMIT 1",
			     1, (int64_t)now);
		if (job <= 0 || db_begin(db))
			break;
		if (load_job(db, job, &j))
			goto fail;
		state = release(db, c, &j, "expired", "lease expired", NULL, true, now);
		if (!state)
			goto fail;
		settled = jobs_settle_experiment(db, j.exp, now);
		if (settled < 0 || db_commit(db))
			goto fail;
		n++;
		jobs_publish(c, job, j.exp, state, j.attempt, NULL, "lease expired");
		jobs_after_settle(c, j.exp, settled);
		continue;
fail:
		db_rollback(db);
		break;
	}
	return n;
}

int jobs_cancel_experiment(sqlite3 *db, const struct jobs_ctx *c, int64_t exp,
			   time_t now, struct lab_err *e)
{
	int64_t st;

	if (db_begin(db))
		return lab_fail_db(e, db);
	st = db_int(db, -1, "SELECT state IN ('queued', 'running') FROM experiments"
		    " WHERE id = ?", 1, (int64_t)exp);
	if (st != 1) {
		db_rollback(db);
		return st < 0 ? lab_fail(e, LAB_NOT_FOUND, "no such experiment") :
		       lab_fail(e, LAB_CONFLICT, "the experiment already finished");
	}
	if (db_int(db, -1, "UPDATE hosts SET current_job_id = NULL WHERE current_job_id"
		   " IN (SELECT id FROM jobs WHERE experiment_id = ?) RETURNING 0",
		   1, (int64_t)exp) < -1 ||
	    db_int(db, -1, "UPDATE jobs SET state = 'cancelled', lease_token = NULL,"
		   " lease_expires = NULL, finished_at = ?, failure_reason = 'cancelled'"
		   " WHERE experiment_id = ? AND state IN ('queued', 'claimed', 'running')"
		   " RETURNING 0", 2, (int64_t)now, (int64_t)exp) < -1 ||
	    db_int(db, -1, "UPDATE experiments SET state = 'cancelled', finished_at = ?,"
		   " analysis_pending = 0 WHERE id = ? RETURNING 0", 2, (int64_t)now,
		   (int64_t)exp) != 0) {
		lab_fail_db(e, db);
		db_rollback(db);
		return -1;
	}
	if (db_commit(db))
		return lab_fail_db(e, db);
	publish_experiment(c, exp, "cancelled");
	return 0;
}
