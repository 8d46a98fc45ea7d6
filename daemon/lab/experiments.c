// SPDX-License-Identifier: MIT
/*
 * Making, cancelling and reading the logs of experiments; see
 * experiments.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/lab/bases.h"
#include "daemon/lab/experiments.h"
#include "daemon/lab/lava.h"
#include "daemon/lab/lava_toggle.h"
#include "daemon/lab/patches.h"
#include "daemon/lab/planner.h"
#include "daemon/lab/roles.h"
#include "daemon/lab/toggle.h"
#include "daemon/lab/validate.h"
#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "daemon/store/writer.h"

/* An explicit experiment on its way to the planner. */
struct submit {
	const struct experiment_req *r;
	struct variant_spec v[EXP_MAX_VARIANTS];
	int64_t ids[EXP_MAX_VARIANTS][EXP_MAX_VARIANT_PATCHES];
	char *scripts[EXP_MAX_VARIANTS];	/* stored setup texts */
	char *settings[EXP_MAX_VARIANTS];	/* toggle settings JSON */
	char commits[EXP_MAX_VARIANTS][41];	/* git base: "commit"s */
	struct base_ref base;
};

static void submit_free(struct submit *s)
{
	for (int i = 0; s && i < EXP_MAX_VARIANTS; i++) {
		free(s->scripts[i]);
		free(s->settings[i]);
	}
	free(s);
}

/* Which variant is the control: named, marked, else the first. */
static int pick_control(struct submit *s, struct lab_err *e)
{
	const struct experiment_req *r = s->r;
	int i, n = 0;

	for (i = 0; i < r->nvariants; i++) {
		s->v[i].is_control = r->control ?
			!strcmp(r->control, r->variants[i].name) :
			r->variants[i].control;
		n += s->v[i].is_control;
	}
	if (r->control && n == 0)
		return lab_fail(e, LAB_INVALID, "'control' names no variant");
	if (n > 1)
		return lab_fail(e, LAB_INVALID, "only one variant may be the"
				" control");
	if (n == 0)
		s->v[0].is_control = true;
	return 0;
}

/* Variants' "commit": another commit of the git base (a bisection step
 * builds the good commit and the midpoint side by side). Git: before
 * the write lock. */
static int resolve_commits(struct submit *s, struct lab_err *e)
{
	for (int k = 0; k < s->r->nvariants; k++) {
		const char *c = s->r->variants[k].commit;

		if (!c)
			continue;
		if (!s->base.git)
			return lab_fail(e, LAB_REJECTED, "variant %d: 'commit'"
					" needs a git base", k);
		if (bases_commit(&s->base, c, s->commits[k], e))
			return lab_prefix(e, "variant %d", k);
		s->v[k].base_commit = s->commits[k];
	}
	return 0;
}

/*
 * Trust and quota before any git work, under the writer lock: a key that
 * may not queue this never makes the daemon fetch. store() checks again
 * in the transaction that inserts the jobs.
 */
static int precheck(sqlite3 *db, const struct trust_who *who,
		    const struct experiment_req *r, struct lab_err *e)
{
	sqlite3 *w = db_write_lock(db);
	int rc = 0;

	for (int k = 0; k < r->nvariants && !rc; k++) {
		const struct variant_req *in = &r->variants[k];
		struct variant_spec v = { .name = in->name,
					  .cmdline = in->cmdline,
					  .setup = in->setup };
		char *script = NULL;

		if (trust_variant(w, who, &v, in->setup_script, &script, e) ||
		    (r->toggle && toggle_settings_check(w, who, in->settings, e)))
			rc = lab_prefix(e, "variant '%s'", v.name);
		free(script);
	}
	if (!rc)
		rc = trust_request(w, who, r->backend, r->nvariants * r->runs, e);
	db_write_unlock(db, w);
	return rc;
}

/* A variant's "patches": stored ids and patch text, in order. */
static int variant_patches(sqlite3 *w, const struct trust_who *who,
			   const json_t *pa, int64_t *ids, int *n,
			   struct lab_err *e)
{
	json_t *p;
	size_t i;
	int k;

	*n = 0;
	if (!pa)
		return 0;
	if (!json_is_array(pa))
		return lab_fail(e, LAB_INVALID, "variant 'patches' must be an"
				" array");
	json_array_foreach(pa, i, p) {
		if (json_is_integer(p)) {
			if (*n == EXP_MAX_VARIANT_PATCHES)
				return lab_fail(e, LAB_INVALID, "too many patches"
						" in a variant");
			ids[*n] = json_integer_value(p);
			if (!patches_exists(w, ids[*n]))
				return lab_fail(e, LAB_REJECTED, "no stored patch"
						" with id %lld", (long long)ids[*n]);
			(*n)++;
		} else if (json_is_string(p)) {
			k = patches_store_text(w, json_string_value(p),
					       json_string_length(p), who->key_id,
					       ids + *n, EXP_MAX_VARIANT_PATCHES - *n,
					       NULL, 0, e);
			if (k < 0)
				return e->st == LAB_INVALID ?
				       lab_prefix(e, "variant patch %zu is not a"
						  " usable patch", i) : -1;
			*n += k;
		} else {
			return lab_fail(e, LAB_INVALID, "variant patches must be"
					" patch ids or patch text");
		}
	}
	return 0;
}

/* What this key may make the host do (trust.h), toggle settings
 * (toggle.h) and the patches of variant @k; on the writer. */
static int check_variant(sqlite3 *w, const struct trust_who *who,
			 struct submit *s, int k, struct lab_err *e)
{
	const struct variant_req *in = &s->r->variants[k];
	struct variant_spec *v = &s->v[k];

	v->name = in->name;
	v->cmdline = in->cmdline;
	v->setup = in->setup;
	if (trust_variant(w, who, v, in->setup_script, &s->scripts[k], e))
		return lab_prefix(e, "variant '%s'", v->name);
	if (!s->r->toggle && in->settings)
		return lab_fail(e, LAB_INVALID, "variant '%s': 'settings' are"
				" for toggle experiments (\"toggle\": true)",
				v->name);
	if (s->r->toggle) {
		if (toggle_settings_check(w, who, in->settings, e))
			return lab_prefix(e, "variant '%s'", v->name);
		s->settings[k] = in->settings ?
			json_dumps(in->settings, JSON_COMPACT) : strdup("{}");
		if (!s->settings[k])
			return lab_fail(e, LAB_INTERNAL, "out of memory");
		v->settings = s->settings[k];
	}
	v->patch_ids = s->ids[k];
	return variant_patches(w, who, in->patches, s->ids[k], &v->npatches, e);
}

/*
 * A toggle boot on a LAVA lab is one LAVA job whose test step runs every
 * job of the boot (lava_toggle.h): at most LAVA_TOGGLE_MAX_RUNS of them.
 */
static int toggle_lava_check(sqlite3 *w, const struct experiment_req *r,
			     struct lab_err *e)
{
	int per_boot = r->runs_per_boot ? r->runs_per_boot : r->runs;
	char lab[65];
	int rc;

	if (!r->toggle || !r->label ||
	    (int64_t)per_boot * r->nvariants <= LAVA_TOGGLE_MAX_RUNS)
		return 0;
	rc = lava_label_lab(w, r->label, lab);
	if (rc < 0)
		return lab_fail_db(e, w);
	if (rc)
		return lab_fail(e, LAB_REJECTED, "label '%s' is bound to LAVA lab"
				" '%s': a toggle boot there runs at most %d jobs"
				" (runs_per_boot x variants is %lld)", r->label,
				lab, LAVA_TOGGLE_MAX_RUNS,
				(long long)per_boot * r->nvariants);
	return 0;
}

/* On the writer: check everything that reads or writes, then plan. */
static int64_t store(sqlite3 *w, const struct trust_who *who, struct submit *s,
		     struct lab_err *e)
{
	const struct experiment_req *r = s->r;
	struct experiment_spec spec;
	int64_t exp;

	for (int k = 0; k < r->nvariants; k++)
		if (check_variant(w, who, s, k, e))
			return -1;
	if (toggle_lava_check(w, r, e) ||
	    trust_request(w, who, r->backend, r->nvariants * r->runs, e) ||
	    (r->toggle && toggle_variants_check(s->v, r->nvariants,
						s->base.git ? s->base.commit :
						NULL, e)))
		return -1;
	spec = (struct experiment_spec){
		.title = r->title ? r->title : "", .kind = "explicit",
		.label = r->label, .backend = r->backend, .config = r->config,
		.base_id = s->base.id,
		.base_commit = s->base.git ? s->base.commit : NULL,
		.bench_json = r->bench_json, .runs = r->runs,
		.max_runs = r->max_runs ? r->max_runs : r->runs * 2,
		/* Toggle: by default all planned rounds in one boot. */
		.runs_per_boot = r->toggle ? (r->runs_per_boot ?
					      r->runs_per_boot : r->runs) : 0,
		.submitter_key_id = who->key_id, .variants = s->v,
		.nvariants = r->nvariants,
	};
	exp = planner_create(w, &spec, e);
	if (exp >= 0 && db_commit(w))
		return lab_fail_db(e, w);
	return exp;
}

int64_t experiments_submit(sqlite3 *db, const struct trust_who *who,
			   const struct experiment_req *r, struct lab_err *e)
{
	struct submit *s = calloc(1, sizeof(*s));
	int64_t exp = -1;
	sqlite3 *w;

	if (!s)
		return lab_fail(e, LAB_INTERNAL, "out of memory");
	s->r = r;
	if (r->nvariants < 1 || r->nvariants > EXP_MAX_VARIANTS) {
		lab_fail(e, LAB_INVALID, "'variants' must be an array of 1 to"
			 " %d objects", EXP_MAX_VARIANTS);
		goto out;
	}
	if (pick_control(s, e) || precheck(db, who, r, e) ||
	    bases_lookup(db, r->base ? r->base : EXP_DEFAULT_BASE, &s->base, e) ||
	    resolve_commits(s, e))
		goto out;
	/* Git is done: the rest is reads and writes on the writer. */
	w = db_write_lock(db);
	if (db_begin(w))
		lab_fail_db(e, w);
	else
		exp = store(w, who, s, e);
	db_write_unlock(db, w);
out:
	submit_free(s);
	return exp;
}

/* The title of a series: the first subject, and how many follow. */
/* Variants of a patch experiment: base and patched, or base and one per
 * prefix of a short series. */
static int prefix_variants(const struct patch_req *r, int npatches)
{
	return r->prefixes && npatches >= 2 && npatches <= EXP_MAX_PREFIXES ?
	       npatches + 1 : 2;
}

static void series_title(char *buf, size_t len, const char *subject, int n)
{
	if (n > 1)
		snprintf(buf, len, "%.200s (+%d more)", subject, n - 1);
	else
		snprintf(buf, len, "%.200s", subject);
}

static int64_t store_patch_exp(sqlite3 *w, const struct trust_who *who,
			       const struct patch_req *r,
			       const struct base_ref *b, const char *bench,
			       const struct patch_series *series,
			       const char *subject, int64_t *ids, int *n,
			       struct lab_err *e)
{
	struct variant_spec v[EXP_MAX_PREFIXES + 1] = { 0 };
	char title[640], names[EXP_MAX_PREFIXES][16];
	int nv = prefix_variants(r, series->n);
	struct experiment_spec spec;
	int64_t exp;

	if (trust_request(w, who, r->backend, nv * r->runs, e))
		return -1;
	*n = patches_store(w, series, who->key_id, ids, e);
	if (*n < 0)
		return -1;
	if (!r->title)
		series_title(title, sizeof(title), subject, *n);
	v[0] = (struct variant_spec){ .name = "base", .is_control = true };
	v[1] = (struct variant_spec){ .name = "patched", .patch_ids = ids,
				      .npatches = *n };
	for (int k = 1; nv > 2 && k < nv; k++) {
		snprintf(names[k - 1], sizeof(names[0]), k == 1 ? "p1" : "p1-%d", k);
		v[k] = (struct variant_spec){ .name = names[k - 1], .patch_ids = ids,
					      .npatches = k };
	}
	spec = (struct experiment_spec){
		.title = r->title ? r->title : title, .kind = "patch",
		.label = r->label, .backend = r->backend, .config = r->config,
		.base_id = b->id, .bench_json = bench,
		.base_commit = b->git ? b->commit : NULL,
		.runs = r->runs, .max_runs = r->max_runs ? r->max_runs : r->runs * 2,
		.submitter_key_id = who->key_id, .variants = v, .nvariants = nv,
	};
	exp = planner_create(w, &spec, e);
	if (exp >= 0 && db_commit(w))
		return lab_fail_db(e, w);
	return exp;
}

int64_t experiments_submit_patch(sqlite3 *db, const struct trust_who *who,
				 const struct patch_req *r, int64_t *ids,
				 int *n, struct lab_err *e)
{
	char subject[512], *bench = NULL;
	struct patch_series series;
	struct base_ref b;
	json_t *defaults;
	int64_t exp = -1;
	sqlite3 *w;

	*n = 0;
	if (!r->len)
		return lab_fail(e, LAB_INVALID, "empty body: send the patch (mbox"
				" or diff) as the body");
	/* Trust and quota before any git work (checked again below). */
	if (trust_precheck(db, who, r->backend, 2 * r->runs, e))
		return -1;
	/* A git base: its ref's head now, or the pinned NAME@COMMIT. */
	if (bases_lookup(db, r->base ? r->base : EXP_DEFAULT_BASE, &b, e))
		return -1;
	defaults = bench_params_json(NULL, e);
	bench = defaults ? json_dumps(defaults, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
	json_decref(defaults);
	if (!bench)
		return lab_fail(e, LAB_INTERNAL, "no bench defaults");
	/* Parsing is the slow part: before the write lock. */
	if (patches_prepare(r->text, r->len, EXP_MAX_SERIES, &series, subject,
			    sizeof(subject), e)) {
		free(bench);
		return lab_prefix(e, "not a usable patch");
	}
	w = db_write_lock(db);
	if (db_begin(w))
		lab_fail_db(e, w);
	else
		exp = store_patch_exp(w, who, r, &b, bench, &series, subject, ids,
				      n, e);
	db_write_unlock(db, w);
	patch_series_free(&series);
	free(bench);
	return exp;
}

int experiments_cancel(sqlite3 *db, const struct jobs_ctx *c,
		       const struct trust_who *who, int64_t id, time_t now,
		       struct lab_err *e)
{
	int64_t owner = db_int(db, -1, "SELECT coalesce(submitter_key_id, 0)"
			       " FROM experiments WHERE id = ?", 1, id);
	sqlite3 *w;
	int rc;

	if (owner < 0)
		return lab_fail(e, LAB_NOT_FOUND, "no such experiment");
	if (who->role != ROLE_ADMIN && owner != who->key_id)
		return lab_fail(e, LAB_FORBIDDEN, "only the submitter or an admin"
				" may cancel");
	w = db_write_lock(db);
	rc = jobs_cancel_experiment(w, c, id, now, e);
	db_write_unlock(db, w);
	return rc;
}

int experiments_set_pinned(sqlite3 *db, int64_t id, bool pinned,
			   struct lab_err *e)
{
	sqlite3 *w = db_write_lock(db);
	sqlite3_stmt *st = db_prepare(w, "UPDATE experiments SET pinned = ?"
				      " WHERE id = ?");
	int rc = -1, n = 0;

	if (st) {
		sqlite3_bind_int(st, 1, pinned);
		sqlite3_bind_int64(st, 2, id);
		rc = sqlite3_step(st) == SQLITE_DONE ? 0 : lab_fail_db(e, w);
		n = sqlite3_changes(w);
		sqlite3_finalize(st);
	} else {
		lab_fail_db(e, w);
	}
	db_write_unlock(db, w);
	if (!rc && !n)
		rc = lab_fail(e, LAB_NOT_FOUND, "no such experiment");
	return rc;
}

/* The text column of the one row @sql (bound to @id) finds, or NULL. */
static char *one_text(sqlite3 *db, const char *sql, int64_t id, size_t *len,
		      const char *missing, struct lab_err *e)
{
	char *out;
	int rc = db_text(db, sql, id, &out, len);

	if (rc < 0)
		lab_fail_db(e, db);
	else if (!rc)
		lab_fail(e, LAB_NOT_FOUND, "%s", missing);
	return out;
}

char *experiments_run_log(sqlite3 *db, int64_t id, const char *kind,
			  size_t *len, struct lab_err *e)
{
	if (!strcmp(kind, "build"))
		return one_text(db, "SELECT coalesce(b.log, '') FROM runs r LEFT"
				" JOIN builds b ON b.id = r.build_id WHERE r.id = ?",
				id, len, "no such run", e);
	if (!strcmp(kind, "boot"))
		return one_text(db, "SELECT coalesce(boot_log, '') FROM runs"
				" WHERE id = ?", id, len, "no such run", e);
	return lab_fail(e, LAB_NOT_FOUND, "log kind must be build or boot"), NULL;
}

char *experiments_job_log(sqlite3 *db, int64_t id, size_t *len,
			  struct lab_err *e)
{
	return one_text(db, "SELECT coalesce(failure_log, '') FROM jobs WHERE"
			" id = ?", id, len, "no such job", e);
}
