// SPDX-License-Identifier: MIT
/*
 * Experiment analysis against the database; see analysis.h.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/metric_defs.h"
#include "daemon/lab/alerts.h"
#include "daemon/lab/analysis.h"
#include "daemon/lab/analysis_ctx.h"
#include "daemon/lab/tracks.h"
#include "daemon/analysis/paired.h"
#include "daemon/lab/series.h"
#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "daemon/lab/planner.h"
#include "daemon/lab/profiles.h"
#include "daemon/analysis/perfdiff.h"
#include "daemon/analysis/stats.h"
#include "daemon/analysis/verdict.h"

#define AN_TOP_SYMS 10

static void actx_free(struct actx *a)
{
	for (size_t i = 0; i < a->nv; i++) {
		for (size_t r = 0; r < a->v[i].n; r++) {
			free((double *)a->v[i].runs[r].iops);
			free(a->v[i].boot[r]);
		}
		free(a->v[i].runs);
		free(a->v[i].boot);
		free(a->v[i].pos);
		free(a->v[i].round);
	}
	free(a->v);
	free(a->bench);
}

static void copy_col(char *dst, size_t len, sqlite3_stmt *st, int col)
{
	const char *s = (const char *)sqlite3_column_text(st, col);

	snprintf(dst, len, "%s", s ? s : "");
}

/*
 * Where this analysis stands in the planned looks: verdicts test at
 * planner_look_alpha(), and an inconclusive one gets more runs only up to
 * the next planned point (at most PLANNER_MAX_LOOKS looks in all).
 */
static void plan_looks(sqlite3 *db, struct actx *a)
{
	int at[32], n;

	a->rounds = (int)db_int(db, 0, "SELECT COALESCE(max(run_index) + 1, 0)"
				" FROM jobs WHERE experiment_id = ?", 1, a->exp);
	n = planner_points(a->runs, a->max_runs, VERDICT_MIN_RUNS, at, 32,
			   &a->looks);
	a->next = 0;
	for (int i = 0; i < n; i++)
		if (at[i] > a->rounds) {
			a->next = at[i];
			break;
		}
}

static int load_experiment(sqlite3 *db, struct actx *a)
{
	sqlite3_stmt *st = db_prepare(db,
		"SELECT kind, COALESCE(host_id, 0), COALESCE(backend,"
		" (SELECT backend FROM hosts WHERE id = e.host_id), ''), bench,"
		" runs, max_runs, runs_per_boot FROM experiments e WHERE id = ?");
	int ret = -1;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, a->exp);
	if (sqlite3_step(st) == SQLITE_ROW) {
		copy_col(a->kind, sizeof(a->kind), st, 0);
		a->host_id = sqlite3_column_int64(st, 1);
		copy_col(a->backend, sizeof(a->backend), st, 2);
		a->bench = strdup((const char *)sqlite3_column_text(st, 3));
		a->runs = sqlite3_column_int(st, 4);
		a->max_runs = sqlite3_column_int(st, 5);
		a->runs_per_boot = sqlite3_column_int(st, 6);
		ret = a->bench ? 0 : -1;
	}
	sqlite3_finalize(st);
	if (!ret)
		plan_looks(db, a);
	return ret;
}

static long parse_canary(const char *cmdline)
{
	const char *p = strstr(cmdline, "perflab_canary=");

	return p ? strtol(p + strlen("perflab_canary="), NULL, 10) : -1;
}

static int load_variants(sqlite3 *db, struct actx *a)
{
	sqlite3_stmt *st = db_prepare(db,
		"SELECT v.id, v.name, v.is_control, v.cmdline || '|' ||"
		" COALESCE((SELECT group_concat(patch_id, ',') FROM (SELECT patch_id"
		"  FROM variant_patches WHERE variant_id = v.id ORDER BY position)), ''),"
		" v.cmdline FROM variants v WHERE v.experiment_id = ? AND"
		" v.state = 'active' ORDER BY v.idx");
	int found = 0;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, a->exp);
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct avar *v = realloc(a->v, (a->nv + 1) * sizeof(*v));

		if (!v) {
			sqlite3_finalize(st);
			return -1;
		}
		a->v = v;
		v = &a->v[a->nv];
		memset(v, 0, sizeof(*v));
		v->id = sqlite3_column_int64(st, 0);
		copy_col(v->name, sizeof(v->name), st, 1);
		v->is_control = sqlite3_column_int(st, 2);
		copy_col(v->key, sizeof(v->key), st, 3);
		v->canary = parse_canary((const char *)sqlite3_column_text(st, 4));
		if (v->is_control && !found) {
			a->ctrl = a->nv;
			found = 1;
		}
		a->nv++;
	}
	sqlite3_finalize(st);
	return 0;
}

static double *load_samples(sqlite3 *db, int64_t run_id, size_t *n)
{
	sqlite3_stmt *st = db_prepare(db,
		"SELECT iops FROM samples WHERE run_id = ? ORDER BY t");
	double *v = NULL;
	size_t cap = 0;

	*n = 0;
	if (!st)
		return NULL;
	sqlite3_bind_int64(st, 1, run_id);
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (*n == cap) {
			double *p = realloc(v, (cap = cap ? 2 * cap : 64) * sizeof(*p));

			if (!p)
				break;
			v = p;
		}
		v[(*n)++] = sqlite3_column_double(st, 0);
	}
	sqlite3_finalize(st);
	return v;
}

static int load_runs(sqlite3 *db, struct actx *a, struct avar *v)
{
	sqlite3_stmt *st = db_prepare(db,
		"SELECT r.id, COALESCE(r.warmup, 0), COALESCE((SELECT value FROM"
		" run_metrics WHERE run_id = r.id AND metric = ?3), 0),"
		" (SELECT COALESCE(SUM(value), 0) FROM run_metrics WHERE"
		" run_id = r.id AND metric IN (?4, ?5)),"
		" r.boot_id, COALESCE(r.boot_pos, 0), r.run_index FROM runs r"
		" WHERE r.experiment_id = ?1 AND r.variant_id = ?2 ORDER BY r.id");

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, a->exp);
	sqlite3_bind_int64(st, 2, v->id);
	sqlite3_bind_text(st, 3, metric_defs[METRIC_NS_PER_IO].name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, metric_defs[METRIC_CPU_USER_NS_PER_IO].name, -1,
			  SQLITE_STATIC);
	sqlite3_bind_text(st, 5, metric_defs[METRIC_CPU_SYS_NS_PER_IO].name, -1,
			  SQLITE_STATIC);
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct verdict_run *r = realloc(v->runs, (v->n + 1) * sizeof(*r));
		char **b = realloc(v->boot, (v->n + 1) * sizeof(*b));
		int *p = b ? realloc(v->pos, (v->n + 1) * sizeof(*p)) : NULL;
		int *k = p ? realloc(v->round, (v->n + 1) * sizeof(*k)) : NULL;

		if (r)
			v->runs = r;
		if (b)
			v->boot = b;
		if (p)
			v->pos = p;
		if (k)
			v->round = k;
		if (!r || !b || !p || !k) {
			sqlite3_finalize(st);
			return -1;
		}
		b[v->n] = sqlite3_column_type(st, 4) == SQLITE_NULL ? NULL :
			  strdup((const char *)sqlite3_column_text(st, 4));
		p[v->n] = sqlite3_column_int(st, 5);
		k[v->n] = sqlite3_column_int(st, 6);
		r = &v->runs[v->n++];
		memset(r, 0, sizeof(*r));
		r->warmup = sqlite3_column_int(st, 1);
		r->ns_per_io = sqlite3_column_double(st, 2);
		r->cpu_ns_per_io = sqlite3_column_double(st, 3);
		r->iops = load_samples(db, sqlite3_column_int64(st, 0),
				       &r->nsamples);
	}
	sqlite3_finalize(st);
	return 0;
}

static int load(sqlite3 *db, struct actx *a)
{
	if (load_experiment(db, a) || load_variants(db, a))
		return -1;
	for (size_t i = 0; i < a->nv; i++)
		if (load_runs(db, a, &a->v[i]))
			return -1;
	return 0;
}

/* Newest calibrated noise for this host, backend, bench and metric. */
static int host_noise(sqlite3 *db, const struct actx *a,
		      enum verdict_metric m, double *noise, int *runs)
{
	sqlite3_stmt *st = db_prepare(db,
		"SELECT noise_pct, runs FROM host_calibration WHERE host_id = ?"
		" AND backend = ? AND bench_key = ? AND metric = ? AND noise_pct > 0"
		" ORDER BY id DESC LIMIT 1");
	int found = 0;

	if (!st)
		return 0;
	sqlite3_bind_int64(st, 1, a->host_id);
	sqlite3_bind_text(st, 2, a->backend, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, a->bench, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, verdict_metric_str(m), -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		*noise = sqlite3_column_double(st, 0);
		*runs = sqlite3_column_int(st, 1);
		found = 1;
	}
	sqlite3_finalize(st);
	return found;
}

static json_t *rows_json(const struct verdict_row *rows, size_t n)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(arr, json_pack("{s:s, s:f, s:f, s:f, s:f, s:f, s:s}",
			"metric", rows[i].name, "base", rows[i].base,
			"base_sd_pct", rows[i].base_sd_pct, "new", rows[i].new,
			"new_sd_pct", rows[i].new_sd_pct, "change", rows[i].change,
			"change_unit", rows[i].points ? "points" : "%"));
	return arr;
}

static int64_t store(sqlite3 *db, const struct actx *a, const struct avar *c,
		     const struct avar *v, const struct verdict_result *r,
		     json_t *result)
{
	sqlite3_stmt *st = db_prepare(db,
		"INSERT INTO comparisons (experiment_id, variant_id,"
		" control_variant_id, metric, verdict, delta_pct, ci_low, ci_high,"
		" p_value, mde_pct, runs, result, computed_at)"
		" VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)");
	char *txt = json_dumps(result, JSON_COMPACT);
	int64_t id = -1;

	if (!st || !txt)
		goto out;
	sqlite3_bind_int64(st, 1, a->exp);
	sqlite3_bind_int64(st, 2, v->id);
	sqlite3_bind_int64(st, 3, c->id);
	sqlite3_bind_text(st, 4, verdict_metric_str(r->metric), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, verdict_kind_str(r->kind), -1, SQLITE_STATIC);
	sqlite3_bind_double(st, 6, r->delta_pct);
	sqlite3_bind_double(st, 7, r->ci_lo);
	sqlite3_bind_double(st, 8, r->ci_hi);
	sqlite3_bind_double(st, 9, r->p);
	if (isfinite(r->mde_pct))
		sqlite3_bind_double(st, 10, r->mde_pct);
	sqlite3_bind_int64(st, 11, (int64_t)(r->n_ctrl < r->n_var ? r->n_ctrl : r->n_var));
	sqlite3_bind_text(st, 12, txt, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 13, (int64_t)time(NULL));
	if (sqlite3_step(st) == SQLITE_DONE)
		id = sqlite3_last_insert_rowid(db);
out:
	sqlite3_finalize(st);
	free(txt);
	return id;
}

/* A side's runs as paired.h wants them, valued in @m (heap). */
static struct paired_run *paired_side(const struct avar *s,
				      enum verdict_metric m)
{
	struct paired_run *p = calloc(s->n + 1, sizeof(*p));

	for (size_t i = 0; p && i < s->n; i++) {
		p[i].value = m == VERDICT_NS_PER_IO ? s->runs[i].ns_per_io :
			     verdict_run_mean(&s->runs[i]);
		if (!isfinite(p[i].value))
			p[i].value = 0;
		p[i].boot = s->boot[i];
		p[i].pos = s->pos[i];
		p[i].round = s->round[i] + 1;
	}
	return p;
}

/* A toggle experiment: the verdict of the runs paired in their boots. */
static int toggle_verdict(const struct avar *c, const struct avar *v,
			  const struct verdict_opts *o, struct verdict_result *r)
{
	struct paired_run *pc = paired_side(c, r->metric);
	struct paired_run *pv = paired_side(v, r->metric);
	int rc = pc && pv ? paired_verdict(pc, c->n, pv, v->n, o, r) : -1;

	free(pc);
	free(pv);
	return rc;
}

/*
 * The LKP table's perf-profile rows: the symbols with the largest share of
 * the samples on the control or on @v (the sampled perf diff's shares).
 */
static size_t symbol_rows(sqlite3 *db, const struct actx *a,
			  const struct avar *v, struct verdict_row *rows)
{
	struct perfdiff_top top[AN_TOP_SYMS];
	struct perfdiff_result *r;
	struct perfdiff_opts o;
	struct profiles_diff d;
	struct lab_err e;
	size_t n = 0, i;

	/* none without sampled profiles on both sides: not an error here */
	perfdiff_default_opts(&o);
	r = profiles_perfdiff(db, a->exp, v->name, &perfdiff_samples, &o, &d,
			      &e);
	if (r)
		n = perfdiff_top(r, 1, top, AN_TOP_SYMS);
	for (i = 0; i < n; i++)
		verdict_symbol_row(&rows[i], top[i].name, top[i].base,
				   top[i].new);
	perfdiff_free(r);
	profiles_diff_free(&d);
	return n;
}

/*
 * Compare variant @v with the control: the verdict in @r and the result
 * JSON to store (NULL on error). Reads only (the host's calibration).
 */
static json_t *compare_one(sqlite3 *db, const struct actx *a,
			   const struct avar *c, const struct avar *v,
			   struct verdict_result *r)
{
	struct verdict_row rows[3 + AN_TOP_SYMS];
	struct verdict_opts o;
	enum verdict_metric m;
	json_t *j;
	char *text;
	size_t nrows;

	verdict_opts_default(&o);
	o.seed ^= (uint64_t)a->exp * 1000003u ^ (uint64_t)v->id;
	o.looks = a->looks;
	o.alpha_look = planner_look_alpha(a->runs, a->max_runs, VERDICT_MIN_RUNS,
					  o.alpha, a->rounds);
	o.more_runs = a->next > 0;
	m = verdict_pick_metric(c->runs, c->n, v->runs, v->n);
	host_noise(db, a, m, &o.host_noise_pct, &o.host_noise_runs);
	if (verdict_compare_runs(c->runs, c->n, v->runs, v->n, &o, r))
		return NULL;
	if (a->runs_per_boot > 0 && toggle_verdict(c, v, &o, r))
		return NULL;
	nrows = verdict_rows(c->runs, c->n, v->runs, v->n, rows, 3);
	nrows += symbol_rows(db, a, v, rows + nrows);
	text = verdict_text(r, c->name, v->name, rows, nrows);
	j = verdict_json(r);
	if (!j || !text) {
		free(text);
		json_decref(j);
		return NULL;
	}
	json_object_set_new(j, "variant", json_string(v->name));
	json_object_set_new(j, "control", json_string(c->name));
	json_object_set_new(j, "rows", rows_json(rows, nrows));
	json_object_set_new(j, "text", json_string(text));
	if (o.host_noise_pct > 0)
		json_object_set_new(j, "host_noise_runs",
				    json_integer(o.host_noise_runs));
	free(text);
	return j;
}

/* One variant's comparison, computed and waiting to be stored. */
struct acmp {
	size_t vi;
	struct verdict_result r;
	json_t *result;
};

/* An experiment's analysis between analysis_prepare and analysis_store. */
struct analysis_plan {
	struct actx a;
	struct acmp *cmp;
	size_t ncmp;
	int inconclusive;
};

void analysis_plan_free(struct analysis_plan *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->ncmp; i++)
		json_decref(p->cmp[i].result);
	free(p->cmp);
	actx_free(&p->a);
	free(p);
}

/* Compare every variant with the control (no writes). */
static int compare_all(sqlite3 *db, struct analysis_plan *p)
{
	struct actx *a = &p->a;

	p->cmp = calloc(a->nv + 1, sizeof(*p->cmp));
	if (!p->cmp)
		return -1;
	for (size_t i = 0; i < a->nv; i++) {
		struct acmp *k = &p->cmp[p->ncmp];

		if (i == a->ctrl || !a->v[i].n || !a->v[a->ctrl].n)
			continue;
		k->vi = i;
		k->result = compare_one(db, a, &a->v[a->ctrl], &a->v[i], &k->r);
		if (!k->result)
			return -1;
		p->ncmp++;
		p->inconclusive += k->r.kind == VERDICT_INCONCLUSIVE;
	}
	return 0;
}

struct analysis_plan *analysis_prepare(sqlite3 *db, int64_t experiment_id)
{
	struct analysis_plan *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->a.exp = experiment_id;
	if (load(db, &p->a) || (p->a.nv && compare_all(db, p))) {
		analysis_plan_free(p);
		return NULL;
	}
	return p;
}

/*
 * Store the comparison rows in one transaction; @regress gets the ids of
 * the rows an alert may be raised for.
 */
static int store_all(sqlite3 *db, const struct analysis_plan *p,
		     int64_t *regress, size_t *nregress)
{
	const struct actx *a = &p->a;

	*nregress = 0;
	if (db_begin(db))
		return -1;
	for (size_t i = 0; i < p->ncmp; i++) {
		const struct acmp *k = &p->cmp[i];
		int64_t id = store(db, a, &a->v[a->ctrl], &a->v[k->vi], &k->r,
				   k->result);

		if (id < 0) {
			db_rollback(db);
			return -1;
		}
		/* one boot of a toggle speaks for that boot only: no alert */
		if (k->r.kind == VERDICT_REGRESSION && !k->r.per_second &&
		    !k->r.one_boot && fabs(k->r.delta_pct) >= k->r.mde_pct)
			regress[(*nregress)++] = id;
	}
	return db_commit(db);
}

static int record_baseline(sqlite3 *db, const struct actx *a)
{
	const struct avar *c;
	enum verdict_metric m;
	sqlite3_stmt *st;
	char name[256] = "", label[128] = "";
	double *vals, med;
	int64_t sid = -1;
	size_t k;

	if (!db_int(db, 0, "SELECT COALESCE(baseline_id, 0) FROM experiments"
		    " WHERE id = ?", 1, a->exp) || !a->nv)
		return 0;
	c = &a->v[a->ctrl];
	m = verdict_pick_metric(c->runs, c->n, c->runs, c->n);
	vals = malloc((c->n + 1) * sizeof(*vals));
	if (!vals)
		return -1;
	k = verdict_run_values(c->runs, c->n, m, vals);
	med = k ? stats_median(vals, k) : NAN;
	free(vals);
	if (!k)
		return 0;
	st = db_prepare(db,
		"SELECT 'baseline:' || b.name || '@' || COALESCE(h.name, 'any'),"
		" COALESCE(NULLIF(ba.ref, ''), (SELECT kernel FROM runs WHERE"
		" experiment_id = e.id LIMIT 1), '') FROM experiments e"
		" JOIN baselines b ON b.id = e.baseline_id JOIN bases ba ON"
		" ba.id = b.base_id LEFT JOIN hosts h ON h.id = e.host_id WHERE e.id = ?");
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, a->exp);
	if (sqlite3_step(st) == SQLITE_ROW) {
		copy_col(name, sizeof(name), st, 0);
		copy_col(label, sizeof(label), st, 1);
	}
	sqlite3_finalize(st);
	if (!*name || db_begin(db))
		return -1;
	sid = series_get_or_create(db, name, verdict_metric_str(m), a->host_id,
				   db_int(db, 0, "SELECT baseline_id FROM experiments"
					  " WHERE id = ?", 1, a->exp));
	if (sid < 0 || series_add_point(db, sid, (int64_t)time(NULL), med, label,
					0, a->exp) || db_commit(db)) {
		db_rollback(db);
		return -1;
	}
	return series_detect(db, sid, time(NULL)) < 0 ? -1 : 0;
}

/*
 * The analysis is stored: clear the mark; an experiment with no job left
 * to run is done (more runs planned keep it 'running').
 */
static int finish(sqlite3 *db, int64_t exp)
{
	sqlite3_stmt *st = db_prepare(db, "UPDATE experiments SET"
		" analysis_pending = 0, finished_at = CASE WHEN state = 'running'"
		" AND NOT EXISTS (SELECT 1 FROM jobs WHERE experiment_id = ?2 AND"
		" state IN ('queued', 'claimed', 'running')) THEN ?1 ELSE"
		" finished_at END, state = CASE WHEN state = 'running' AND NOT"
		" EXISTS (SELECT 1 FROM jobs WHERE experiment_id = ?2 AND state IN"
		" ('queued', 'claimed', 'running')) THEN 'done' ELSE state END"
		" WHERE id = ?2");
	int rc;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, (int64_t)time(NULL));
	sqlite3_bind_int64(st, 2, exp);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* ---- the store: one transaction, and its test hook -------------------- */

static const char *const store_steps[] = {
	[STORE_COMPARISONS] = "comparisons", [STORE_CALIBRATION] = "calibration",
	[STORE_BASELINE] = "baseline", [STORE_EXTEND] = "extend",
	[STORE_ALERTS] = "alerts", [STORE_MARK] = "mark",
	[STORE_SETTLED] = "settled", [STORE_COMMIT] = "commit",
};

/*
 * PERFLABD_TEST_ANALYSIS_STORE_STOP=STEP (a name of store_steps): the
 * first store that gets past STEP says so on stderr and stops there for
 * good, holding the writer lock, for a test to kill -9 the daemon.
 */
static void store_step(enum analysis_store_step step)
{
	static int stop_at = -2;
	const char *env;

	if (stop_at == -2) {
		stop_at = -1;
		env = getenv("PERFLABD_TEST_ANALYSIS_STORE_STOP");
		for (size_t i = 0; env && i <= STORE_COMMIT; i++)
			if (!strcmp(env, store_steps[i]))
				stop_at = (int)i;
	}
	if ((int)step != stop_at)
		return;
	fprintf(stderr, "perflabd: test: analysis store stopped after step"
		" '%s'\n", store_steps[step]);
	fflush(stderr);
	for (;;)
		pause();
}

/* Everything analysis_store does, inside its transaction. 0 or -1. */
static int store_in(sqlite3 *db, int64_t experiment_id, struct analysis_plan *p)
{
	struct actx *a = p ? &p->a : NULL;
	int64_t *ids = NULL;
	size_t n = 0;
	int ret = -1, added = 0;

	if (!p || !a->nv) {
		store_step(STORE_COMPARISONS);
		ret = finish(db, experiment_id);
		store_step(STORE_MARK);
		return ret;
	}
	ids = calloc(a->nv, sizeof(*ids));
	if (!ids || store_all(db, p, ids, &n))
		goto out;
	store_step(STORE_COMPARISONS);
	if (analysis_calibrate(db, a))
		fprintf(stderr, "perflabd: calibration of experiment %lld failed\n",
			(long long)experiment_id);
	store_step(STORE_CALIBRATION);
	if (record_baseline(db, a))
		fprintf(stderr, "perflabd: series point of experiment %lld failed\n",
			(long long)experiment_id);
	store_step(STORE_BASELINE);
	/* Inconclusive: more runs up to the next planned look, if any. */
	if (p->inconclusive > 0 && a->next > a->rounds) {
		added = planner_extend(db, experiment_id, a->next - a->rounds);
		if (added < 0)
			goto out;
	}
	store_step(STORE_EXTEND);
	/* Final verdicts only: alert when no more runs are coming. The
	 * steps of a calibration ladder are regressions by design; a
	 * bisection's steps are told by its report. */
	if (!added && strcmp(a->kind, "calibration") && !analysis_is_ladder(a) &&
	    !tracks_owns_experiment(db, experiment_id))
		for (size_t i = 0; i < n; i++)
			if (alerts_raise_verdict(db, ids[i], 1, time(NULL)) < 0)
				goto out;
	store_step(STORE_ALERTS);
	ret = finish(db, experiment_id);
	store_step(STORE_MARK);
	/* Final: a track point or bisection step continues from here. */
	if (!ret && !added) {
		tracks_experiment_settled(db, experiment_id);
		store_step(STORE_SETTLED);
	}
out:
	free(ids);
	return ret;
}

int analysis_store(sqlite3 *db, int64_t experiment_id, struct analysis_plan *p)
{
	/* One transaction: a crash anywhere before COMMIT leaves no part of
	 * it, the mark stays and the next start stores it whole, once. The
	 * functions it calls nest in it (db.h). */
	if (db_begin(db))
		goto fail;
	if (store_in(db, experiment_id, p) || db_commit(db))
		goto fail;
	store_step(STORE_COMMIT);
	return 0;
fail:
	fprintf(stderr, "perflabd: cannot store the analysis of experiment"
		" %lld: %s\n", (long long)experiment_id, sqlite3_errmsg(db));
	db_rollback_all(db);
	return -1;
}

int analysis_experiment_done(sqlite3 *db, int64_t experiment_id)
{
	struct analysis_plan *p = analysis_prepare(db, experiment_id);
	int ret;

	if (!p)
		return -1;
	ret = analysis_store(db, experiment_id, p);
	analysis_plan_free(p);
	return ret;
}
