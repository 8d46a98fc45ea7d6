// SPDX-License-Identifier: MIT
/*
 * Calibration from analysed experiments: see analysis_ctx.h.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "daemon/analysis/ladder.h"
#include "daemon/analysis/stats.h"
#include "daemon/lab/analysis_ctx.h"
#include "daemon/store/db.h"
#include "daemon/store/sql.h"

/* ---- calibration ------------------------------------------------------------ */

static int is_aa(const struct actx *a)
{
	for (size_t i = 1; i < a->nv; i++)
		if (strcmp(a->v[i].key, a->v[0].key))
			return 0;
	return a->nv >= 2;
}

/* The metric every variant reports: ns/IO, else IOPS. */
static enum verdict_metric calib_metric(const struct actx *a)
{
	for (size_t i = 0; i < a->nv; i++)
		if (verdict_pick_metric(a->v[i].runs, a->v[i].n, a->v[i].runs,
					a->v[i].n) == VERDICT_IOPS)
			return VERDICT_IOPS;
	return VERDICT_NS_PER_IO;
}

/*
 * Pooled run-to-run sd (% of each variant's mean) over the variants: each
 * variant's runs are replicates of one kernel and command line. Returns
 * the degrees of freedom (0: too few runs); @nmin gets the smallest
 * per-variant run count.
 */
static size_t pooled_noise(const struct actx *a, enum verdict_metric m,
			   double *noise, size_t *nmin)
{
	double ss = 0;
	size_t df = 0;

	*nmin = SIZE_MAX;
	for (size_t i = 0; i < a->nv; i++) {
		double *x = malloc((a->v[i].n + 1) * sizeof(*x)), sd, mean;
		size_t k = x ? verdict_run_values(a->v[i].runs, a->v[i].n, m, x) : 0;

		if (k >= 2) {
			mean = stats_mean(x, k);
			sd = 100 * stats_stddev(x, k) / mean;
			ss += sd * sd * (k - 1);
			df += k - 1;
			*nmin = k < *nmin ? k : *nmin;
		}
		free(x);
	}
	*noise = df ? sqrt(ss / df) : 0;
	return df;
}

/* A host_calibration row: what later verdicts on this host use. */
static int store_host_noise(sqlite3 *db, const struct actx *a,
			    enum verdict_metric m, size_t nruns, double noise)
{
	struct verdict_opts o;
	sqlite3_stmt *st;
	int ret = -1;

	verdict_opts_default(&o);
	st = db_prepare(db,
		"INSERT INTO host_calibration (host_id, backend, bench_key, metric,"
		" runs, noise_pct, mde_pct, experiment_id, computed_at)"
		" VALUES (?,?,?,?,?,?,?,?,?)");
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, a->host_id);
	sqlite3_bind_text(st, 2, a->backend, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, a->bench, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, verdict_metric_str(m), -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, (int64_t)nruns);
	sqlite3_bind_double(st, 6, noise);
	sqlite3_bind_double(st, 7, verdict_mde(noise, nruns, nruns, &o));
	sqlite3_bind_int64(st, 8, a->exp);
	sqlite3_bind_int64(st, 9, (int64_t)time(NULL));
	if (sqlite3_step(st) == SQLITE_DONE)
		ret = 0;
	sqlite3_finalize(st);
	return ret;
}

static int calibrate_aa(sqlite3 *db, const struct actx *a)
{
	enum verdict_metric m = calib_metric(a);
	double noise;
	size_t nmin;

	if (!pooled_noise(a, m, &noise, &nmin) || !a->host_id)
		return 0;	/* too few runs to say anything */
	/*
	 * Identical runs (qemu-icount can repeat to the last digit) show no
	 * noise, which is not a noise of 0: an MDE of 0 would make every
	 * later "no change" impossible. Stay uncalibrated; more runs tell.
	 */
	if (noise == 0)
		return 0;
	return store_host_noise(db, a, m, nmin, noise);
}

/*
 * Each run's delta % against the control median, fitted against N; the
 * pooled within-step noise also becomes the host's calibration (every
 * step is a set of replicates of one kernel and command line).
 */
static int calibrate_ladder(sqlite3 *db, const struct actx *a)
{
	enum verdict_metric m = calib_metric(a);
	struct ladder_fit f;
	struct verdict_opts o;
	double *x, *y;
	size_t np = 0, total = 0;
	sqlite3_stmt *st = NULL;
	json_t *pts = json_array();
	char *ptxt = NULL;
	int ret = -1;

	for (size_t i = 0; i < a->nv; i++)
		total += a->v[i].n;
	x = calloc(total + 1, sizeof(*x));
	y = calloc(total + 1, sizeof(*y));
	if (!x || !y || !pts)
		goto out;
	for (size_t i = 0; i < a->nv; i++) {
		size_t k = verdict_run_values(a->v[i].runs, a->v[i].n, m, y + np);

		for (size_t j = 0; j < k; j++)
			x[np + j] = a->v[i].canary < 0 ? 0 : (double)a->v[i].canary;
		np += k;
	}
	verdict_opts_default(&o);
	ret = 0;
	if (ladder_fit(x, y, np, &o, &f))
		goto out;	/* nothing to fit */
	for (size_t i = 0; i < np; i++)
		json_array_append_new(pts, json_pack("{s:f, s:f, s:f}", "n", x[i],
			"value", y[i], "delta_pct", 100 * (y[i] - f.ctrl_median) /
			f.ctrl_median));
	ptxt = json_dumps(pts, JSON_COMPACT);
	st = db_prepare(db,
		"INSERT INTO ladder_fits (experiment_id, host_id, metric, slope_pct,"
		" intercept_pct, r2, slope_se, mde_units, points, computed_at)"
		" VALUES (?,?,?,?,?,?,?,?,?,?)");
	ret = -1;
	if (!st || !ptxt)
		goto out;
	sqlite3_bind_int64(st, 1, a->exp);
	if (a->host_id)
		sqlite3_bind_int64(st, 2, a->host_id);
	sqlite3_bind_text(st, 3, verdict_metric_str(m), -1, SQLITE_STATIC);
	sqlite3_bind_double(st, 4, f.slope_pct);
	sqlite3_bind_double(st, 5, f.intercept_pct);
	sqlite3_bind_double(st, 6, f.r2);
	if (isfinite(f.slope_se))
		sqlite3_bind_double(st, 7, f.slope_se);
	if (isfinite(f.mde_units))
		sqlite3_bind_double(st, 8, f.mde_units);
	sqlite3_bind_text(st, 9, ptxt, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 10, (int64_t)time(NULL));
	ret = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
	if (!ret && a->host_id && f.noise_df && f.noise_pct > 0)
		ret = store_host_noise(db, a, m, f.runs, f.noise_pct);
out:
	sqlite3_finalize(st);
	json_decref(pts);
	free(ptxt);
	free(x);
	free(y);
	return ret;
}

int analysis_is_ladder(const struct actx *a)
{
	int distinct = 0;

	for (size_t i = 0; i < a->nv; i++) {
		int seen = 0;

		for (size_t j = 0; j < i; j++)
			seen |= a->v[j].canary == a->v[i].canary;
		distinct += !seen && a->v[i].canary >= 0;
	}
	return distinct >= 2;
}

/*
 * Calibration experiments; a ladder is unambiguous, so an explicit
 * experiment shaped like one (kernel-patches/series/ladder.json through
 * POST /api/v1/experiments) is fitted too.
 */
int analysis_calibrate(sqlite3 *db, const struct actx *a)
{
	int cal = !strcmp(a->kind, "calibration");

	if (a->nv < 2 || (!cal && strcmp(a->kind, "explicit")))
		return 0;
	if (cal && is_aa(a))
		return calibrate_aa(db, a);
	if (analysis_is_ladder(a))
		return calibrate_ladder(db, a);
	return 0;
}

/* A tracked baseline's run: one point (median run value) on its series. */
