// SPDX-License-Identifier: MIT
/*
 * Experiment planning and job creation.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "daemon/lab/planner.h"
#include "daemon/analysis/stats.h"

void planner_order_boots(int nvariants, int first_round, int rounds,
			 int runs_per_boot, int *variant, int *run)
{
	int r, i, k = 0;

	for (r = first_round; r < first_round + rounds; r++) {
		/* round j of boot b: reversed when j + b is odd */
		int flip = runs_per_boot > 0 ?
				   (r % runs_per_boot + r / runs_per_boot) % 2 :
				   r % 2;

		for (i = 0; i < nvariants; i++) {
			variant[k] = flip ? nvariants - 1 - i : i;
			run[k] = r;
			k++;
		}
	}
}

void planner_order(int nvariants, int first_round, int rounds, int *variant,
		   int *run)
{
	planner_order_boots(nvariants, first_round, rounds, 0, variant, run);
}

/* Insert jobs for rounds [first, first + rounds) after seq @seq0. */
static int add_jobs(sqlite3 *db, int64_t exp, const int64_t *variant_ids,
		    int nvariants, int first, int rounds, int seq0)
{
	int per_boot = (int)db_int(db, 0, "SELECT coalesce(runs_per_boot, 0) FROM"
				   " experiments WHERE id = ?", 1, exp);
	int n = nvariants * rounds, i, ret = -1;
	int *vi = calloc(n, sizeof(int)), *ri = calloc(n, sizeof(int));
	sqlite3_stmt *st = NULL;

	if (!vi || !ri)
		goto out;
	planner_order_boots(nvariants, first, rounds, per_boot, vi, ri);
	st = db_prepare(db, "INSERT INTO jobs (experiment_id, variant_id, run_index,"
			" seq, created_at) VALUES (?,?,?,?,?)");
	if (!st)
		goto out;
	for (i = 0; i < n; i++) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, exp);
		sqlite3_bind_int64(st, 2, variant_ids[vi[i]]);
		sqlite3_bind_int(st, 3, ri[i]);
		sqlite3_bind_int(st, 4, seq0 + i);
		sqlite3_bind_int64(st, 5, (int64_t)time(NULL));
		if (sqlite3_step(st) != SQLITE_DONE)
			goto out;
	}
	ret = n;
out:
	sqlite3_finalize(st);
	free(vi);
	free(ri);
	return ret;
}

static int64_t insert_variant(sqlite3 *db, int64_t exp, int idx,
			      const struct variant_spec *v, const char *commit)
{
	sqlite3_stmt *st;
	int64_t id = -1;
	int i;

	st = db_prepare(db, "INSERT INTO variants (experiment_id, idx, name,"
			" is_control, cmdline, setup, setup_script, settings,"
			" base_commit) VALUES (?,?,?,?,?,?,?,?,?)");
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, exp);
	sqlite3_bind_int(st, 2, idx);
	sqlite3_bind_text(st, 3, v->name, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 4, v->is_control);
	sqlite3_bind_text(st, 5, v->cmdline ? v->cmdline : "", -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, v->setup ? v->setup : "", -1, SQLITE_STATIC);
	if (v->setup_script)
		sqlite3_bind_text(st, 7, v->setup_script, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 8, v->settings ? v->settings : "{}", -1, SQLITE_STATIC);
	/* Git bases: the variant's own commit, else the experiment's. */
	if (v->base_commit || commit)
		sqlite3_bind_text(st, 9, v->base_commit ? v->base_commit : commit,
				  -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_DONE)
		id = sqlite3_last_insert_rowid(db);
	sqlite3_finalize(st);
	if (id < 0)
		return -1;
	st = db_prepare(db, "INSERT INTO variant_patches (variant_id, position,"
			" patch_id) VALUES (?,?,?)");
	if (!st)
		return -1;
	for (i = 0; i < v->npatches; i++) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_int(st, 2, i);
		sqlite3_bind_int64(st, 3, v->patch_ids[i]);
		if (sqlite3_step(st) != SQLITE_DONE) {
			id = -1;
			break;
		}
	}
	sqlite3_finalize(st);
	return id;
}

int64_t planner_create(sqlite3 *db, const struct experiment_spec *spec,
		       struct lab_err *e)
{
	int64_t exp = -1, *vids = NULL;
	sqlite3_stmt *st;
	int i;

	if (spec->nvariants < 1 || spec->runs < 1)
		return lab_fail(e, LAB_INVALID, "an experiment needs variants"
				" and runs");
	st = db_prepare(db, "INSERT INTO experiments (title, kind, submitter_key_id,"
			" label, backend, base_id, config, bench, runs, max_runs,"
			" baseline_id, created_at, runs_per_boot, base_commit)"
			" VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
	if (!st)
		goto fail;
	sqlite3_bind_text(st, 1, spec->title ? spec->title : "", -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, spec->kind ? spec->kind : "explicit", -1, SQLITE_STATIC);
	if (spec->submitter_key_id > 0)
		sqlite3_bind_int64(st, 3, spec->submitter_key_id);
	if (spec->label)
		sqlite3_bind_text(st, 4, spec->label, -1, SQLITE_STATIC);
	if (spec->backend)
		sqlite3_bind_text(st, 5, spec->backend, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 6, spec->base_id);
	sqlite3_bind_text(st, 7, spec->config ? spec->config : "", -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 8, spec->bench_json, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 9, spec->runs);
	sqlite3_bind_int(st, 10, spec->max_runs > spec->runs ? spec->max_runs : spec->runs);
	if (spec->baseline_id > 0)
		sqlite3_bind_int64(st, 11, spec->baseline_id);
	sqlite3_bind_int64(st, 12, (int64_t)time(NULL));
	sqlite3_bind_int(st, 13, spec->runs_per_boot > 0 ? spec->runs_per_boot : 0);
	if (spec->base_commit)
		sqlite3_bind_text(st, 14, spec->base_commit, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_DONE)
		exp = sqlite3_last_insert_rowid(db);
	sqlite3_finalize(st);
	if (exp < 0)
		goto fail;
	vids = calloc(spec->nvariants, sizeof(*vids));
	if (!vids)
		goto fail;
	for (i = 0; i < spec->nvariants; i++) {
		vids[i] = insert_variant(db, exp, i, &spec->variants[i],
					 spec->base_commit);
		if (vids[i] < 0)
			goto fail;
	}
	if (add_jobs(db, exp, vids, spec->nvariants, 0, spec->runs, 0) < 0)
		goto fail;
	free(vids);
	return exp;
fail:
	lab_fail_db(e, db);
	lab_prefix(e, "cannot store experiment");
	free(vids);
	return -1;
}

int planner_extend(sqlite3 *db, int64_t exp, int extra)
{
	int64_t *vids = NULL;
	sqlite3_stmt *st = NULL;
	int n = 0, cap = 0, rounds, max_runs, seq0, added = -1;

	if (db_begin(db))
		return -1;
	rounds = (int)db_int(db, -1, "SELECT max(run_index) + 1 FROM jobs WHERE"
			     " experiment_id = ?", 1, (int64_t)exp);
	max_runs = (int)db_int(db, -1, "SELECT max_runs FROM experiments WHERE id = ?",
			       1, (int64_t)exp);
	seq0 = (int)db_int(db, -1, "SELECT max(seq) + 1 FROM jobs WHERE experiment_id = ?",
			   1, (int64_t)exp);
	if (rounds < 0 || max_runs < 0 || seq0 < 0)
		goto out;
	if (rounds + extra > max_runs)
		extra = max_runs - rounds;
	if (extra <= 0) {
		added = 0;
		goto out;
	}
	/* Only variants still active get more runs. */
	st = db_prepare(db, "SELECT id FROM variants WHERE experiment_id = ? AND"
			" state = 'active' ORDER BY idx");
	if (!st)
		goto out;
	sqlite3_bind_int64(st, 1, exp);
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (n == cap) {
			int64_t *v = realloc(vids, (cap = cap ? cap * 2 : 8) * sizeof(*v));

			if (!v)
				goto out;
			vids = v;
		}
		vids[n++] = sqlite3_column_int64(st, 0);
	}
	if (n == 0) {
		added = 0;
		goto out;
	}
	added = add_jobs(db, exp, vids, n, rounds, extra, seq0);
	if (added < 0)
		goto out;
	if (db_int(db, -1, "UPDATE experiments SET state = CASE state WHEN 'done' THEN"
		   " 'running' ELSE state END, finished_at = NULL WHERE id = ? AND"
		   " state IN ('queued', 'running', 'done') RETURNING id",
		   1, (int64_t)exp) < 0)
		added = -1;
out:
	sqlite3_finalize(st);
	free(vids);
	if (added < 0) {
		db_rollback(db);
		return -1;
	}
	if (db_commit(db))
		return -1;
	return added;
}

int planner_points(int runs, int max_runs, int min_runs, int *at, int max,
		   int *looks)
{
	int n = 0, p = runs > 0 ? runs : 1;

	*looks = 0;
	if (max_runs < p)
		max_runs = p;
	while (n < max) {
		at[n++] = p;
		if (p >= min_runs && ++*looks == PLANNER_MAX_LOOKS)
			break;
		if (p >= max_runs)
			break;
		p = 2 * p > min_runs ? 2 * p : min_runs;
		if (p > max_runs)
			p = max_runs;
	}
	return n;
}

double planner_look_alpha(int runs, int max_runs, int min_runs, double alpha,
			  int rounds)
{
	int at[32], n, looks, k = 0;
	double left = alpha, a[PLANNER_MAX_LOOKS], least = alpha;

	n = planner_points(runs, max_runs, min_runs, at, 32, &looks);
	for (int i = 0; i < n && k < looks; i++) {
		double share, pmin;

		if (at[i] < min_runs)
			continue;
		share = left / (looks - k);
		pmin = stats_mwu_min_p((size_t)at[i], (size_t)at[i]);
		/* Just above the smallest p: "p < alpha" must hold for it. */
		if (k + 1 < looks && pmin >= share && pmin < 0.9 * left)
			share = pmin * (1 + 1e-9);
		a[k] = k + 1 == looks ? left : share;
		left -= a[k];
		least = fmin(least, a[k]);
		if (at[i] == rounds)
			return a[k];
		k++;
	}
	return least;
}
