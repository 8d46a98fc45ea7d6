// SPDX-License-Identifier: MIT
/*
 * A bisection step's outcome from its experiment, and its row; see
 * bisect_step.h.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/failure_reasons.h"
#include "daemon/lab/bisect_step.h"
#include "daemon/store/db.h"
#include "daemon/store/sql.h"

static void col(char *dst, size_t len, sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	snprintf(dst, len, "%s", t ? (const char *)t : "");
}

static double num(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN :
	       sqlite3_column_double(st, i);
}



/*
 * Why variant @name of step experiment @exp has no result ("" when it has
 * one or is still going): the variant's own failure (a reason that is not
 * retried), else, when none of its jobs succeeded, the last failed job's
 * reason (a retryable one after the attempt cap).
 */
static void variant_failure(sqlite3 *db, int64_t exp, const char *name,
			    char *out, size_t len)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT CASE WHEN v.state = 'failed'"
				      " THEN coalesce(v.failure_reason, 'failed')"
				      " WHEN NOT EXISTS (SELECT 1 FROM jobs j WHERE"
				      " j.variant_id = v.id AND j.state = 'done') THEN"
				      " coalesce((SELECT j.failure_reason FROM jobs j"
				      " WHERE j.variant_id = v.id AND j.state = 'failed'"
				      " ORDER BY j.finished_at DESC, j.id DESC LIMIT 1), '')"
				      " ELSE '' END FROM variants v WHERE"
				      " v.experiment_id = ? AND v.name = ?");

	out[0] = '\0';
	if (!st)
		return;
	sqlite3_bind_int64(st, 1, exp);
	sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		col(out, len, st, 0);
	sqlite3_finalize(st);
}

/* "boot: the kernel did not boot ..." for a reason of the table. */
static void failure_text(char *dst, size_t len, const char *prefix,
			 const char *why)
{
	const struct failure_reason *r = failure_reason_find(why);

	if (r)
		snprintf(dst, len, "%s (%s: %s)", prefix, r->name, r->meaning);
	else
		snprintf(dst, len, "%s (%s)", prefix, why);
}

void bisect_step_outcome(store_conn *db, int64_t exp, struct bisect_outcome *o)
{
	const struct failure_reason *r;
	char why[64];
	sqlite3_stmt *st;

	memset(o, 0, sizeof(*o));
	o->delta = o->lo = o->hi = o->mde = NAN;
	o->bad_delta = o->bad_lo = o->bad_hi = NAN;
	variant_failure(db, exp, "good", why, sizeof(why));
	if (why[0]) {
		failure_text(o->fail, sizeof(o->fail), "the good commit failed", why);
		return;
	}
	variant_failure(db, exp, "parent", why, sizeof(why));
	if (why[0]) {
		failure_text(o->fail, sizeof(o->fail), "the culprit's parent failed",
			     why);
		return;
	}
	variant_failure(db, exp, "bad", why, sizeof(why));
	if (why[0]) {
		failure_text(o->fail, sizeof(o->fail), "the bad commit failed", why);
		return;
	}
	/* Only a reason the table marks "skip" (build) skips the commit like
	 * git bisect skip; any other failure of the step, retried or not,
	 * fails the bisection with it (common/failure_reasons.c). */
	variant_failure(db, exp, "step", why, sizeof(why));
	r = failure_reason_find(why);
	if (r && r->bisect == FAILURE_BISECT_SKIP) {
		o->skipped = 1;
		return;
	}
	if (why[0]) {
		failure_text(o->fail, sizeof(o->fail), "a step failed", why);
		return;
	}
	st = db_prepare(db, "SELECT c.delta_pct, c.ci_low, c.ci_high, c.mde_pct,"
			" c.verdict, c.runs FROM comparisons c JOIN variants v ON"
			" v.id = c.variant_id WHERE c.experiment_id = ? AND"
			" v.name = 'step' ORDER BY c.id DESC LIMIT 1");
	if (!st)
		return (void)snprintf(o->fail, sizeof(o->fail), "database error");
	sqlite3_bind_int64(st, 1, exp);
	if (sqlite3_step(st) == SQLITE_ROW) {
		if (sqlite3_column_type(st, 0) != SQLITE_NULL)
			o->delta = sqlite3_column_double(st, 0);
		if (sqlite3_column_type(st, 1) != SQLITE_NULL)
			o->lo = sqlite3_column_double(st, 1);
		if (sqlite3_column_type(st, 2) != SQLITE_NULL)
			o->hi = sqlite3_column_double(st, 2);
		if (sqlite3_column_type(st, 3) != SQLITE_NULL)
			o->mde = sqlite3_column_double(st, 3);
		col(o->verdict, sizeof(o->verdict), st, 4);
		o->runs = sqlite3_column_int(st, 5);
	}
	sqlite3_finalize(st);
	if (!o->verdict[0] || !isfinite(o->delta))
		snprintf(o->fail, sizeof(o->fail), "a step has no comparison");
	st = db_prepare(db, "SELECT c.delta_pct, c.ci_low, c.ci_high FROM"
			" comparisons c JOIN variants v ON v.id = c.variant_id"
			" WHERE c.experiment_id = ? AND v.name = 'bad' ORDER BY"
			" c.id DESC LIMIT 1");
	if (!st)
		return;
	sqlite3_bind_int64(st, 1, exp);
	if (sqlite3_step(st) == SQLITE_ROW) {
		o->bad_delta = num(st, 0);
		o->bad_lo = num(st, 1);
		o->bad_hi = num(st, 2);
	}
	sqlite3_finalize(st);
}

static void bind_num(sqlite3_stmt *st, int i, double v)
{
	if (isfinite(v))
		sqlite3_bind_double(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

int bisect_step_record(store_conn *db, int64_t step,
		       const struct bisect_outcome *o, int bad, const char *call)
{
	sqlite3_stmt *st = db_prepare(db, "UPDATE bisection_steps SET state = ?,"
				      " bad = ?, delta_pct = ?, ci_lo = ?, ci_hi = ?,"
				      " mde_pct = ?, verdict = NULLIF(?, ''),"
				      " runs = coalesce(NULLIF(?, 0), runs), call = ?"
				      " WHERE id = ?");
	int ok;

	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, o->skipped ? "skipped" : "done", -1, SQLITE_STATIC);
	if (!o->skipped && bad >= 0)
		sqlite3_bind_int(st, 2, bad);
	bind_num(st, 3, o->delta);
	bind_num(st, 4, o->lo);
	bind_num(st, 5, o->hi);
	bind_num(st, 6, o->mde);
	sqlite3_bind_text(st, 7, o->verdict, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 8, o->runs);
	sqlite3_bind_text(st, 9, o->skipped ? "skipped" : call, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 10, step);
	ok = sqlite3_step(st) == SQLITE_DONE;
	sqlite3_finalize(st);
	return ok ? 0 : -1;
}

int bisect_step_progress(store_conn *db, int64_t step,
			 const struct bisect_outcome *o, int runs)
{
	sqlite3_stmt *st = db_prepare(db, "UPDATE bisection_steps SET state ="
				      " 'running', bad = NULL, delta_pct = ?, ci_lo = ?,"
				      " ci_hi = ?, mde_pct = ?, verdict = 'unknown',"
				      " call = 'unknown', runs = ? WHERE id = ?");
	int ok;

	if (!st)
		return -1;
	bind_num(st, 1, o->delta);
	bind_num(st, 2, o->lo);
	bind_num(st, 3, o->hi);
	bind_num(st, 4, o->mde);
	sqlite3_bind_int(st, 5, runs);
	sqlite3_bind_int64(st, 6, step);
	ok = sqlite3_step(st) == SQLITE_DONE;
	sqlite3_finalize(st);
	return ok ? 0 : -1;
}
