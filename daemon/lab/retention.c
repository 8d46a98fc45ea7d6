// SPDX-License-Identifier: MIT
/*
 * Retention: compaction of old runs' detail; see retention.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/lab/retention.h"
#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "daemon/store/writer.h"

/* Seconds between the end of a pass and the next. */
#define PASS_PAUSE 60

/*
 * Experiment e is due (?1: the cutoff): finished before it, not waiting
 * for its analysis, not compacted, and nothing refers to it.
 */
#define DUE \
	" e.compacted_at IS NULL AND e.finished_at < ?1" \
	" AND e.state IN ('done', 'failed', 'cancelled')" \
	" AND e.analysis_pending = 0 AND e.pinned = 0" \
	" AND NOT EXISTS (SELECT 1 FROM track_points t WHERE t.experiment_id = e.id)" \
	" AND NOT EXISTS (SELECT 1 FROM bisection_steps b WHERE b.experiment_id = e.id)" \
	" AND NOT EXISTS (SELECT 1 FROM alerts a WHERE a.experiment_id = e.id)" \
	" AND NOT EXISTS (SELECT 1 FROM series_points p WHERE p.experiment_id = e.id)"

int64_t retention_due(sqlite3 *db, int64_t age_s, time_t now, int64_t *oldest)
{
	sqlite3_stmt *st = db_prepare(db,
		"SELECT count(*), min(e.finished_at) FROM experiments e WHERE" DUE);
	int64_t n = -1;

	*oldest = 0;
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, (int64_t)now - age_s);
	if (sqlite3_step(st) == SQLITE_ROW) {
		n = sqlite3_column_int64(st, 0);
		*oldest = sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	return n;
}

/* JSON array of the experiment's top symbol ids in @table by @col. */
static char *top_symbols(sqlite3 *db, const char *table, const char *col,
			 int64_t exp, int k)
{
	char sql[512];
	sqlite3_stmt *st;
	char *out = NULL;

	snprintf(sql, sizeof(sql),
		 "SELECT json_group_array(symbol_id) FROM (SELECT x.symbol_id"
		 " FROM %s x JOIN runs r ON r.id = x.run_id WHERE"
		 " r.experiment_id = ?1 GROUP BY x.symbol_id ORDER BY"
		 " sum(x.%s) DESC, x.symbol_id LIMIT ?2)", table, col);
	st = db_prepare(db, sql);
	if (!st)
		return NULL;
	sqlite3_bind_int64(st, 1, exp);
	sqlite3_bind_int(st, 2, k);
	if (sqlite3_step(st) == SQLITE_ROW)
		out = strdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return out;
}

/* Run ids of @exp not compacted yet, in *@ids (malloc'd); count or -1. */
static int open_runs(sqlite3 *db, int64_t exp, int64_t **ids)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT id FROM runs WHERE"
				      " experiment_id = ? AND compacted_at IS NULL"
				      " ORDER BY id");
	int n = 0, cap = 0;

	*ids = NULL;
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, exp);
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (n == cap) {
			int64_t *p = realloc(*ids, (cap = cap ? 2 * cap : 16) *
					     sizeof(*p));

			if (!p) {
				n = -1;
				break;
			}
			*ids = p;
		}
		(*ids)[n++] = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	return n;
}

static const char *const compact_sql[] = {
	"DELETE FROM samples WHERE run_id = ?1",
	"DELETE FROM profile_stacks WHERE run_id = ?1",
	"DELETE FROM profile_symbols WHERE run_id = ?1 AND symbol_id NOT IN"
	" (SELECT value FROM json_each(?2))",
	"DELETE FROM exact_profile_symbols WHERE run_id = ?1 AND symbol_id NOT IN"
	" (SELECT value FROM json_each(?3))",
	"UPDATE runs SET compacted_at = ?4 WHERE id = ?1",
};

static int compact_run(sqlite3 *w, int64_t run, const char *top,
		       const char *exact, time_t now)
{
	for (size_t i = 0; i < sizeof(compact_sql) / sizeof(compact_sql[0]); i++) {
		sqlite3_stmt *st = db_prepare(w, compact_sql[i]);
		int rc;

		if (!st)
			return -1;
		sqlite3_bind_int64(st, 1, run);
		if (sqlite3_bind_parameter_count(st) >= 2)
			sqlite3_bind_text(st, 2, top, -1, SQLITE_STATIC);
		if (sqlite3_bind_parameter_count(st) >= 3)
			sqlite3_bind_text(st, 3, exact, -1, SQLITE_STATIC);
		if (sqlite3_bind_parameter_count(st) >= 4)
			sqlite3_bind_int64(st, 4, (int64_t)now);
		rc = sqlite3_step(st);
		sqlite3_finalize(st);
		if (rc != SQLITE_DONE)
			return -1;
	}
	return 0;
}

#define NOT_DUE (-2)

/*
 * Runs @ids[0..n) of @exp in one transaction on the writer, if @exp is
 * still due; with @last the experiment is marked compacted too.
 * Returns n, NOT_DUE or -1.
 */
static int compact_batch(sqlite3 *db, int64_t exp, int64_t cutoff,
			 const int64_t *ids, int n, bool last,
			 const char *top, const char *exact, time_t now)
{
	sqlite3 *w = db_write_lock(db);
	sqlite3_stmt *st;
	int rc = -1;

	if (db_begin(w))
		goto out;
	if (db_int(w, -1, "SELECT count(*) FROM experiments e WHERE e.id = ?2"
		   " AND" DUE, 2, cutoff, exp) != 1) {
		rc = NOT_DUE;
		goto rollback;
	}
	for (int i = 0; i < n; i++)
		if (compact_run(w, ids[i], top, exact, now))
			goto rollback;
	if (last) {
		st = db_prepare(w, "UPDATE experiments SET compacted_at = ?"
				" WHERE id = ?");
		if (!st)
			goto rollback;
		sqlite3_bind_int64(st, 1, (int64_t)now);
		sqlite3_bind_int64(st, 2, exp);
		rc = sqlite3_step(st);
		sqlite3_finalize(st);
		if (rc != SQLITE_DONE) {
			rc = -1;
			goto rollback;
		}
	}
	rc = -1;
	if (db_commit(w))
		goto out;
	rc = n;
	goto out;
rollback:
	db_rollback(w);
out:
	db_write_unlock(db, w);
	return rc;
}

int retention_compact(struct retention *r, sqlite3 *db, int64_t exp,
		      time_t now, bool *compacted)
{
	int k = r->top_symbols > 0 ? r->top_symbols : RETENTION_TOP_SYMBOLS;
	int per = r->runs_per_txn > 0 ? r->runs_per_txn : RETENTION_RUNS_PER_TXN;
	int64_t cutoff = (int64_t)now - r->age_s;
	char *top = top_symbols(db, "profile_symbols", "samples", exp, k);
	char *exact = top_symbols(db, "exact_profile_symbols", "insns", exp, k);
	int64_t *ids = NULL;
	int n = -1, done = 0, i = 0, m, rc;

	*compacted = false;
	if (!top || !exact)
		goto out;
	n = open_runs(db, exp, &ids);
	if (n < 0)
		goto out;
	/* An experiment without runs left is marked by a batch of none. */
	do {
		m = n - i < per ? n - i : per;
		rc = compact_batch(db, exp, cutoff, ids + i, m, i + m >= n, top,
				   exact, now);
		if (rc == NOT_DUE)
			break;
		if (rc < 0) {
			n = -1;
			goto out;
		}
		done += rc;
		i += m;
		__atomic_add_fetch(&r->runs, (uint64_t)rc, __ATOMIC_RELAXED);
	} while (i < n);
	*compacted = i >= n && rc != NOT_DUE;
	n = done;
out:
	free(top);
	free(exact);
	free(ids);
	return n;
}

/* The next due experiment after the pass's position; 1, 0 (none), -1. */
static int next_due(struct retention *r, sqlite3 *db, time_t now,
		    int64_t *id)
{
	sqlite3_stmt *st = db_prepare(db,
		"SELECT e.id, e.finished_at FROM experiments e WHERE" DUE
		" AND (e.finished_at, e.id) > (?2, ?3)"
		" ORDER BY e.finished_at, e.id LIMIT 1");
	int rc;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, (int64_t)now - r->age_s);
	sqlite3_bind_int64(st, 2, r->cur_finished);
	sqlite3_bind_int64(st, 3, r->cur_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*id = sqlite3_column_int64(st, 0);
		r->cur_finished = sqlite3_column_int64(st, 1);
		r->cur_id = *id;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

int retention_step(struct retention *r, sqlite3 *db, time_t now)
{
	bool compacted;
	int64_t id, oldest, n;
	int rc;

	if (r->age_s <= 0)
		return 0;
	if (!r->in_pass) {
		if (now < r->next_pass)
			return 0;
		n = retention_due(db, r->age_s, now, &oldest);
		if (n < 0)
			return -1;
		__atomic_store_n(&r->pending, n, __ATOMIC_RELAXED);
		__atomic_store_n(&r->oldest, oldest, __ATOMIC_RELAXED);
		r->cur_finished = INT64_MIN;
		r->cur_id = 0;
		r->in_pass = n > 0;
		if (!n) {
			r->next_pass = now + PASS_PAUSE;
			return 0;
		}
	}
	rc = next_due(r, db, now, &id);
	if (rc <= 0) {
		r->in_pass = false;
		r->next_pass = now + PASS_PAUSE;
		/* Due again at the next pass's count, if any. */
		return rc;
	}
	rc = retention_compact(r, db, id, now, &compacted);
	if (compacted) {
		__atomic_add_fetch(&r->experiments, 1, __ATOMIC_RELAXED);
		if (__atomic_load_n(&r->pending, __ATOMIC_RELAXED) > 0)
			__atomic_sub_fetch(&r->pending, 1, __ATOMIC_RELAXED);
	}
	return rc;
}

void retention_stats(const struct retention *r, struct retention_stats *s)
{
	s->pending = __atomic_load_n(&r->pending, __ATOMIC_RELAXED);
	s->oldest = __atomic_load_n(&r->oldest, __ATOMIC_RELAXED);
	s->experiments = __atomic_load_n(&r->experiments, __ATOMIC_RELAXED);
	s->runs = __atomic_load_n(&r->runs, __ATOMIC_RELAXED);
}
