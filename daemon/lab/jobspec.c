// SPDX-License-Identifier: MIT
/*
 * The job spec a runner gets from a claim (docs/contracts.md section 2).
 */
#include <stdio.h>
#include <string.h>

#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "daemon/store/json.h"
#include "daemon/lab/jobs.h"

static json_t *variant_patches(sqlite3 *db, int64_t variant)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT p.id, p.sha256, p.subject, p.raw"
				      " FROM variant_patches vp JOIN patches p ON"
				      " p.id = vp.patch_id WHERE vp.variant_id = ?"
				      " ORDER BY vp.position");
	json_t *a;

	if (!st)
		return NULL;
	sqlite3_bind_int64(st, 1, variant);
	a = json_rows(st);
	sqlite3_finalize(st);
	return a;
}

/*
 * A toggle experiment's claim: the runs of this boot in the order to run
 * them, each with its job, its own lease and its variant's settings.
 * NULL for other experiments.
 */
static json_t *toggle_runs(sqlite3 *db, const struct claim *cl)
{
	sqlite3_stmt *st;
	json_t *a;

	if (db_int(db, 0, "SELECT runs_per_boot FROM experiments WHERE id = ?",
		   1, (int64_t)cl->experiment_id) <= 0)
		return NULL;
	st = db_prepare(db, "SELECT j.id AS job_id, j.lease_token AS lease,"
			" j.attempt, j.run_index, j.seq, v.id AS \"variant.id\","
			" v.name AS \"variant.name\", v.settings AS \"variant.settings_json\""
			" FROM jobs j JOIN variants v ON v.id = j.variant_id"
			" WHERE j.id = ?1 OR (j.lease_group = ?2 AND"
			" j.state IN ('claimed', 'running')) ORDER BY j.seq");
	if (!st)
		return NULL;
	sqlite3_bind_int64(st, 1, cl->job_id);
	sqlite3_bind_text(st, 2, cl->lease, -1, SQLITE_STATIC);
	a = json_rows(st);
	sqlite3_finalize(st);
	return a;
}

/*
 * The claimed base: git bases carry url and commit (and no tree);
 * tarball bases keep their old shape {name, kind, tree, ref}.
 */
static void base_shape(json_t *b)
{
	if (!strcmp(json_string_value(json_object_get(b, "kind")) ?: "", "git")) {
		json_object_del(b, "tree");
		return;
	}
	json_object_del(b, "url");
	json_object_del(b, "commit");
}

json_t *jobs_spec_json(sqlite3 *db, const struct claim *cl, int lease_seconds)
{
	sqlite3_stmt *st;
	json_t *o = NULL, *v;
	int64_t variant;

	st = db_prepare(db,
		"SELECT j.id AS job_id, j.attempt, j.experiment_id, j.run_index, j.seq,"
		" coalesce(e.backend, h.backend) AS backend, e.label,"
		" b.name AS \"base.name\", b.kind AS \"base.kind\", b.tree AS \"base.tree\","
		" b.ref AS \"base.ref\", b.url AS \"base.url\","
		" coalesce(v.base_commit, e.base_commit) AS \"base.commit\","
		" CASE e.config WHEN '' THEN b.config ELSE e.config END AS config,"
		" v.id AS \"variant.id\", v.name AS \"variant.name\","
		" v.is_control AS \"variant.is_control\", v.cmdline AS \"variant.cmdline\","
		" v.setup AS \"variant.setup\", e.bench AS bench_json"
		" FROM jobs j JOIN experiments e ON e.id = j.experiment_id"
		" JOIN bases b ON b.id = e.base_id JOIN variants v ON v.id = j.variant_id"
		" LEFT JOIN hosts h ON h.id = j.lease_host_id WHERE j.id = ?");
	if (!st)
		return NULL;
	sqlite3_bind_int64(st, 1, cl->job_id);
	if (sqlite3_step(st) == SQLITE_ROW)
		o = json_row(st);
	sqlite3_finalize(st);
	if (!o)
		return NULL;
	base_shape(json_object_get(o, "base"));
	json_object_set_new(o, "lease", json_string(cl->lease));
	json_object_set_new(o, "lease_seconds", json_integer(lease_seconds));
	json_object_set_new(o, "lease_expires", json_integer((json_int_t)cl->expires));
	v = json_object_get(o, "variant");
	variant = json_integer_value(json_object_get(v, "id"));
	json_object_set_new(v, "is_control",
			    json_boolean(json_integer_value(json_object_get(v, "is_control"))));
	json_object_set_new(v, "patches", variant_patches(db, variant));
	v = toggle_runs(db, cl);
	if (v)
		json_object_set_new(o, "toggle", json_pack("{s:o}", "runs", v));
	return o;
}
