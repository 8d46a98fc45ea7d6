/* SPDX-License-Identifier: MIT */
/*
 * Job leases (docs/contracts.md sections 2 and 3): claim, heartbeat,
 * failure, expiry, cancellation, and experiment completion. Functions
 * run their own transactions; callers in the daemon run them on the
 * writer connection under its lock (store/writer.h). An experiment's
 * analysis is not run here: settling marks it for the analysis worker.
 */
#ifndef PERFLAB_JOBS_H
#define PERFLAB_JOBS_H

#include <stdint.h>
#include <time.h>
#include <jansson.h>

#include "daemon/store/conn.h"
#include "daemon/lab/status.h"

#include "daemon/lab/analysis_worker.h"
#include "daemon/lab/events.h"

struct jobs_ctx {
	int lease_seconds;
	int max_attempts;
	struct events *ev;	/* may be NULL */
	/* Kicked when an experiment is marked for analysis; may be NULL
	 * (the mark stays for the next worker that starts). */
	struct analysis_worker *analysis;
	/*
	 * May @host run @job now (lab/builds.c: is its kernel image there,
	 * or may the host build it)? 1 yes, 0 not now (the claim tries the
	 * next experiment), -1 error. Runs inside the claim's transaction
	 * with the lease the job would get. NULL: always.
	 */
	int (*gate)(store_conn *db, int64_t host, int64_t job, const char *lease,
		    time_t now);
};

struct claim {
	int64_t job_id;
	int64_t experiment_id;
	char lease[33];
	time_t expires;
	int attempt;
};


/*
 * Claim the next job for @host_id: continue the experiment pinned to the
 * host, else pin the oldest queued experiment whose label/backend match.
 * A job the host still holds is requeued first (the runner restarted).
 * Returns 1 and fills @out, 0 when nothing is claimable, -1 on error.
 */
int jobs_claim(store_conn *db, const struct jobs_ctx *c, int64_t host_id,
	       time_t now, struct claim *out);

/* The job spec answered to the runner (contracts.md "Claimed job"). */
json_t *jobs_spec_json(store_conn *db, const struct claim *cl, int lease_seconds);
/* A variant's patches as the spec has them: [{id, sha256, subject, raw}]. */
json_t *jobs_variant_patches(store_conn *db, int64_t variant);
/* The spec's base object in its kind's shape (git: url, commit; tarball: tree). */
void jobs_base_shape(json_t *base);
/*
 * Inside a transaction: fail @variant (with a reason of
 * common/failure_reasons.c: patch_apply, build or internal from a build) with
 * @log and cancel its queued jobs, as a failed job of it would. Then
 * settle its experiment: returns jobs_settle_experiment's value.
 */
int jobs_fail_variant(store_conn *db, int64_t variant, const char *reason,
		      const char *log, time_t now);

/*
 * Check that @lease is the current lease of @job_id (held by @host_id
 * unless 0) and not expired. Inside the caller's transaction. 0 and the
 * job's experiment/variant/attempt/run_index, or -1: LAB_NOT_FOUND (no
 * such job), LAB_CONFLICT (jobs_stale_lease()).
 */
int jobs_lease_check(store_conn *db, int64_t job_id, int64_t host_id,
		     const char *lease, time_t now, int64_t *experiment_id,
		     int64_t *variant_id, int *attempt, int *run_index,
		     struct lab_err *e);
/* The refusal of a lease that is not current (LAB_CONFLICT); -1. */
int jobs_stale_lease(struct lab_err *e);

/* Renew the lease and note the phase. 0 with *@expires, or -1 as
 * jobs_lease_check. */
int jobs_heartbeat(store_conn *db, const struct jobs_ctx *c, int64_t job_id,
		   int64_t host_id, const char *lease, const char *phase,
		   const char *message, time_t now, time_t *expires,
		   struct lab_err *e);

/* @reason: a row of common/failure_reasons.c; a retryable one requeues the
 * job (up to the attempt cap), any other fails the variant.
 * 0, or -1 as jobs_lease_check (LAB_INVALID: not a reason of the table). */
int jobs_fail(store_conn *db, const struct jobs_ctx *c, int64_t job_id,
	      int64_t host_id, const char *lease, const char *reason,
	      const char *log, time_t now, struct lab_err *e);

/*
 * Inside the caller's transaction (the result upload, lab/ingest.c, after
 * jobs_lease_check): @job's run is stored, the job is done, its host free.
 * 0, or -1 (the job was not claimed or running, or a database error).
 */
int jobs_done(store_conn *db, int64_t job_id, int attempt, int64_t host_id,
	      const char *lease, time_t now);

/* Requeue or fail every job whose lease expired before @now. Returns count. */
int jobs_expire(store_conn *db, const struct jobs_ctx *c, time_t now);

/* Cancel an experiment and its unfinished jobs. 0, or -1: LAB_NOT_FOUND,
 * LAB_CONFLICT (already finished). */
int jobs_cancel_experiment(store_conn *db, const struct jobs_ctx *c,
			   int64_t experiment_id, time_t now, struct lab_err *e);

/*
 * Inside a transaction: if no job of the experiment is left to run, mark it
 * for analysis (some run succeeded; it stays 'running' until analysed) or
 * set it failed. Returns 1 marked, 2 failed, 0 not yet, -1 on error.
 */
int jobs_settle_experiment(store_conn *db, int64_t experiment_id, time_t now);
/* After commit: kick the analysis worker or publish the failure. */
void jobs_after_settle(const struct jobs_ctx *c, int64_t experiment_id,
		       int settled);

void jobs_publish(const struct jobs_ctx *c, int64_t job_id, int64_t experiment_id,
		  const char *state, int attempt, const char *phase,
		  const char *message);

#endif
