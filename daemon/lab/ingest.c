// SPDX-License-Identifier: MIT
/*
 * Result validation and storage.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "common/git_names.h"
#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "daemon/lab/exact_cache.h"
#include "daemon/lab/exact_profile.h"
#include "daemon/lab/validate.h"
#include "daemon/lab/gitmirror.h"
#include "daemon/lab/ingest.h"
#include "daemon/lab/run_metrics.h"

#define MAX_SAMPLES 1000000
#define MAX_SYMBOLS 1000000
#define MAX_LOG (4u << 20)
#define MAX_FIELD 4096

/* ---- validation ------------------------------------------------------ */

static int bad(char *err, size_t errlen, const char *fmt, const char *what)
{
	snprintf(err, errlen, fmt, what);
	return -1;
}

/* Optional member @k of @o must have JSON type @t (or be a number for 'n'). */
static int want(json_t *o, const char *k, char t, bool required, char *err,
		size_t errlen)
{
	json_t *v = json_object_get(o, k);
	bool ok;

	if (!v)
		return required ? bad(err, errlen, "missing field '%s'", k) : 0;
	switch (t) {
	case 's': ok = json_is_string(v); break;
	case 'i': ok = json_is_integer(v) && json_integer_value(v) >= 0; break;
	case 'n': ok = json_is_number(v); break;
	case 'b': ok = json_is_boolean(v); break;
	case 'o': ok = json_is_object(v); break;
	case 'a': ok = json_is_array(v); break;
	default: ok = false;
	}
	if (!ok)
		return bad(err, errlen, t == 'i' ? "field '%s' must be a non-negative integer" :
			   t == 'n' ? "field '%s' must be a number" :
			   t == 's' ? "field '%s' must be a string" :
			   t == 'b' ? "field '%s' must be a boolean" :
			   t == 'o' ? "field '%s' must be an object" :
			   "field '%s' must be an array", k);
	if (t == 's' && json_string_length(v) > MAX_LOG)
		return bad(err, errlen, "field '%s' is too long", k);
	return 0;
}

static int check_samples(json_t *a, char *err, size_t errlen)
{
	size_t i, n = json_array_size(a);
	json_int_t last = 0;
	json_t *s;

	if (n > MAX_SAMPLES)
		return bad(err, errlen, "%s: too many samples", "bench.samples");
	json_array_foreach(a, i, s) {
		json_int_t t;

		if (!json_is_object(s))
			return bad(err, errlen, "%s: every sample must be an object", "bench.samples");
		if (want(s, "t", 'i', true, err, errlen) ||
		    want(s, "iops", 'n', true, err, errlen) ||
		    want(s, "ios_per_submit", 'n', false, err, errlen) ||
		    want(s, "ios_per_reap", 'n', false, err, errlen) ||
		    want(s, "inflight", 'n', false, err, errlen))
			return -1;
		t = json_integer_value(json_object_get(s, "t"));
		if (t <= last)
			return bad(err, errlen, "%s: 't' must increase from 1", "bench.samples");
		last = t;
	}
	return 0;
}

static int check_profile(json_t *p, char *err, size_t errlen)
{
	json_t *a, *e;
	size_t i;

	if (want(p, "event", 's', true, err, errlen) ||
	    want(p, "total", 'i', true, err, errlen) ||
	    want(p, "lost", 'i', false, err, errlen) ||
	    want(p, "symbols", 'a', false, err, errlen) ||
	    want(p, "stacks", 'a', false, err, errlen))
		return -1;
	a = json_object_get(p, "symbols");
	if (json_array_size(a) > MAX_SYMBOLS)
		return bad(err, errlen, "%s: too many symbols", "profile.symbols");
	json_array_foreach(a, i, e) {
		if (!json_is_object(e) || want(e, "dso", 's', true, err, errlen) ||
		    want(e, "sym", 's', true, err, errlen) ||
		    want(e, "samples", 'i', true, err, errlen))
			return err[0] ? -1 : bad(err, errlen, "%s: entries must be objects", "profile.symbols");
		if (json_string_length(json_object_get(e, "sym")) > MAX_FIELD ||
		    json_string_length(json_object_get(e, "dso")) > MAX_FIELD)
			return bad(err, errlen, "%s: name too long", "profile.symbols");
	}
	a = json_object_get(p, "stacks");
	if (json_array_size(a) > MAX_SYMBOLS)
		return bad(err, errlen, "%s: too many stacks", "profile.stacks");
	json_array_foreach(a, i, e) {
		if (!json_is_object(e) || want(e, "stack", 's', true, err, errlen) ||
		    want(e, "samples", 'i', true, err, errlen))
			return err[0] ? -1 : bad(err, errlen, "%s: entries must be objects", "profile.stacks");
		if (json_string_length(json_object_get(e, "stack")) > 65536)
			return bad(err, errlen, "%s: stack too long", "profile.stacks");
	}
	return 0;
}

/* Every metric of the table, where present, has its type. */
static int check_metrics(json_t *b, char *err, size_t errlen)
{
	size_t i;

	for (i = 0; i < metric_defs_count; i++) {
		const struct metric_def *m = &metric_defs[i];
		const char *key;
		char obj[64];

		if (metric_path_split(m, obj, sizeof(obj), &key))
			return bad(err, errlen, "metric table: bad path %s", m->path);
		if (want(*obj ? json_object_get(b, obj) : b, key, m->type, false,
			 err, errlen))
			return -1;
	}
	return 0;
}

static int check_bench(json_t *b, char *err, size_t errlen)
{
	json_t *v = json_object_get(b, "version");
	struct lab_err e;
	json_t *sum;

	if (!json_is_integer(v) || json_integer_value(v) != 1)
		return bad(err, errlen, "%s: version must be 1", "bench");
	if (want(b, "params", 'o', false, err, errlen) ||
	    want(b, "ring_flags", 'a', false, err, errlen) ||
	    want(b, "kernel", 's', false, err, errlen) ||
	    want(b, "device", 'o', false, err, errlen) ||
	    want(b, "samples", 'a', true, err, errlen) ||
	    want(b, "summary", 'o', true, err, errlen) ||
	    want(b, "cpu", 'o', false, err, errlen) ||
	    want(b, "profile", 'o', false, err, errlen))
		return -1;
	if (check_samples(json_object_get(b, "samples"), err, errlen))
		return -1;
	sum = json_object_get(b, "summary");
	if (want(sum, "warmup", 'i', false, err, errlen) ||
	    want(sum, "seconds", 'i', false, err, errlen) ||
	    want(sum, "mean", 'n', true, err, errlen) ||
	    check_metrics(b, err, errlen))
		return -1;
	v = json_object_get(b, "profile");
	if (v && check_profile(v, err, errlen))
		return -1;
	v = json_object_get(b, "exact_profile");
	if (v && exact_profile_validate(v, &e)) {
		snprintf(err, errlen, "%s", e.msg);
		return -1;
	}
	return exact_cache_check_cost(b, err, errlen);
}

static int validate(json_t *body, char *err, size_t errlen)
{
	const char *badkey;
	json_t *o;

	err[0] = '\0';
	if (json_check_keys(body, ingest_result_keys, &badkey))
		return bad(err, errlen, "unknown field '%s'", badkey);
	if (want(body, "lease", 's', true, err, errlen) ||
	    want(body, "bench", 'o', true, err, errlen) ||
	    want(body, "build", 'o', false, err, errlen) ||
	    want(body, "boot_log", 's', false, err, errlen) ||
	    want(body, "timings", 'o', false, err, errlen))
		return -1;
	if (json_string_length(json_object_get(body, "lease")) > 64)
		return bad(err, errlen, "field '%s' is too long", "lease");
	o = json_object_get(body, "build");
	if (o && (want(o, "cache_key", 's', false, err, errlen) ||
		  want(o, "cached", 'b', false, err, errlen) ||
		  want(o, "seconds", 'n', false, err, errlen) ||
		  want(o, "log", 's', false, err, errlen) ||
		  want(o, "commit", 's', false, err, errlen)))
		return -1;
	if (o && json_object_get(o, "commit") &&
	    !git_sha_valid(json_string_value(json_object_get(o, "commit"))))
		return bad(err, errlen, "%s", "build.commit must be 40 lower-case hex digits");
	/* Which boot the run came from, and its position in it (toggle). */
	o = json_object_get(body, "boot");
	if (o && (want(body, "boot", 'o', false, err, errlen) ||
		  want(o, "id", 's', true, err, errlen) ||
		  want(o, "pos", 'i', false, err, errlen)))
		return -1;
	if (o && json_string_length(json_object_get(o, "id")) > 64)
		return bad(err, errlen, "field '%s' is too long", "boot.id");
	o = json_object_get(body, "timings");
	if (o && (want(o, "build_s", 'n', false, err, errlen) ||
		  want(o, "boot_s", 'n', false, err, errlen) ||
		  want(o, "run_s", 'n', false, err, errlen)))
		return -1;
	return check_bench(json_object_get(body, "bench"), err, errlen);
}

/* ---- storage --------------------------------------------------------- */

static void bind_num(sqlite3_stmt *st, int i, json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	if (json_is_number(v))
		sqlite3_bind_double(st, i, json_number_value(v));
	else
		sqlite3_bind_null(st, i);
}

static void bind_int(sqlite3_stmt *st, int i, json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	if (json_is_integer(v))
		sqlite3_bind_int64(st, i, json_integer_value(v));
	else
		sqlite3_bind_null(st, i);
}

static void bind_json(sqlite3_stmt *st, int i, json_t *v, const char *def)
{
	char *s = v ? json_dumps(v, JSON_COMPACT) : NULL;

	if (s)
		sqlite3_bind_text(st, i, s, -1, free);
	else
		sqlite3_bind_text(st, i, def, -1, SQLITE_STATIC);
}

static int64_t store_build(sqlite3 *db, json_t *b, int64_t host, int64_t variant,
			   int64_t job, time_t now)
{
	sqlite3_stmt *st;
	int64_t id = -1;

	st = db_prepare(db, "INSERT INTO builds (cache_key, host_id, variant_id, job_id,"
			" cached, seconds, log, created_at) VALUES (?,?,?,?,?,?,?,?)");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, json_string_value(json_object_get(b, "cache_key")) ?: "",
			  -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, host);
	sqlite3_bind_int64(st, 3, variant);
	sqlite3_bind_int64(st, 4, job);
	sqlite3_bind_int(st, 5, json_is_true(json_object_get(b, "cached")));
	bind_num(st, 6, b, "seconds");
	sqlite3_bind_text(st, 7, json_string_value(json_object_get(b, "log")) ?: "",
			  -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 8, (int64_t)now);
	if (sqlite3_step(st) == SQLITE_DONE)
		id = sqlite3_last_insert_rowid(db);
	sqlite3_finalize(st);
	return id;
}

struct run_ctx {
	int64_t job, exp, variant, host, build;
	int attempt, run_index;
	const char *lease;
	time_t now;
};

static int64_t store_run(sqlite3 *db, const struct run_ctx *r, json_t *body)
{
	json_t *bench = json_object_get(body, "bench");
	json_t *sum = json_object_get(bench, "summary");
	json_t *tim = json_object_get(body, "timings");
	sqlite3_stmt *st;
	int64_t id = -1;

	st = db_prepare(db, "INSERT INTO runs (job_id, lease_token, experiment_id,"
			" variant_id, host_id, run_index, attempt, build_id, params,"
			" kernel, ring_flags, device, warmup, seconds, boot_log,"
			" build_s, boot_s, run_s, created_at)"
			" VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, r->job);
	sqlite3_bind_text(st, 2, r->lease, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, r->exp);
	sqlite3_bind_int64(st, 4, r->variant);
	sqlite3_bind_int64(st, 5, r->host);
	sqlite3_bind_int(st, 6, r->run_index);
	sqlite3_bind_int(st, 7, r->attempt);
	if (r->build > 0)
		sqlite3_bind_int64(st, 8, r->build);
	bind_json(st, 9, json_object_get(bench, "params"), "{}");
	sqlite3_bind_text(st, 10, json_string_value(json_object_get(bench, "kernel")) ?: "",
			  -1, SQLITE_STATIC);
	bind_json(st, 11, json_object_get(bench, "ring_flags"), "[]");
	bind_json(st, 12, json_object_get(bench, "device"), "{}");
	bind_int(st, 13, sum, "warmup");
	bind_int(st, 14, sum, "seconds");
	sqlite3_bind_text(st, 15, json_string_value(json_object_get(body, "boot_log")) ?: "",
			  -1, SQLITE_STATIC);
	bind_num(st, 16, tim, "build_s");
	bind_num(st, 17, tim, "boot_s");
	bind_num(st, 18, tim, "run_s");
	sqlite3_bind_int64(st, 19, (int64_t)r->now);
	if (sqlite3_step(st) == SQLITE_DONE)
		id = sqlite3_last_insert_rowid(db);
	sqlite3_finalize(st);
	return id;
}

static int store_samples(sqlite3 *db, int64_t run, json_t *a)
{
	sqlite3_stmt *st = db_prepare(db, "INSERT INTO samples (run_id, t, iops,"
				      " ios_per_submit, ios_per_reap, inflight)"
				      " VALUES (?,?,?,?,?,?)");
	json_t *s;
	size_t i;
	int rc = 0;

	if (!st)
		return -1;
	json_array_foreach(a, i, s) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, run);
		bind_int(st, 2, s, "t");
		sqlite3_bind_int64(st, 3, (int64_t)json_number_value(json_object_get(s, "iops")));
		bind_num(st, 4, s, "ios_per_submit");
		bind_num(st, 5, s, "ios_per_reap");
		bind_num(st, 6, s, "inflight");
		if (sqlite3_step(st) != SQLITE_DONE) {
			rc = -1;
			break;
		}
	}
	sqlite3_finalize(st);
	return rc;
}

/* Intern (dso, name) or a folded stack; returns its id. */
static int64_t intern(sqlite3_stmt *ins, sqlite3_stmt *sel, const char *a,
		      const char *b)
{
	int64_t id = -1;

	sqlite3_reset(ins);
	sqlite3_reset(sel);
	sqlite3_bind_text(ins, 1, a, -1, SQLITE_STATIC);
	sqlite3_bind_text(sel, 1, a, -1, SQLITE_STATIC);
	if (b) {
		sqlite3_bind_text(ins, 2, b, -1, SQLITE_STATIC);
		sqlite3_bind_text(sel, 2, b, -1, SQLITE_STATIC);
	}
	if (sqlite3_step(ins) != SQLITE_DONE)
		return -1;
	if (sqlite3_step(sel) == SQLITE_ROW)
		id = sqlite3_column_int64(sel, 0);
	return id;
}

/*
 * A per-run count table: names interned by @ins/@sel (one or two JSON
 * keys), counts (JSON key @count) added up per id by @add.
 */
struct count_table {
	const char *ins, *sel, *add;
	const char *key1, *key2, *count;
};

static const struct count_table profile_symbols = {
	"INSERT OR IGNORE INTO symbols (dso, name) VALUES (?,?)",
	"SELECT id FROM symbols WHERE dso = ? AND name = ?",
	"INSERT INTO profile_symbols (run_id, symbol_id, samples) VALUES (?,?,?)"
	" ON CONFLICT DO UPDATE SET samples = samples + excluded.samples",
	"dso", "sym", "samples",
};

static const struct count_table profile_stacks = {
	"INSERT OR IGNORE INTO stacks (folded) VALUES (?)",
	"SELECT id FROM stacks WHERE folded = ?",
	"INSERT INTO profile_stacks (run_id, stack_id, samples) VALUES (?,?,?)"
	" ON CONFLICT DO UPDATE SET samples = samples + excluded.samples",
	"stack", NULL, "samples",
};

static const struct count_table exact_symbols = {
	"INSERT OR IGNORE INTO symbols (dso, name) VALUES (?,?)",
	"SELECT id FROM symbols WHERE dso = ? AND name = ?",
	"INSERT INTO exact_profile_symbols (run_id, symbol_id, insns)"
	" VALUES (?,?,?)"
	" ON CONFLICT DO UPDATE SET insns = insns + excluded.insns",
	"dso", "sym", "insns",
};

static const char *str_of(json_t *e, const char *k)
{
	return k ? json_string_value(json_object_get(e, k)) : NULL;
}

static int store_counts(sqlite3 *db, int64_t run, json_t *a,
			const struct count_table *t)
{
	sqlite3_stmt *ins, *sel, *cnt;
	json_t *e;
	size_t i;
	int rc = -1;

	ins = db_prepare(db, t->ins);
	sel = db_prepare(db, t->sel);
	cnt = db_prepare(db, t->add);
	if (!ins || !sel || !cnt)
		goto out;
	json_array_foreach(a, i, e) {
		int64_t id = intern(ins, sel, str_of(e, t->key1),
				    str_of(e, t->key2));

		if (id < 0)
			goto out;
		sqlite3_reset(cnt);
		sqlite3_bind_int64(cnt, 1, run);
		sqlite3_bind_int64(cnt, 2, id);
		sqlite3_bind_int64(cnt, 3, json_integer_value(json_object_get(e, t->count)));
		if (sqlite3_step(cnt) != SQLITE_DONE)
			goto out;
	}
	rc = 0;
out:
	sqlite3_finalize(ins);
	sqlite3_finalize(sel);
	sqlite3_finalize(cnt);
	return rc;
}

static int store_profile(sqlite3 *db, int64_t run, json_t *p)
{
	sqlite3_stmt *st = db_prepare(db, "INSERT INTO profiles (run_id, event, total,"
				      " lost) VALUES (?,?,?,?)");
	int rc;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, run);
	sqlite3_bind_text(st, 2, json_string_value(json_object_get(p, "event")), -1,
			  SQLITE_STATIC);
	bind_int(st, 3, p, "total");
	sqlite3_bind_int64(st, 4, json_integer_value(json_object_get(p, "lost")));
	rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
	sqlite3_finalize(st);
	if (rc)
		return -1;
	if (store_counts(db, run, json_object_get(p, "symbols"), &profile_symbols))
		return -1;
	return store_counts(db, run, json_object_get(p, "stacks"), &profile_stacks);
}

/* An earlier upload with this lease: its run id (or 0). */
static int64_t earlier_run(sqlite3 *db, int64_t job, const char *lease)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT id, job_id FROM runs WHERE lease_token = ?");
	int64_t id = 0;

	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, lease, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 1) == job ? sqlite3_column_int64(st, 0) : -2;
	sqlite3_finalize(st);
	return id;
}

static int store_boot(sqlite3 *db, int64_t run, json_t *boot)
{
	sqlite3_stmt *st;
	json_t *pos = json_object_get(boot, "pos");
	int rc;

	if (!boot)
		return 0;
	st = db_prepare(db, "UPDATE runs SET boot_id = ?, boot_pos = ? WHERE id = ?");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, json_string_value(json_object_get(boot, "id")), -1,
			  SQLITE_STATIC);
	if (json_is_integer(pos))
		sqlite3_bind_int64(st, 2, (int64_t)json_integer_value(pos));
	sqlite3_bind_int64(st, 3, run);
	rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
	sqlite3_finalize(st);
	return rc;
}

static int store_commit(sqlite3 *db, int64_t run, json_t *commit)
{
	sqlite3_stmt *st;
	int rc;

	if (!commit)
		return 0;
	st = db_prepare(db, "UPDATE runs SET commit_built = ? WHERE id = ?");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, json_string_value(commit), -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, run);
	rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
	sqlite3_finalize(st);
	return rc;
}

/*
 * A git base's run must be of the commit the job asked for: a runner
 * that built something else, or says nothing of what it built, would put
 * another kernel's numbers on this commit. Tarball jobs have no commit
 * and take none. 0 or 422.
 */
static int check_commit(sqlite3 *db, int64_t variant, json_t *body,
			struct lab_err *e)
{
	const char *got = json_string_value(json_object_get(
		json_object_get(body, "build"), "commit"));
	sqlite3_stmt *st;
	char want[41] = "";

	st = db_prepare(db, "SELECT coalesce(v.base_commit, e.base_commit)"
			" FROM variants v JOIN experiments e ON e.id ="
			" v.experiment_id WHERE v.id = ?");
	if (!st)
		return lab_fail_db(e, db);
	sqlite3_bind_int64(st, 1, variant);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		snprintf(want, sizeof(want), "%s", sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	if (!got && want[0])
		return lab_fail(e, LAB_REJECTED, "build.commit is required: the"
				" job builds commit %.12s", want);
	if (!got || !strcmp(want, got))
		return 0;
	return lab_fail(e, LAB_REJECTED, want[0] ? "build.commit %.12s is not"
			" the job's commit %.12s" : "build.commit %.12s on a base"
			" without commits%s", got, want);
}

static int store_all(sqlite3 *db, struct run_ctx *r, json_t *body, int64_t *run_id)
{
	json_t *bench = json_object_get(body, "bench"), *x;
	json_t *build = json_object_get(body, "build");

	r->build = 0;
	if (build) {
		r->build = store_build(db, build, r->host, r->variant, r->job, r->now);
		if (r->build < 0)
			return -1;
	}
	*run_id = store_run(db, r, body);
	if (*run_id < 0 || run_metrics_store(db, *run_id, bench))
		return -1;
	if (store_commit(db, *run_id, json_object_get(build, "commit")))
		return -1;
	if (store_boot(db, *run_id, json_object_get(body, "boot")))
		return -1;
	if (store_samples(db, *run_id, json_object_get(bench, "samples")))
		return -1;
	if (json_object_get(bench, "profile") &&
	    store_profile(db, *run_id, json_object_get(bench, "profile")))
		return -1;
	x = json_object_get(bench, "exact_profile");
	if (x && (exact_profile_store_head(db, *run_id, x) ||
		  store_counts(db, *run_id, json_object_get(x, "symbols"),
			       &exact_symbols) ||
		  exact_cache_store(db, *run_id, x)))
		return -1;
	return jobs_done(db, r->job, r->attempt, r->host, r->lease, r->now);
}

const char *const ingest_result_keys[] = { "lease", "bench", "build",
	"boot_log", "timings", "boot", NULL };

int ingest_validate(json_t *body, struct lab_err *e)
{
	char why[512] = "";

	if (validate(body, why, sizeof(why)))
		return lab_fail(e, LAB_INVALID, "%s", why);
	return 0;
}

int ingest_result(sqlite3 *db, const struct jobs_ctx *c, int64_t job,
		  int64_t host, json_t *body, time_t now, int64_t *run_id,
		  bool *duplicate, struct lab_err *e)
{
	struct run_ctx r = { .job = job, .now = now };
	int64_t prev;
	int settled = 0;

	*duplicate = false;
	r.lease = json_string_value(json_object_get(body, "lease"));
	if (db_begin(db)) {
		lab_fail(e, LAB_UNAVAILABLE, "database unavailable: %s",
			 sqlite3_errmsg(db));
		return -1;
	}
	prev = earlier_run(db, job, r.lease);
	if (prev > 0) {
		db_rollback(db);
		*run_id = prev;
		*duplicate = true;
		return 0;
	}
	if (prev == -2 ? jobs_stale_lease(e) :
	    jobs_lease_check(db, job, host, r.lease, now, &r.exp, &r.variant,
			     &r.attempt, &r.run_index, e)) {
		db_rollback(db);
		return -1;
	}
	r.host = db_int(db, 0, "SELECT lease_host_id FROM jobs WHERE id = ?", 1, job);
	if (check_commit(db, r.variant, body, e)) {
		db_rollback(db);
		return -1;
	}
	if (store_all(db, &r, body, run_id))
		goto fail;
	settled = jobs_settle_experiment(db, r.exp, now);
	if (settled < 0 || db_commit(db))
		goto fail;
	jobs_publish(c, job, r.exp, "done", r.attempt, "done", NULL);
	if (c->ev)
		events_publish(c->ev, "run", json_pack("{s:I,s:I,s:I,s:I,s:O?}",
			       "run_id", (json_int_t)*run_id, "job_id", (json_int_t)job,
			       "experiment_id", (json_int_t)r.exp, "variant_id",
			       (json_int_t)r.variant, "mean",
			       json_object_get(json_object_get(json_object_get(body, "bench"),
							       "summary"), "mean")));
	jobs_after_settle(c, r.exp, settled);
	return 0;
fail:
	lab_fail_db(e, db);
	if (e && e->st == LAB_INTERNAL)
		lab_fail(e, LAB_INTERNAL, "cannot store the result: %s",
			 sqlite3_errmsg(db));
	db_rollback(db);
	return -1;
}
