// SPDX-License-Identifier: MIT
/*
 * The MDE gate of a track's change points; see track_gate.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "daemon/lab/bisect_run.h"
#include "daemon/lab/series.h"
#include "daemon/lab/track_gate.h"
#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "daemon/store/writer.h"

/* One experiment's runs so far (Welford). */
struct acc {
	int64_t exp;
	double n, mean, m2;
};

static void pool(const struct acc *a, double *ss, double *dof)
{
	double sd;

	if (a->n < 2 || !(a->mean > 0))
		return;
	sd = 100 * sqrt(a->m2 / (a->n - 1)) / a->mean;
	*ss += (a->n - 1) * sd * sd;
	*dof += a->n - 1;
}

/* Pooled within-experiment sd of the newest points' runs. 0 or -1. */
static int within_runs(store_conn *db, int64_t track, const char *metric,
		       double *sd_pct, double *dof)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT tp.experiment_id, rm.value FROM"
				      " track_points tp JOIN runs r ON r.experiment_id ="
				      " tp.experiment_id JOIN run_metrics rm ON rm.run_id ="
				      " r.id AND rm.metric = ? WHERE tp.id IN (SELECT id"
				      " FROM track_points WHERE track_id = ? AND point_id"
				      " IS NOT NULL ORDER BY id DESC LIMIT ?) AND"
				      " rm.value > 0 ORDER BY tp.id, r.id");
	struct acc a = { .exp = -1 };
	double ss = 0;

	*dof = 0;
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, metric, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, track);
	sqlite3_bind_int(st, 3, TRACK_GATE_POINTS);
	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t exp = sqlite3_column_int64(st, 0);
		double x = sqlite3_column_double(st, 1), d;

		if (exp != a.exp) {
			pool(&a, &ss, dof);
			a = (struct acc){ .exp = exp };
		}
		a.n++;
		d = x - a.mean;
		a.mean += d / a.n;
		a.m2 += d * (x - a.mean);
	}
	pool(&a, &ss, dof);
	sqlite3_finalize(st);
	*sd_pct = *dof > 0 ? sqrt(ss / *dof) : NAN;
	return 0;
}

/* Successive differences of the newest points, not across @cp_point. */
static int successive(store_conn *db, int64_t sid, int64_t cp_point,
		      double *sd_pct, double *dof)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT id, value FROM (SELECT sp.id,"
				      " sp.value, row_number() OVER (ORDER BY"
				      SERIES_POINTS_ORDER ") AS k FROM series_points sp"
				      SERIES_POINTS_JOIN " WHERE sp.series_id = ?)"
				      " ORDER BY k DESC LIMIT ?");
	double prev = NAN, ss = 0, k = 0;
	int64_t prev_id = 0;

	*dof = 0;
	*sd_pct = NAN;
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, sid);
	sqlite3_bind_int(st, 2, TRACK_GATE_POINTS);
	/* Newest first: the difference at the change point is the one
	 * whose later point (met first) is @cp_point. */
	while (sqlite3_step(st) == SQLITE_ROW) {
		double x = sqlite3_column_double(st, 1);
		int64_t id = sqlite3_column_int64(st, 0);

		if (isfinite(prev) && prev_id != cp_point && x + prev > 0) {
			double d = 200 * (prev - x) / (x + prev);

			ss += d * d;
			k++;
		}
		prev = x;
		prev_id = id;
	}
	sqlite3_finalize(st);
	if (k >= 2) {
		*sd_pct = sqrt(ss / (2 * k));
		*dof = 2 * k * k / (3 * k - 1);
	}
	return 0;
}

int track_noise(store_conn *db, int64_t track, int64_t sid,
		const char *metric, int64_t cp_point, double *sd_pct,
		double *dof, const char **source)
{
	*source = "the track's runs";
	if (within_runs(db, track, metric, sd_pct, dof))
		return -1;
	if (*dof >= 1)
		return 0;
	*source = "the track's successive points (one run each)";
	return successive(db, sid, cp_point, sd_pct, dof);
}

static int store_gate(store_conn *db, int64_t cp, const struct bisect_gate *g)
{
	sqlite3 *w = db_write_lock(db);
	sqlite3_stmt *st = db_prepare(w, "UPDATE change_points SET bisect_note = ?,"
				      " bisect_mde_pct = ?, bisect_gate_points = (SELECT"
				      " count(*) FROM series_points sp WHERE sp.series_id ="
				      " change_points.series_id) WHERE id = ?");
	int ok = 0;

	if (st) {
		sqlite3_bind_text(st, 1, g->note, -1, SQLITE_STATIC);
		if (isfinite(g->mde_pct))
			sqlite3_bind_double(st, 2, g->mde_pct);
		sqlite3_bind_int64(st, 3, cp);
		ok = sqlite3_step(st) == SQLITE_DONE;
		sqlite3_finalize(st);
	}
	db_write_unlock(db, w);
	return ok ? 0 : -1;
}

int track_gate(store_conn *db, int64_t track, int64_t sid, int64_t cp,
	       int64_t cp_point, double delta_pct, int runs,
	       struct bisect_gate *g)
{
	char metric[16] = "iops";
	const char *source;
	double sd, dof;
	const unsigned char *m;
	sqlite3_stmt *st = db_prepare(db, "SELECT metric FROM series WHERE id = ?");

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, sid);
	if (sqlite3_step(st) == SQLITE_ROW && (m = sqlite3_column_text(st, 0)))
		snprintf(metric, sizeof(metric), "%s", (const char *)m);
	sqlite3_finalize(st);
	if (track_noise(db, track, sid, metric, cp_point, &sd, &dof, &source))
		return -1;
	bisect_gate(delta_pct, sd, dof, runs, bisect_run_first_alpha(runs),
		    source, g);
	return store_gate(db, cp, g);
}
