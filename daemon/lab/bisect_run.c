// SPDX-License-Identifier: MIT
/*
 * Bisection driver: steps as experiments; see bisect_run.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "daemon/analysis/bisect.h"
#include "daemon/analysis/verdict.h"
#include "daemon/lab/bases.h"
#include "daemon/lab/bisect_report.h"
#include "daemon/lab/bisect_run.h"
#include "daemon/lab/bisect_step.h"
#include "daemon/lab/gitmirror.h"
#include "daemon/lab/jobs.h"
#include "daemon/lab/planner.h"
#include "daemon/lab/trust.h"
#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "daemon/store/writer.h"

/* A midpoint's runs may grow to this many times the bisection's runs. */
#define BISECT_MAX_RUNS_X 4
/* The first step's (bad vs good) and a confirmation's. */
#define BISECT_END_RUNS_X 2

/* What a running bisection needs to queue a step. */
struct bisection {
	int64_t id, base_id, key_id, track_id;
	char label[256], host_label[65], backend[65];
	char *bench;
	int runs;
	char (*commits)[41];	/* c[0] = good .. c[n-1] = bad */
	size_t n;
	double step_pct;
	struct base_ref base;
};

static int finish(sqlite3 *db, int64_t id, const char *outcome,
		  const char *why, const char *culprit,
		  const struct bisect_step *r);

static void bisection_free(struct bisection *b)
{
	free(b->bench);
	free(b->commits);
}

static void col(char *dst, size_t len, sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	snprintf(dst, len, "%s", t ? (const char *)t : "");
}

static int parse_commits(const char *js, struct bisection *b)
{
	json_t *a = json_loads(js, 0, NULL), *v;
	size_t i;

	b->n = json_array_size(a);
	b->commits = calloc(b->n ? b->n : 1, sizeof(*b->commits));
	if (!a || !b->commits || b->n < 2) {
		json_decref(a);
		return -1;
	}
	json_array_foreach(a, i, v)
		snprintf(b->commits[i], 41, "%s", json_string_value(v) ?: "");
	json_decref(a);
	return 0;
}

static int bisection_load(sqlite3 *db, int64_t id, struct bisection *b)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT base_id, label,"
				      " coalesce(host_label, ''), coalesce(backend, ''),"
				      " bench, runs, commits, step_pct,"
				      " coalesce(created_by, 0), coalesce(track_id, 0)"
				      " FROM bisections"
				      " WHERE id = ? AND state = 'running'");
	int rc = -1;

	memset(b, 0, sizeof(*b));
	b->id = id;
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) == SQLITE_ROW) {
		b->base_id = sqlite3_column_int64(st, 0);
		col(b->label, sizeof(b->label), st, 1);
		col(b->host_label, sizeof(b->host_label), st, 2);
		col(b->backend, sizeof(b->backend), st, 3);
		b->bench = strdup((const char *)sqlite3_column_text(st, 4));
		b->runs = sqlite3_column_int(st, 5);
		b->step_pct = sqlite3_column_type(st, 7) == SQLITE_NULL ? NAN :
			      sqlite3_column_double(st, 7);
		b->key_id = sqlite3_column_int64(st, 8);
		b->track_id = sqlite3_column_int64(st, 9);
		rc = b->bench ? parse_commits((const char *)sqlite3_column_text(st, 6), b) : -1;
	} else {
		rc = 1;		/* not running */
	}
	sqlite3_finalize(st);
	/* Its first-parent list is still being read (bisect_run_prepare). */
	if (rc == -1 && b->n == 0 && b->bench)
		rc = 2;
	if (!rc && bases_by_id(db, b->base_id, &b->base, NULL))
		rc = -1;
	return rc;
}

/*
 * Queue the step of commit @idx: an experiment of "good" (control, the
 * good commit) and "step" (commit idx), and its bisection_steps row at
 * index @row_idx (the first step's is -1 until the list is read).
 * Inside the caller's transaction. 0 or -1.
 */
static int queue_step(sqlite3 *db, const struct bisection *b, size_t idx,
		      int64_t row_idx, size_t ctrl)
{
	struct variant_spec v[3] = {
		{ .name = ctrl ? "parent" : "good", .is_control = true,
		  .base_commit = b->commits[ctrl] },
		{ .name = "step", .base_commit = b->commits[idx] },
		{ .name = "bad", .base_commit = b->commits[b->n - 1] },
	};
	/* A midpoint measures both ends again (fresh runs of G and B) and
	 * may get runs up to BISECT_MAX_RUNS_X times its own while it is
	 * unknown; the first step (B itself) is the two ends alone, the
	 * culprit's confirmation its parent and itself. */
	int mid = !ctrl && idx != b->n - 1;
	struct experiment_spec e = {
		.kind = "explicit", .base_id = b->base_id,
		.base_commit = b->commits[ctrl], .bench_json = b->bench,
		.label = b->host_label[0] ? b->host_label : NULL,
		.backend = b->backend[0] ? b->backend : NULL,
		.runs = b->runs,
		.max_runs = (mid ? BISECT_MAX_RUNS_X : BISECT_END_RUNS_X) * b->runs,
		.variants = v,
		.nvariants = mid ? 3 : 2, .submitter_key_id = b->key_id,
	};
	struct gitmirror_commit c;
	char title[256];
	sqlite3_stmt *st;
	int64_t exp;
	int ok;

	if (gitmirror_commit_info(b->base.mirror, b->commits[idx], &c))
		memset(&c, 0, sizeof(c));
	snprintf(title, sizeof(title), "bisect %lld: %.12s %.120s",
		 (long long)b->id, b->commits[idx], c.subject);
	e.title = title;
	exp = planner_create(db, &e, NULL);
	if (exp < 0)
		return -1;
	st = db_prepare(db, "INSERT INTO bisection_steps (bisection_id, idx,"
			" commit_sha, subject, author, email, experiment_id, runs,"
			" created_at) VALUES (?,?,?,?,?,?,?,?,?)");
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, b->id);
	sqlite3_bind_int64(st, 2, row_idx);
	sqlite3_bind_text(st, 3, b->commits[idx], -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, c.subject, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, c.author, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, c.email, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 7, exp);
	sqlite3_bind_int(st, 8, b->runs);
	sqlite3_bind_int64(st, 9, (int64_t)time(NULL));
	ok = sqlite3_step(st) == SQLITE_DONE;
	sqlite3_finalize(st);
	return ok ? 0 : -1;
}

static int insert_bisection(sqlite3 *db, const struct bisect_spec *s,
			    int64_t base_id, const char *good, const char *bad,
			    const char *commits, int64_t *id)
{
	sqlite3_stmt *st = db_prepare(db, "INSERT INTO bisections (base_id, label,"
				      " good, bad, host_label, backend, bench, runs,"
				      " commits, track_id, change_point_id, created_by,"
				      " created_at) VALUES (?,?,?,?,?,?,?,?,?,NULLIF(?, 0),"
				      " NULLIF(?, 0), NULLIF(?, 0), ?)");
	int ok;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, base_id);
	sqlite3_bind_text(st, 2, s->label ? s->label : "", -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, good, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, bad, -1, SQLITE_STATIC);
	if (s->host_label)
		sqlite3_bind_text(st, 5, s->host_label, -1, SQLITE_STATIC);
	if (s->backend)
		sqlite3_bind_text(st, 6, s->backend, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 7, s->bench_json, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 8, s->runs);
	sqlite3_bind_text(st, 9, commits, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 10, s->track_id);
	sqlite3_bind_int64(st, 11, s->change_point_id);
	sqlite3_bind_int64(st, 12, s->key_id);
	sqlite3_bind_int64(st, 13, (int64_t)time(NULL));
	ok = sqlite3_step(st) == SQLITE_DONE;
	sqlite3_finalize(st);
	*id = sqlite3_last_insert_rowid(db);
	return ok ? 0 : -1;
}

/* Good and bad of @s in @b's mirror, good an ancestor of bad. 0 or -1. */
static int resolve_range(struct base_ref *base, const struct bisect_spec *s,
			 char good[41], char bad[41], struct lab_err *e)
{
	int rc;

	if (bases_commit(base, s->good, good, e) ||
	    bases_commit(base, s->bad, bad, e))
		return -1;
	if (!strcmp(good, bad))
		return lab_fail(e, LAB_REJECTED, "the bad commit is not after the"
				" good one");
	rc = gitmirror_is_ancestor(base->mirror, good, bad);
	if (rc < 0)
		return lab_fail(e, LAB_UPSTREAM, "git merge-base failed");
	if (!rc)
		return lab_fail(e, LAB_REJECTED, "the good commit is not an"
				" ancestor of the bad one");
	return 0;
}

/*
 * The rows, in one transaction with the quota check: the bisection (its
 * commits [] until bisect_run_prepare reads them) and its first step,
 * bad vs good. 0, or -1: LAB_CONFLICT, LAB_REJECTED/LAB_QUOTA (quota).
 */
static int insert_start(sqlite3 *w, const struct bisect_spec *s,
			struct bisection *b, const char *good, const char *bad,
			int64_t *id, struct lab_err *e)
{
	char ends[2][41];

	if (db_begin(w))
		return lab_fail_db(e, w);
	if (s->who && trust_quota(w, s->who, 2 * s->runs, e)) {
		db_rollback(w);
		return -1;
	}
	if (insert_bisection(w, s, b->base.id, good, bad, "[]", id))
		goto rollback;
	snprintf(ends[0], 41, "%s", good);
	snprintf(ends[1], 41, "%s", bad);
	b->id = *id;
	b->base_id = b->base.id;
	b->key_id = s->key_id;
	b->bench = (char *)s->bench_json;
	b->runs = s->runs;
	b->commits = ends;
	b->n = 2;
	snprintf(b->host_label, sizeof(b->host_label), "%s", s->host_label ?: "");
	snprintf(b->backend, sizeof(b->backend), "%s", s->backend ?: "");
	if (queue_step(w, b, 1, -1, 0))
		goto rollback;
	if (db_commit(w))
		return lab_fail_db(e, w);
	return 0;
rollback:
	if (sqlite3_extended_errcode(w) == SQLITE_CONSTRAINT_UNIQUE)
		lab_fail(e, LAB_CONFLICT, "this change point has a bisection"
			 " already");
	else
		lab_fail_db(e, w);
	db_rollback(w);
	return -1;
}

int bisect_run_start(sqlite3 *db, const struct bisect_spec *s, int64_t *id,
		     struct lab_err *e)
{
	struct bisection b = { 0 };
	struct lab_err local;
	char good[41], bad[41];
	sqlite3 *w;
	int rc;

	if (!e)
		e = &local;
	/* By name or id; nothing is fetched unless good or bad need it. */
	rc = s->base_id ? bases_by_id(db, s->base_id, &b.base, e) :
	     bases_find(db, s->base, &b.base, e);
	if (rc && e->st == LAB_NOT_FOUND)
		return lab_fail(e, LAB_REJECTED, "no such base");
	if (rc)
		return -1;
	if (!b.base.git)
		return lab_fail(e, LAB_REJECTED, "base '%s' is not a git base",
				s->base);
	if (resolve_range(&b.base, s, good, bad, e))
		return -1;
	/* git is done: the rows under the write lock; the first-parent list
	 * is read by the bisect worker (bisect_run_prepare). */
	w = db_write_lock(db);
	rc = insert_start(w, s, &b, good, bad, id, e);
	db_write_unlock(db, w);
	return rc;
}

double bisect_run_first_alpha(int runs)
{
	struct verdict_opts o;

	verdict_opts_default(&o);
	return planner_look_alpha(runs, BISECT_END_RUNS_X * runs,
				  VERDICT_MIN_RUNS, o.alpha, runs);
}

/* ---- the first-parent list (the bisect worker) ----------------------- */

/* Bisection @id ends 'failed' with @why; its first step is cancelled. */
static void fail_start(sqlite3 *db, int64_t id, const char *why,
		       const struct jobs_ctx *jc)
{
	sqlite3 *w = db_write_lock(db);
	int64_t exp;

	fprintf(stderr, "perflabd: bisection %lld: %s\n", (long long)id, why);
	if (!db_begin(w) && !finish(w, id, "failed", why, NULL, NULL) &&
	    !db_commit(w)) {
		exp = db_int(w, 0, "SELECT experiment_id FROM bisection_steps"
			     " WHERE bisection_id = ? AND idx = -1", 1, id);
		if (exp > 0)
			jobs_cancel_experiment(w, jc, exp, time(NULL), NULL);
	}
	db_write_unlock(db, w);
}

/* Store @list as bisection @id's commits; its first step is the last. */
static int store_list(sqlite3 *db, int64_t id, const char *list, size_t n)
{
	sqlite3 *w = db_write_lock(db);
	sqlite3_stmt *st;
	int ok = 0;

	if (db_begin(w))
		goto out;
	st = db_prepare(w, "UPDATE bisections SET commits = ? WHERE id = ? AND"
			" state = 'running' AND commits = '[]'");
	if (!st)
		goto out;
	sqlite3_bind_text(st, 1, list, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, id);
	ok = sqlite3_step(st) == SQLITE_DONE;
	sqlite3_finalize(st);
	ok = ok && db_int(w, -1, "UPDATE bisection_steps SET idx = ? WHERE"
			  " bisection_id = ? AND idx = -1 RETURNING 0", 2,
			  (int64_t)n - 1, id) != -1;
	ok = ok && !db_commit(w);
out:
	db_write_unlock(db, w);
	return ok ? 0 : -1;
}

static int prepare_one(sqlite3 *db, int64_t id, int64_t base_id,
		       const char *good, const char *bad,
		       const struct jobs_ctx *jc)
{
	char (*fp)[41] = NULL, why[600], *list;
	struct base_ref base;
	struct lab_err e;
	json_t *a;
	size_t n = 0;
	int rc;

	if (bases_by_id(db, base_id, &base, NULL))
		return -1;
	rc = gitmirror_first_parent(base.mirror, good, bad, &fp, &n, &e);
	if (rc && gitmirror_cancelled())
		return 0;	/* stopping: the next start reads it */
	if (rc) {
		snprintf(why, sizeof(why), "%s%s", e.st == LAB_REJECTED ? "" :
			 "cannot read the first-parent history: ", e.msg);
		fail_start(db, id, why, jc);
		return 0;
	}
	a = json_array();
	json_array_append_new(a, json_string(good));
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_string(fp[i]));
	free(fp);
	list = json_dumps(a, JSON_COMPACT);
	json_decref(a);
	rc = list ? store_list(db, id, list, n + 1) : -1;
	free(list);
	return rc ? -1 : 1;
}

int bisect_run_prepare(sqlite3 *db, const struct jobs_ctx *jc)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT id, base_id, good, bad FROM"
				      " bisections WHERE state = 'running' AND"
				      " commits = '[]' ORDER BY id LIMIT 8");
	struct { int64_t id, base; char good[41], bad[41]; } r[8];
	int n = 0, done = 0;

	if (!st)
		return -1;
	while (n < 8 && sqlite3_step(st) == SQLITE_ROW) {
		r[n].id = sqlite3_column_int64(st, 0);
		r[n].base = sqlite3_column_int64(st, 1);
		col(r[n].good, 41, st, 2);
		col(r[n].bad, 41, st, 3);
		n++;
	}
	sqlite3_finalize(st);
	for (int i = 0; i < n; i++)
		done += prepare_one(db, r[i].id, r[i].base, r[i].good, r[i].bad,
				    jc) > 0;
	return done;
}

/* ---- advancing ------------------------------------------------------- */

/*
 * End bisection @id with @outcome (the outcome column, schema 0017): done
 * for a culprit, a range, a split or a step that did not reproduce (the
 * lab answered), failed for the rest; @why for the ones without culprit.
 */
static int finish(sqlite3 *db, int64_t id, const char *outcome,
		  const char *why, const char *culprit,
		  const struct bisect_step *r)
{
	sqlite3_stmt *st = db_prepare(db, "UPDATE bisections SET state = ?,"
				      " failure_reason = ?, culprit = ?, range_lo = ?,"
				      " range_hi = ?, finished_at = ?, outcome = ?"
				      " WHERE id = ?");
	int done = !strcmp(outcome, "culprit") || !strcmp(outcome, "range") ||
		   !strcmp(outcome, "split") ||
		   !strcmp(outcome, "did_not_reproduce"), ok;

	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, done ? "done" : "failed", -1, SQLITE_STATIC);
	if (why)
		sqlite3_bind_text(st, 2, why, -1, SQLITE_STATIC);
	if (culprit)
		sqlite3_bind_text(st, 3, culprit, -1, SQLITE_STATIC);
	if (r && r->result == BISECT_RANGE) {
		sqlite3_bind_int64(st, 4, (int64_t)r->lo);
		sqlite3_bind_int64(st, 5, (int64_t)r->hi);
	}
	sqlite3_bind_int64(st, 6, (int64_t)time(NULL));
	sqlite3_bind_text(st, 7, outcome, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 8, id);
	ok = sqlite3_step(st) == SQLITE_DONE;
	sqlite3_finalize(st);
	return ok ? 0 : -1;
}

/* The states of b's commits from its finished steps. */
static enum bisect_state *load_states(sqlite3 *db, const struct bisection *b)
{
	enum bisect_state *s = calloc(b->n, sizeof(*s));
	sqlite3_stmt *st = db_prepare(db, "SELECT idx, state, bad FROM"
				      " bisection_steps WHERE bisection_id = ?"
				      " AND state IN ('done', 'skipped')");

	if (!s || !st) {
		free(s);
		sqlite3_finalize(st);
		return NULL;
	}
	sqlite3_bind_int64(st, 1, b->id);
	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t i = sqlite3_column_int64(st, 0);

		if (i < 0 || (size_t)i >= b->n)
			continue;
		if (!strcmp((const char *)sqlite3_column_text(st, 1), "skipped"))
			s[i] = BISECT_SKIP;
		else
			s[i] = sqlite3_column_int(st, 2) ? BISECT_BAD : BISECT_GOOD;
	}
	sqlite3_finalize(st);
	s[0] = BISECT_GOOD;
	return s;
}

/* Inside a transaction: the next step, or the end. 1 done, 0 queued, -1. */
static int advance(sqlite3 *db, struct bisection *b)
{
	enum bisect_state *s = load_states(db, b);
	struct bisect_step r;
	int rc;

	if (!s)
		return -1;
	r = bisect_next(s, b->n);
	free(s);
	switch (r.result) {
	case BISECT_TEST:
		return queue_step(db, b, r.index, (int64_t)r.index, 0);
	case BISECT_FOUND:
		/* Measured against G only: confirm it against its parent. */
		if (r.index > 1)
			return queue_step(db, b, r.index, (int64_t)r.index,
					  r.index - 1);
		rc = finish(db, b->id, "culprit", NULL, b->commits[r.index], &r);
		break;
	case BISECT_RANGE:
		rc = finish(db, b->id, "range", NULL, NULL, &r);
		break;
	default:
		rc = finish(db, b->id, "failed", "the bad commit is not bad", NULL, NULL);
		break;
	}
	return rc ? -1 : 1;
}

static int step_of(sqlite3 *db, int64_t exp, int64_t *step, int64_t *bis,
		   size_t *idx)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT id, bisection_id, idx FROM"
				      " bisection_steps WHERE experiment_id = ? AND"
				      " state IN ('queued', 'running')");
	int found = 0;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, exp);
	if (sqlite3_step(st) == SQLITE_ROW) {
		*step = sqlite3_column_int64(st, 0);
		*bis = sqlite3_column_int64(st, 1);
		*idx = (size_t)sqlite3_column_int64(st, 2);
		found = 1;
	}
	sqlite3_finalize(st);
	return found;
}

static int set_step_pct(sqlite3 *db, int64_t id, double pct)
{
	sqlite3_stmt *st = db_prepare(db, "UPDATE bisections SET step_pct = ? WHERE id = ?");
	int ok;

	if (!st)
		return -1;
	sqlite3_bind_double(st, 1, pct);
	sqlite3_bind_int64(st, 2, id);
	ok = sqlite3_step(st) == SQLITE_DONE;
	sqlite3_finalize(st);
	return ok ? 0 : -1;
}

/* ---- several culprits ------------------------------------------------ */

/*
 * Child bisection of @b over its commits [@from, @to]: its first step
 * (commit @to against @from) queued; the list is known already. Inside
 * the caller's transaction. 0 or -1.
 */
static int child(sqlite3 *db, const struct bisection *b, size_t from,
		 size_t to, int64_t *id)
{
	struct bisect_spec s = {
		.label = b->label, .bench_json = b->bench, .runs = b->runs,
		.host_label = b->host_label[0] ? b->host_label : NULL,
		.backend = b->backend[0] ? b->backend : NULL,
		.track_id = b->track_id, .key_id = b->key_id,
	};
	struct bisection c = *b;
	json_t *a = json_array();
	char *list;
	int rc;

	for (size_t i = from; i <= to; i++)
		json_array_append_new(a, json_string(b->commits[i]));
	list = json_dumps(a, JSON_COMPACT);
	json_decref(a);
	rc = list ? insert_bisection(db, &s, b->base_id, b->commits[from],
				     b->commits[to], list, id) : -1;
	free(list);
	if (rc || db_int(db, -1, "UPDATE bisections SET parent_id = ? WHERE"
			 " id = ? RETURNING 0", 2, b->id, *id))
		return -1;
	c.id = *id;
	c.commits = b->commits + from;
	c.n = to - from + 1;
	c.step_pct = NAN;
	return queue_step(db, &c, c.n - 1, (int64_t)c.n - 1, 0);
}

/*
 * Midpoint @idx of @b lies between both ends: two bisections take over,
 * good..idx and idx..bad, each measuring its own step first (a revert
 * between two regressions shows as an improvement in one of them); @b
 * ends 'split'. Children are not charged to the key's quota: they are
 * the rest of a bisection it was charged for. 0 or -1.
 */
static int split(sqlite3 *db, struct bisection *b, size_t idx)
{
	int64_t left, right;
	char why[300];

	if (child(db, b, 0, idx, &left) || child(db, b, idx, b->n - 1, &right))
		return -1;
	snprintf(why, sizeof(why), "split at commit %.12s (step %zu), between"
		 " good and bad: bisection %lld (good..%.12s) and %lld"
		 " (%.12s..bad)", b->commits[idx], idx, (long long)left,
		 b->commits[idx], (long long)right, b->commits[idx]);
	return finish(db, b->id, "split", why, NULL, NULL);
}

/*
 * A midpoint's three-way decision (bisect_call: its CI against half the
 * step re-measured in the same experiment, in the first step's
 * direction), unless it lies between both ends (bisect_splits: a change
 * each side of it). 1 bad, 0 good; -2 unknown with more runs queued (the
 * step goes on); 2 unknown at the cap (the bisection failed, saying why)
 * or split (two bisections go on); -1.
 */
static int midpoint(sqlite3 *db, struct bisection *b, int64_t exp,
		    int64_t step, size_t idx, const struct bisect_outcome *o)
{
	int dir = b->step_pct > 0 ? 1 : -1, rounds, added;
	enum bisect_call c = bisect_call(o->lo, o->hi, o->bad_delta, dir);
	char why[400];

	if (bisect_splits(o->lo, o->hi, o->bad_lo, o->bad_hi, dir)) {
		if (bisect_step_record(db, step, o, -1, "between") ||
		    split(db, b, idx))
			return -1;
		return 2;
	}
	if (c != BISECT_CALL_UNKNOWN)
		return c == BISECT_CALL_BAD;
	rounds = (int)db_int(db, 0, "SELECT coalesce(max(run_index) + 1, 0) FROM"
			     " jobs WHERE experiment_id = ?", 1, exp);
	/* Twice the runs, up to the experiment's max_runs. */
	added = planner_extend(db, exp, rounds > 0 ? rounds : b->runs);
	if (added < 0)
		return -1;
	if (added > 0) {
		/* Shown while it runs: unknown so far (bad stays NULL). */
		if (bisect_step_progress(db, step, o, rounds))
			return -1;
		return -2;
	}
	snprintf(why, sizeof(why), "unknown: commit %.12s (step %zu) is neither"
		 " like good nor like bad after %d runs a side: delta %.3f %%,"
		 " 95 %% CI [%.3f, %.3f] %%, against half the step re-measured"
		 " with it (%.3f %% / 2); more runs, or a larger step, can"
		 " decide it", b->commits[idx], idx, rounds, o->delta, o->lo,
		 o->hi, o->bad_delta);
	if (bisect_step_record(db, step, o, -1, "unknown") ||
	    finish(db, b->id, "unknown", why, NULL, NULL))
		return -1;
	return 2;
}

/*
 * The culprit against its own parent (its step measured it against G):
 * a regression or improvement in the bisection's direction names it, and
 * its delta is the one reported; else no culprit (the step may be spread
 * over several commits, or be noise), saying so. 1 finished, or -1.
 */
static int confirm(sqlite3 *db, struct bisection *b, int64_t step, size_t idx,
		   const struct bisect_outcome *o)
{
	int dir = b->step_pct > 0 ? 1 : -1;
	int ok = !o->skipped && dir * o->delta > 0 &&
		 (!strcmp(o->verdict, "regression") ||
		  !strcmp(o->verdict, "improvement"));
	char why[400];

	if (bisect_step_record(db, step, o, ok, ok ? "confirmed" : "not_confirmed"))
		return -1;
	if (ok)
		return finish(db, b->id, "culprit", NULL, b->commits[idx], NULL) ? -1 : 1;
	snprintf(why, sizeof(why), "not confirmed: commit %.12s is bad against"
		 " good but not against its parent (%s, delta %.3f %%, 95 %% CI"
		 " [%.3f, %.3f] %%): the step may be spread over several commits,"
		 " or be noise", b->commits[idx], o->skipped ? "its parent does"
		 " not build" : o->verdict, o->delta, o->lo, o->hi);
	return finish(db, b->id, "not_confirmed", why, NULL, NULL) ? -1 : 1;
}

/* Inside a transaction: record step @step of @b. 1: finished, 0 more, -1 */
static int take_step(sqlite3 *db, struct bisection *b, int64_t exp,
		     int64_t step, size_t idx)
{
	struct bisect_outcome o;
	int bad = 0;

	bisect_step_outcome(db, exp, &o);
	if (o.fail[0])
		return finish(db, b->id, "failed", o.fail, NULL, NULL) ? -1 : 1;
	/* The commit's step is done already: this is its confirmation. */
	if (db_int(db, 0, "SELECT count(*) FROM bisection_steps WHERE"
		   " bisection_id = ? AND idx = ? AND state = 'done' AND id != ?",
		   3, b->id, (int64_t)idx, step) > 0)
		return confirm(db, b, step, idx, &o);
	if (idx == b->n - 1) {
		/* The endpoints: bad vs good is the step itself. */
		if (o.skipped)
			return finish(db, b->id, "failed", "the bad commit does not"
				      " build", NULL, NULL) ? -1 : 1;
		if (strcmp(o.verdict, "regression") && strcmp(o.verdict, "improvement")) {
			char why[128];

			snprintf(why, sizeof(why), "the step between good and bad"
				 " did not reproduce (%s)", o.verdict);
			bisect_step_record(db, step, &o, 0, "did_not_reproduce");
			return finish(db, b->id, "did_not_reproduce", why, NULL,
				      NULL) ? -1 : 1;
		}
		b->step_pct = o.delta;
		if (set_step_pct(db, b->id, o.delta))
			return -1;
		bad = 1;
	} else if (!o.skipped) {
		bad = midpoint(db, b, exp, step, idx, &o);
		if (bad < 0)
			return bad == -2 ? 0 : -1;
	}
	if (bad > 1)
		return 1;	/* finished: unknown at the cap, or split */
	if (bisect_step_record(db, step, &o, bad, idx == b->n - 1 ? "reproduced" :
			       bad ? "bad" : "good"))
		return -1;
	return advance(db, b);
}

/* The culprit's report; its alert is kept with the bisection. */
static void notify(sqlite3 *db, int64_t id)
{
	int64_t alert = bisect_notify_culprit(db, id);

	if (alert < 0)
		fprintf(stderr, "perflabd: report of bisection %lld failed\n",
			(long long)id);
	else if (alert > 0)
		db_int(db, 0, "UPDATE bisections SET alert_id = ? WHERE id = ?", 2,
		       alert, id);
}

static int experiment_done(sqlite3 *db, int64_t exp)
{
	struct bisection b;
	int64_t step, id;
	size_t idx;
	int rc;

	rc = step_of(db, exp, &step, &id, &idx);
	if (rc <= 0)
		return rc;
	rc = bisection_load(db, id, &b);
	if (rc) {
		/* Not running, or its list not read yet: the sweep comes back. */
		bisection_free(&b);
		return rc < 0 ? -1 : 0;
	}
	if (idx >= b.n || db_begin(db)) {
		bisection_free(&b);
		return -1;
	}
	rc = take_step(db, &b, exp, step, idx);
	if (rc < 0 || db_commit(db)) {
		db_rollback(db);
		bisection_free(&b);
		return -1;
	}
	bisection_free(&b);
	if (rc == 1 && db_int(db, 0, "SELECT culprit IS NOT NULL FROM bisections"
			      " WHERE id = ?", 1, id))
		notify(db, id);
	return 1;
}

/* Its steps are short writes: all under the write lock. */
int bisect_run_experiment_done(sqlite3 *db, int64_t exp)
{
	sqlite3 *w = db_write_lock(db);
	int rc = experiment_done(w, exp);

	db_write_unlock(db, w);
	return rc;
}

int bisect_run_sweep(sqlite3 *db)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT s.experiment_id FROM"
				      " bisection_steps s JOIN experiments e ON"
				      " e.id = s.experiment_id JOIN bisections b ON"
				      " b.id = s.bisection_id WHERE s.state IN"
				      " ('queued', 'running') AND b.state = 'running'"
				      " AND b.commits <> '[]' AND (e.state IN"
				      " ('failed', 'cancelled') OR (e.state = 'done'"
				      " AND e.analysis_pending = 0)) LIMIT 16");
	int64_t ids[16];
	int n = 0, done = 0;

	if (!st)
		return -1;
	while (n < 16 && sqlite3_step(st) == SQLITE_ROW)
		ids[n++] = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	for (int i = 0; i < n; i++)
		done += bisect_run_experiment_done(db, ids[i]) > 0;
	return done;
}
