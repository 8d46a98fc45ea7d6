// SPDX-License-Identifier: MIT
/*
 * Tracks: a finished experiment becomes a point of the track's series,
 * change points start bisections; tracks as JSON. See tracks.h.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/git_names.h"
#include "daemon/analysis/changepoint.h"
#include "daemon/analysis/stats.h"
#include "daemon/analysis/verdict.h"
#include "daemon/lab/bases.h"
#include "daemon/lab/bisect_run.h"
#include "daemon/lab/gitmirror.h"
#include "daemon/lab/series.h"
#include "daemon/lab/track_gate.h"
#include "daemon/lab/tracks.h"
#include "daemon/store/db.h"
#include "daemon/store/json.h"
#include "daemon/store/sql.h"

static void col(char *dst, size_t len, sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	snprintf(dst, len, "%s", t ? (const char *)t : "");
}

/*
 * The experiment's value: the median over its runs of ns/IO when every
 * run has it (exact, lower is better), else of the run's mean IOPS.
 * 0, 1 when there are no runs, -1.
 */
static int point_value(sqlite3 *db, int64_t exp, double *value,
		       const char **metric)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT (SELECT value FROM run_metrics"
				      " WHERE run_id = r.id AND metric = 'iops'),"
				      " coalesce((SELECT value FROM run_metrics WHERE"
				      " run_id = r.id AND metric = 'ns_per_io'), 0)"
				      " FROM runs r WHERE r.experiment_id = ?");
	double *iops = NULL, *ns = NULL;
	size_t n = 0, cap = 0, nns = 0;
	int ret = -1;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, exp);
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			double *a = realloc(iops, cap * sizeof(*a));
			double *b = a ? realloc(ns, cap * sizeof(*b)) : NULL;

			if (a)
				iops = a;
			if (!b)
				goto out;
			ns = b;
		}
		iops[n] = sqlite3_column_double(st, 0);
		ns[n] = sqlite3_column_double(st, 1);
		nns += ns[n] > 0;
		n++;
	}
	ret = 1;
	if (!n)
		goto out;
	*metric = nns == n ? "ns_per_io" : "iops";
	*value = stats_median(nns == n ? ns : iops, n);
	ret = isfinite(*value) ? 0 : 1;
out:
	sqlite3_finalize(st);
	free(iops);
	free(ns);
	return ret;
}

struct tpoint {
	int64_t id, track_id, host_id, committed_at;
	char commit[41], label[65];
	int min_size;
	double max_p;
};

static int tpoint_of(sqlite3 *db, int64_t exp, struct tpoint *p)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT tp.id, tp.track_id, tp.commit_sha,"
				      " coalesce(tp.committed_at, 0), t.label,"
				      " t.cp_min_size, t.cp_max_p, coalesce(e.host_id, 0)"
				      " FROM track_points tp JOIN tracks t ON t.id ="
				      " tp.track_id JOIN experiments e ON e.id ="
				      " tp.experiment_id WHERE tp.experiment_id = ?"
				      " AND tp.point_id IS NULL");
	int found = 0;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, exp);
	if (sqlite3_step(st) == SQLITE_ROW) {
		p->id = sqlite3_column_int64(st, 0);
		p->track_id = sqlite3_column_int64(st, 1);
		col(p->commit, sizeof(p->commit), st, 2);
		p->committed_at = sqlite3_column_int64(st, 3);
		col(p->label, sizeof(p->label), st, 4);
		p->min_size = sqlite3_column_int(st, 5);
		p->max_p = sqlite3_column_double(st, 6);
		p->host_id = sqlite3_column_int64(st, 7);
		found = 1;
	}
	sqlite3_finalize(st);
	return found;
}

/* Store the point; the series id, or -1. */
static int64_t add_point(sqlite3 *db, const struct tpoint *p, int64_t exp,
			 double value, const char *metric)
{
	char name[96];
	int64_t sid, pid;

	snprintf(name, sizeof(name), "track:%s", p->label);
	if (db_begin(db))
		return -1;
	sid = series_get_or_create(db, name, metric, p->host_id, 0);
	if (sid < 0 || series_add_point(db, sid, p->committed_at ? p->committed_at :
					(int64_t)time(NULL), value, p->commit, 0, exp))
		goto fail;
	pid = sqlite3_last_insert_rowid(db);
	db_int(db, 0, "UPDATE track_points SET point_id = ? WHERE id = ?", 2, pid, p->id);
	db_int(db, 0, "UPDATE tracks SET series_id = ? WHERE id = ?", 2, sid, p->track_id);
	if (db_commit(db))
		goto fail;
	return sid;
fail:
	db_rollback(db);
	return -1;
}

/* Commit labels of the series' points before and at @point_id. */
static int cp_commits(sqlite3 *db, int64_t sid, int64_t point_id, char *good,
		      char *bad)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT sp.id, coalesce(sp.label, '')"
				      " FROM series_points sp" SERIES_POINTS_JOIN
				      " WHERE sp.series_id = ? ORDER BY"
				      SERIES_POINTS_ORDER);
	char prev[41] = "";
	int found = 0;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, sid);
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (sqlite3_column_int64(st, 0) == point_id) {
			snprintf(good, 41, "%s", prev);
			col(bad, 41, st, 1);
			found = git_sha_valid(good) && git_sha_valid(bad);
			break;
		}
		col(prev, sizeof(prev), st, 1);
	}
	sqlite3_finalize(st);
	return found;
}

/* 1 when @good is @bad's first parent (nothing to bisect). */
static int adjacent(const struct base_ref *b, const char *good, const char *bad)
{
	char parent[41];

	return !gitmirror_parent(b->mirror, bad, parent) && !strcmp(parent, good);
}

/*
 * Change points bisected already or left alone (adjacent commits, a start
 * that failed): not looked at again until the daemon restarts. Only the
 * bisect worker's one thread uses it.
 */
#define CP_SKIP_MAX 1024
static int64_t cp_skip[CP_SKIP_MAX];
static int ncp_skip;

static bool skipped_cp(int64_t cp)
{
	for (int i = 0; i < ncp_skip; i++)
		if (cp_skip[i] == cp)
			return true;
	return false;
}

static void skip_cp(int64_t cp)
{
	if (ncp_skip < CP_SKIP_MAX)
		cp_skip[ncp_skip++] = cp;
}

/* A verdict needs 5 runs a side at least (exact MWU). */
static int bisect_runs(int track_runs)
{
	return track_runs > VERDICT_MIN_RUNS ? track_runs : VERDICT_MIN_RUNS;
}

/*
 * Start the bisection of change point @cp (the row @st): 1 started, 0
 * not (skip it from now on), 2 below the MDE of its steps (the note says
 * so; looked at again when its series has a new point), -1 not yet (its
 * mirror is being fetched).
 */
static int bisect_change_point(sqlite3 *db, sqlite3_stmt *st, int64_t cp,
			       int64_t sid)
{
	char good[41], bad[41], label[96], host[65], be[65];
	int64_t point = sqlite3_column_int64(st, 1), id;
	struct bisect_gate g;
	struct lab_err e;
	struct base_ref b;
	char *bench;
	int rc;

	if (cp_commits(db, sid, point, good, bad) != 1)
		return 0;
	if (track_gate(db, sqlite3_column_int64(st, 8), sid, cp, point,
		       sqlite3_column_double(st, 10),
		       bisect_runs(sqlite3_column_int(st, 7)), &g))
		return -1;
	if (!g.start)
		return 2;
	if (bases_by_id(db, sqlite3_column_int64(st, 2), &b, NULL) ||
	    adjacent(&b, good, bad))
		return 0;
	snprintf(label, sizeof(label), "track %s", sqlite3_column_text(st, 3));
	col(host, sizeof(host), st, 4);
	col(be, sizeof(be), st, 5);
	bench = strdup((const char *)sqlite3_column_text(st, 6));
	struct bisect_spec s = {
		.base = b.name, .base_id = b.id, .good = good, .bad = bad,
		.label = label,
		.host_label = host[0] ? host : NULL,
		.backend = be[0] ? be : NULL, .bench_json = bench,
		.runs = bisect_runs(sqlite3_column_int(st, 7)),
		.track_id = sqlite3_column_int64(st, 8),
		.change_point_id = cp,
	};
	rc = bench ? bisect_run_start(db, &s, &id, &e) :
		     lab_fail(&e, LAB_INTERNAL, "out of memory");
	free(bench);
	if (rc && e.st == LAB_PENDING)
		return -1;	/* the next tick */
	if (rc)
		fprintf(stderr, "perflabd: bisection of change point %lld: %s\n",
			(long long)cp, e.msg);
	return !rc;
}

int tracks_bisect_change_points(sqlite3 *db)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT cp.id, cp.point_id, t.base_id,"
				      " t.label, t.host_label, t.backend, t.bench, t.runs,"
				      " t.id, cp.series_id, cp.delta_pct FROM change_points"
				      " cp JOIN tracks t ON t.series_id = cp.series_id WHERE"
				      " cp.state = 'confirmed' AND cp.delta_pct IS NOT NULL"
				      " AND NOT EXISTS (SELECT 1 FROM bisections WHERE"
				      " change_point_id = cp.id) AND (cp.bisect_gate_points"
				      " IS NULL OR cp.bisect_gate_points < (SELECT count(*)"
				      " FROM series_points sp WHERE sp.series_id ="
				      " cp.series_id)) ORDER BY cp.id LIMIT 64");
	int started = 0, rc;

	if (!st)
		return -1;
	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t cp = sqlite3_column_int64(st, 0);

		if (skipped_cp(cp))
			continue;
		rc = bisect_change_point(db, st, cp, sqlite3_column_int64(st, 9));
		if (rc == 0 || rc == 1)
			skip_cp(cp);
		started += rc == 1;
	}
	sqlite3_finalize(st);
	return started;
}

static void track_point_done(sqlite3 *db, int64_t exp)
{
	struct tpoint p;
	struct cp_opts o;
	const char *metric;
	double value;
	int64_t sid;

	if (tpoint_of(db, exp, &p) != 1 || point_value(db, exp, &value, &metric))
		return;
	sid = add_point(db, &p, exp, value, metric);
	if (sid < 0) {
		fprintf(stderr, "perflabd: track point of experiment %lld failed\n",
			(long long)exp);
		return;
	}
	cp_opts_track(&o, p.min_size, p.max_p);
	if (series_detect_opts(db, sid, &o, time(NULL)) < 0)
		fprintf(stderr, "perflabd: change points of track %s failed\n", p.label);
	/* Bisections start on the bisect worker (their git off the lock). */
}

void tracks_experiment_settled(sqlite3 *db, int64_t exp)
{
	track_point_done(db, exp);
	if (bisect_run_experiment_done(db, exp) < 0)
		fprintf(stderr, "perflabd: bisection step of experiment %lld failed\n",
			(long long)exp);
}

int tracks_owns_experiment(sqlite3 *db, int64_t exp)
{
	sqlite3_stmt *st = db_prepare(db,
		"SELECT EXISTS (SELECT 1 FROM track_points WHERE experiment_id = ?1)"
		" OR EXISTS (SELECT 1 FROM bisection_steps WHERE experiment_id = ?1)");
	int owned = 0;

	if (!st)
		return 0;
	sqlite3_bind_int64(st, 1, exp);
	if (sqlite3_step(st) == SQLITE_ROW)
		owned = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return owned;
}

/* ---- JSON ------------------------------------------------------------ */


#define TRACK_JSON \
	"json_object('id', t.id, 'base', b.name, 'ref', t.ref, 'label', t.label," \
	" 'host_label', t.host_label, 'backend', t.backend, 'runs', t.runs," \
	" 'every', CASE WHEN t.every_seconds > 0 THEN json_object('seconds'," \
	" t.every_seconds) ELSE json_object('commits', t.every_commits) END," \
	" 'bench', json(t.bench), 'head', t.head, 'last_commit', t.last_commit," \
	" 'polled_at', t.polled_at, 'poll_error', t.poll_error, 'series', " \
	" (SELECT name FROM series WHERE id = t.series_id), 'series_id', t.series_id," \
	" 'metric', (SELECT metric FROM series WHERE id = t.series_id)," \
	" 'detect', json_object('min_size', t.cp_min_size, 'max_p', t.cp_max_p," \
	" 'migrated_from', json(t.detect_migrated_from))," \
	" 'created_at', t.created_at)"

static json_t *col_num(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? json_null() :
	       json_real(sqlite3_column_double(st, i));
}

/*
 * Change points with their commits: bad is the point's commit, good the
 * measured commit before it (both searched, whatever page is shown) and
 * index its place among @points (null when it is on another page).
 */
static json_t *change_points(sqlite3 *db, int64_t tid, int64_t sid, json_t *points)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT c.id, b.id, c.delta_pct, c.state,"
		" b.commit_sha, (SELECT g.commit_sha FROM track_points g WHERE"
		" g.track_id = b.track_id AND g.id < b.id AND g.point_id IS NOT NULL"
		" ORDER BY g.id DESC LIMIT 1), c.bisect_note, c.bisect_mde_pct FROM change_points c JOIN series_points"
		" sp ON sp.id = c.point_id JOIN track_points b ON b.experiment_id ="
		" sp.experiment_id AND b.point_id = sp.id WHERE c.series_id = ?1 AND"
		" b.track_id = ?2 AND c.state != 'retracted' ORDER BY c.t, c.id");
	json_t *a = json_array(), *p = NULL;
	size_t i;

	if (!st)
		return a;
	sqlite3_bind_int64(st, 1, sid);
	sqlite3_bind_int64(st, 2, tid);
	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t tp = sqlite3_column_int64(st, 1);
		const char *state = (const char *)sqlite3_column_text(st, 3);

		if (sqlite3_column_type(st, 5) == SQLITE_NULL)
			continue;	/* the track's first measured commit */
		json_array_foreach(points, i, p)
			if (json_integer_value(json_object_get(p, "id")) == tp)
				break;
		/* bisect_note: why it was bisected or not (track_gate.h). */
		json_array_append_new(a, json_pack("{s:I,s:o,s:s,s:s,s:o,s:b,s:s,s:o,s:o}",
			"id", (json_int_t)sqlite3_column_int64(st, 0), "index",
			i < json_array_size(points) ? json_integer((json_int_t)i) :
			json_null(), "good", (const char *)sqlite3_column_text(st, 5),
			"bad", (const char *)sqlite3_column_text(st, 4),
			"delta_pct", col_num(st, 2),
			"confirmed", !strcmp(state, "confirmed"), "state", state,
			"bisect_note", sqlite3_column_type(st, 6) == SQLITE_NULL ?
			json_null() : json_string((const char *)sqlite3_column_text(st, 6)),
			"bisect_mde_pct", col_num(st, 7)));
	}
	sqlite3_finalize(st);
	return a;
}

/* The points of a page: the newest @limit below track point @before. */
static json_t *points_page(sqlite3 *db, int64_t id, int limit, int64_t before,
			   int64_t *next)
{
	/* Rows straight into objects (json_rows): a page of 10000 points
	 * parsed from SQLite's JSON text took three times as long. */
	sqlite3_stmt *st = db_prepare(db, "SELECT tp.id AS id, tp.commit_sha AS"
		" \"commit\", tp.subject AS subject, tp.author AS author,"
		" coalesce(sp.t, tp.committed_at) AS t, sp.value AS value,"
		" tp.experiment_id AS experiment_id, e.state AS state,"
		" tp.point_id AS point_id"
		" FROM track_points tp LEFT JOIN series_points sp ON"
		" sp.id = tp.point_id LEFT JOIN experiments e ON"
		" e.id = tp.experiment_id WHERE tp.track_id = ?1 AND tp.id < ?2"
		" ORDER BY tp.id DESC LIMIT ?3");
	json_t *a = NULL, *m = json_array(), *o;
	size_t i;

	*next = 0;
	if (!st || !m)
		goto out;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int64(st, 2, before > 0 ? before : INT64_MAX);
	sqlite3_bind_int(st, 3, limit + 1);
	a = json_rows(st);
	if (!a)
		goto out;
	*next = json_page_next(a, limit, "id");
	json_array_reverse(a);
	/* In the series' order (first-parent: the order they were queued,
	 * series.h); after the measured points come unmeasured ones
	 * (queued, running, failed). */
	json_array_foreach(a, i, o)
		if (json_is_null(json_object_get(o, "point_id")))
			json_array_append(m, o);
	for (i = json_array_size(a); i-- > 0;)
		if (json_is_null(json_object_get(json_array_get(a, i), "point_id")))
			json_array_remove(a, i);
	json_array_extend(a, m);
out:
	sqlite3_finalize(st);
	json_decref(m);
	return a ? a : json_array();
}

json_t *tracks_page_json(sqlite3 *db, int64_t id, int limit, int64_t before,
			 int64_t *next)
{
	json_t *o = json_query_texts(db, "SELECT " TRACK_JSON " FROM tracks t JOIN bases b"
			       " ON b.id = t.base_id WHERE t.id = ?", id, 0), *pts;

	*next = 0;
	if (!o)
		return NULL;
	pts = points_page(db, id, limit, before, next);
	json_object_set_new(o, "change_points", change_points(db, id,
		json_integer_value(json_object_get(o, "series_id")), pts));
	json_object_set_new(o, "points", pts);
	json_object_set_new(o, "next", *next ? json_integer(*next) : json_null());
	json_object_set_new(o, "bisections", json_query_texts(db, "SELECT json_object("
		"'id', id, 'state', state, 'culprit', culprit, 'good', good, 'bad', bad,"
		" 'outcome', outcome, 'parent_id', parent_id, 'step_pct', step_pct)"
		" FROM bisections WHERE track_id = ? ORDER BY id", id, 1));
	return o;
}

json_t *tracks_json(sqlite3 *db, int64_t id)
{
	int64_t next;

	return tracks_page_json(db, id, TRACK_POINTS_PAGE, 0, &next);
}

/*
 * The list leaves the points out but says how many there are and the
 * newest measured one, so that a list of tracks can show where each
 * stands without fetching every track.
 */
#define TRACK_LIST_JSON \
	"json_set(" TRACK_JSON ", '$.npoints', (SELECT count(*) FROM track_points" \
	" WHERE track_id = t.id AND point_id IS NOT NULL)," \
	" '$.nchange_points', (SELECT count(*) FROM" \
	" change_points WHERE series_id = t.series_id AND state != 'retracted')," \
	" '$.last', json((SELECT json_object('commit', tp.commit_sha, 'value'," \
	" sp.value, 't', sp.t) FROM track_points tp JOIN series_points sp ON" \
	" sp.id = tp.point_id WHERE tp.track_id = t.id ORDER BY tp.id DESC" \
	" LIMIT 1)))"

json_t *tracks_list_json(sqlite3 *db)
{
	return json_query_texts(db, "SELECT " TRACK_LIST_JSON " FROM tracks t JOIN bases b"
			  " ON b.id = t.base_id WHERE ?1 = ?1 ORDER BY t.id", 0, 1);
}
