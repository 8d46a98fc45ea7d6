// SPDX-License-Identifier: MIT
/*
 * Builds: image keys per host, what is stored, built and needed, uploads
 * (the claim and build tasks: build_tasks.c).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/failure_reasons.h"
#include "common/kimage.h"
#include "daemon/lab/builds.h"
#include "daemon/lab/build_state.h"
#include "daemon/lab/validate.h"
#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "daemon/store/json.h"

/* Say why in @err; return @status. */
static int refuse(char *err, size_t errlen, int status, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int refuse(char *err, size_t errlen, int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return status;
}

static bool any_may_build = true;

void builds_set_any_may_build(bool yes)
{
	any_may_build = yes;
}

/* ---- host capabilities ------------------------------------------------ */

int builds_check_caps(json_t *role, json_t *configs, char *err, size_t errlen)
{
	const char *r = json_string_value(role), *k;
	json_t *v;

	if (role && !json_is_null(role) && (!r || (strcmp(r, "builder") &&
	    strcmp(r, "test") && strcmp(r, "any"))))
		return refuse(err, errlen, -1, "'role' must be builder, test or"
				" any");
	if (!configs || json_is_null(configs))
		return 0;
	if (!json_is_object(configs) || json_object_size(configs) > 64)
		return refuse(err, errlen, -1, "'configs' must be an object of at"
				" most 64 {name: config hash}");
	json_object_foreach(configs, k, v)
		if (!lab_valid_name(k) || !kimage_is_hex64(json_string_value(v)))
			return refuse(err, errlen, -1, "configs.%.64s must be a"
					" config hash (64 lower-case hex)", k);
	return 0;
}

int builds_set_host(sqlite3 *w, int64_t host, const char *role, json_t *configs)
{
	sqlite3_stmt *st;
	const char *k;
	json_t *v;
	int rc;

	st = db_prepare(w, "UPDATE hosts SET role = ? WHERE id = ?");
	if (!st)
		return -1;
	if (role)
		sqlite3_bind_text(st, 1, role, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, host);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE || db_int(w, -1, "DELETE FROM host_configs WHERE"
					" host_id = ? RETURNING 0", 1, host) < -1)
		return -1;
	st = db_prepare(w, "INSERT INTO host_configs (host_id, name, hash)"
			" VALUES (?,?,?)");
	if (!st)
		return -1;
	json_object_foreach(configs, k, v) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, host);
		sqlite3_bind_text(st, 2, k, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, json_string_value(v), -1, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE) {
			sqlite3_finalize(st);
			return -1;
		}
	}
	sqlite3_finalize(st);
	return 0;
}

/* The (name, hash) rows of @sql (?1 @host, ?2 @label, ?3 may 'any'
 * build) as JSON {name: hash}. */
static json_t *configs_of(sqlite3 *db, const char *sql, int64_t host,
			  const char *label)
{
	sqlite3_stmt *st = db_prepare(db, sql);
	json_t *o = json_object();
	int rc = SQLITE_ERROR;

	if (!st || !o)
		goto fail;
	sqlite3_bind_int64(st, 1, host);
	if (label) {
		sqlite3_bind_text(st, 2, label, -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 3, any_may_build);
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		json_object_set_new(o, (const char *)sqlite3_column_text(st, 0),
				    json_string((const char *)
						sqlite3_column_text(st, 1)));
	if (rc != SQLITE_DONE)
		goto fail;
	sqlite3_finalize(st);
	return o;
fail:
	sqlite3_finalize(st);
	json_decref(o);
	return NULL;
}

int builds_configs_from_builders(sqlite3 *w, int64_t host, const char *label)
{
	/* A name two builders hash differently names no one image: left out. */
	static const char builders_sql[] =
		"SELECT hc.name, min(hc.hash) FROM host_configs hc JOIN hosts h ON"
		" h.id = hc.host_id JOIN host_labels hl ON hl.host_id = h.id WHERE"
		" h.id != ?1 AND hl.label = ?2 AND (h.role = 'builder' OR (h.role ="
		" 'any' AND ?3)) GROUP BY hc.name HAVING count(DISTINCT hc.hash) = 1";
	json_t *want, *have;
	int rc = -1;

	want = configs_of(w, builders_sql, host, label);
	have = configs_of(w, "SELECT name, hash FROM host_configs WHERE"
			  " host_id = ?1", host, NULL);
	if (!want || !have)
		goto out;
	rc = (int)json_object_size(want);
	if (json_equal(want, have))
		goto out;
	if (db_begin(w) || builds_set_host(w, host, "test", want) || db_commit(w)) {
		db_rollback(w);
		rc = -1;
	}
out:
	json_decref(want);
	json_decref(have);
	return rc;
}

/* "builder", "test", "any" or "" (no role). */
void builds_host_role(sqlite3 *db, int64_t host, char role[16])
{
	sqlite3_stmt *st = db_prepare(db, "SELECT coalesce(role, '') FROM hosts"
				      " WHERE id = ?");

	role[0] = '\0';
	if (!st)
		return;
	sqlite3_bind_int64(st, 1, host);
	if (sqlite3_step(st) == SQLITE_ROW)
		snprintf(role, 16, "%s", sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
}

bool builds_may_build(const char *role)
{
	return !strcmp(role, "builder") || (!strcmp(role, "any") && any_may_build);
}

/* ---- keys -------------------------------------------------------------- */

/* The trust domain of a patched variant's submitter. */
static void submitter_domain(sqlite3 *db, int64_t key_id, char out[72])
{
	sqlite3_stmt *st = db_prepare(db, "SELECT hash FROM api_keys WHERE id = ?");
	char d[17];

	/* An experiment no key submitted (the lab's own): one domain. */
	snprintf(out, 72, "lab");
	if (!st)
		return;
	sqlite3_bind_int64(st, 1, key_id);
	if (sqlite3_step(st) == SQLITE_ROW) {
		kimage_domain(sqlite3_column_blob(st, 0),
			      (size_t)sqlite3_column_bytes(st, 0), d);
		snprintf(out, 72, "%s", d);
	}
	sqlite3_finalize(st);
}

static int patchset(sqlite3 *db, struct build_spec *bs)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT p.sha256 FROM variant_patches vp"
				      " JOIN patches p ON p.id = vp.patch_id WHERE"
				      " vp.variant_id = ? ORDER BY vp.position");
	const char *h[128];
	char buf[128][65];
	int n = 0;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, bs->variant);
	while (n < 128 && sqlite3_step(st) == SQLITE_ROW) {
		snprintf(buf[n], 65, "%s", sqlite3_column_text(st, 0));
		h[n] = buf[n];
		n++;
	}
	sqlite3_finalize(st);
	bs->npatches = n;
	kimage_patchset_hash(h, n, bs->patchset);
	return 0;
}

int builds_spec_of_variant(sqlite3 *db, int64_t variant, struct build_spec *bs)
{
	sqlite3_stmt *st = db_prepare(db,
		"SELECT e.id, b.name, CASE b.kind WHEN 'git' THEN"
		" coalesce(v.base_commit, e.base_commit) END,"
		" CASE e.config WHEN '' THEN b.config ELSE e.config END,"
		" coalesce(e.submitter_key_id, 0) FROM variants v JOIN experiments e"
		" ON e.id = v.experiment_id JOIN bases b ON b.id = e.base_id"
		" WHERE v.id = ?");
	int64_t key_id = 0;
	int rc = -1;

	memset(bs, 0, sizeof(*bs));
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, variant);
	if (sqlite3_step(st) == SQLITE_ROW) {
		bs->experiment = sqlite3_column_int64(st, 0);
		bs->variant = variant;
		snprintf(bs->base, sizeof(bs->base), "%s", sqlite3_column_text(st, 1));
		if (sqlite3_column_type(st, 2) != SQLITE_NULL)
			snprintf(bs->commit, sizeof(bs->commit), "%s",
				 sqlite3_column_text(st, 2));
		snprintf(bs->config, sizeof(bs->config), "%s",
			 sqlite3_column_text(st, 3) ? (const char *)
			 sqlite3_column_text(st, 3) : "");
		key_id = sqlite3_column_int64(st, 4);
		rc = 0;
	}
	sqlite3_finalize(st);
	if (rc || patchset(db, bs))
		return -1;
	if (bs->npatches)
		submitter_domain(db, key_id, bs->domain);
	else
		snprintf(bs->domain, sizeof(bs->domain), KIMAGE_DOMAIN_BASE);
	return 0;
}

int builds_key_for_hash(const struct build_spec *bs, const char *cfg_hash,
			char key[65])
{
	return kimage_key(bs->base, bs->commit[0] ? bs->commit : NULL,
			  bs->patchset, cfg_hash, bs->npatches ? bs->domain : NULL,
			  key);
}

int builds_key_for_host(sqlite3 *db, const struct build_spec *bs, int64_t host,
			char key[65])
{
	sqlite3_stmt *st = db_prepare(db, "SELECT hash FROM host_configs WHERE"
				      " host_id = ? AND name = ?");
	char hash[65] = "";

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, host);
	sqlite3_bind_text(st, 2, bs->config, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		snprintf(hash, sizeof(hash), "%s", sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	if (!hash[0])
		return 0;
	return builds_key_for_hash(bs, hash, key) ? -1 : 1;
}

/*
 * The config hashes of the hosts that may run @bs's experiment: the
 * pinned host, else every host of its label and backend that runs tests;
 * when there is none, the builders of the label (a label no runner
 * tests on, e.g. a LAVA-bound one). Calls @fn for each distinct hash.
 */
static int runner_hashes(sqlite3 *db, const struct build_spec *bs,
			 int (*fn)(void *, const char *), void *arg)
{
	static const char sql[] =
		"SELECT DISTINCT hc.hash FROM host_configs hc JOIN hosts h ON"
		" h.id = hc.host_id, experiments e WHERE e.id = ?1 AND hc.name = ?2"
		" AND (CASE WHEN e.host_id IS NOT NULL THEN h.id = e.host_id ELSE"
		" (e.label IS NULL OR e.label IN (SELECT label FROM host_labels"
		" WHERE host_id = h.id)) AND (?3 = 1) = (h.role = 'builder') AND"
		" (?3 = 1 OR e.backend IS NULL OR e.backend = h.backend) END)";
	int rc = 0, found = 0;

	for (int builders = 0; builders < 2 && !found && !rc; builders++) {
		sqlite3_stmt *st = db_prepare(db, sql);

		if (!st)
			return -1;
		sqlite3_bind_int64(st, 1, bs->experiment);
		sqlite3_bind_text(st, 2, bs->config, -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 3, builders);
		while (!rc && sqlite3_step(st) == SQLITE_ROW) {
			found = 1;
			rc = fn(arg, (const char *)sqlite3_column_text(st, 0));
		}
		sqlite3_finalize(st);
	}
	return rc;
}

/* ---- what is stored, built, needed ------------------------------------- */

bool builds_image_stored(sqlite3 *db, const char *key)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT 1 FROM images WHERE key = ?");
	bool yes = false;

	if (st) {
		sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
		yes = sqlite3_step(st) == SQLITE_ROW;
		sqlite3_finalize(st);
	}
	return yes;
}

int builds_touch(sqlite3 *db, const char *key, time_t now)
{
	sqlite3_stmt *st = db_prepare(db, "UPDATE images SET last_used_at = ?"
				      " WHERE key = ?");
	int rc;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, (int64_t)now);
	sqlite3_bind_text(st, 2, key, -1, SQLITE_STATIC);
	rc = sqlite3_step(st) == SQLITE_DONE ? 1 : -1;
	sqlite3_finalize(st);
	return rc;
}

/* The host building @key now (0: none), its build in *id, its name. */
int64_t builds_builder_of(sqlite3 *db, const char *key, time_t now,
			  int64_t *id, char name[64])
{
	sqlite3_stmt *st = db_prepare(db,
		"SELECT b.id, b.host_id, coalesce(h.name, '') FROM image_builds b"
		" LEFT JOIN jobs j ON j.id = b.job_id LEFT JOIN hosts h ON"
		" h.id = b.host_id WHERE b.key = ?1 AND b.state = 'building' AND"
		" CASE WHEN b.job_id IS NULL THEN b.lease_expires >= ?2 ELSE"
		" j.state IN ('claimed', 'running') AND j.lease_token ="
		" b.lease_token END ORDER BY b.id DESC LIMIT 1");
	int64_t host = 0;

	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, (int64_t)now);
	if (sqlite3_step(st) == SQLITE_ROW) {
		if (id)
			*id = sqlite3_column_int64(st, 0);
		host = sqlite3_column_int64(st, 1);
		if (name)
			snprintf(name, 64, "%s", sqlite3_column_text(st, 2));
	}
	sqlite3_finalize(st);
	return host;
}

/* Why @key can never build (a reason that is not retryable: patch_apply,
 * build; common/failure_reasons.c), or NULL; *log its log. */
char *builds_final_failure(sqlite3 *db, const char *key, char **log)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT failure_reason,"
				      " coalesce(failure_log, '') FROM image_builds"
				      " WHERE key = ? AND state = 'failed' AND"
				      " failure_reason IS NOT NULL ORDER BY id DESC");
	const struct failure_reason *r;
	char *why = NULL;

	*log = NULL;
	if (!st)
		return NULL;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	while (sqlite3_step(st) == SQLITE_ROW) {
		r = failure_reason_find((const char *)sqlite3_column_text(st, 0));
		if (!r || r->retryable)
			continue;
		why = strdup(r->name);
		*log = strdup((const char *)sqlite3_column_text(st, 1));
		break;
	}
	sqlite3_finalize(st);
	return why;
}

/* Does a host that may run @bs's experiment build it as @key? */
struct match_arg {
	const struct build_spec *bs;
	const char *key;
	bool found;
};

static int match_hash(void *arg, const char *hash)
{
	struct match_arg *m = arg;
	char k[65];

	if (!builds_key_for_hash(m->bs, hash, k) && !strcmp(k, m->key))
		m->found = true;
	return m->found;
}

bool builds_runners_need(sqlite3 *db, const struct build_spec *bs,
			 const char *key)
{
	struct match_arg m = { bs, key, false };

	runner_hashes(db, bs, match_hash, &m);
	return m.found;
}

/* Variants of unfinished experiments (at most @max; free the array). */
int64_t *builds_unfinished_variants(sqlite3 *db, bool queued_only, int max,
				    int *n)
{
	sqlite3_stmt *st = db_prepare(db, queued_only ?
		"SELECT v.id FROM variants v JOIN experiments e ON e.id ="
		" v.experiment_id WHERE e.state IN ('queued', 'running') AND"
		" v.state = 'active' AND EXISTS (SELECT 1 FROM jobs j WHERE"
		" j.variant_id = v.id AND j.state = 'queued') ORDER BY e.id, v.idx"
		" LIMIT ?" :
		"SELECT v.id FROM variants v JOIN experiments e ON e.id ="
		" v.experiment_id WHERE e.state IN ('queued', 'running') AND"
		" v.state = 'active' ORDER BY e.id, v.idx LIMIT ?");
	int64_t *ids = NULL;
	int cap = 0;

	*n = 0;
	if (!st)
		return NULL;
	sqlite3_bind_int(st, 1, max);
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (*n == cap) {
			int64_t *p = realloc(ids, (cap = cap ? 2 * cap : 64) *
					     sizeof(*ids));

			if (!p)
				break;
			ids = p;
		}
		ids[(*n)++] = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	if (!ids)
		ids = calloc(1, sizeof(*ids));
	return ids;
}

struct keyset {
	char (*k)[65];
	size_t n, cap;
	const struct build_spec *bs;
};

static int add_key(void *arg, const char *hash)
{
	struct keyset *ks = arg;

	if (ks->n == ks->cap) {
		void *p = realloc(ks->k, (ks->cap = ks->cap ? 2 * ks->cap : 64) * 65);

		if (!p)
			return -1;
		ks->k = p;
	}
	return builds_key_for_hash(ks->bs, hash, ks->k[ks->n++]);
}

static int cmp_key(const void *a, const void *b)
{
	return strcmp(a, b);
}

int builds_needed_keys(sqlite3 *db, char (**keys)[65], size_t *n)
{
	struct keyset ks = { 0 };
	struct build_spec bs;
	int nv, rc = 0;
	int64_t *v = builds_unfinished_variants(db, false, 100000, &nv);

	if (!v)
		return -1;
	for (int i = 0; i < nv && !rc; i++) {
		if (builds_spec_of_variant(db, v[i], &bs))
			continue;
		ks.bs = &bs;
		rc = runner_hashes(db, &bs, add_key, &ks);
	}
	free(v);
	if (ks.n)
		qsort(ks.k, ks.n, 65, cmp_key);
	*keys = ks.k;
	*n = ks.n;
	return rc ? -1 : 0;
}

int builds_key_needed(sqlite3 *db, const char *key)
{
	char (*keys)[65] = NULL;
	size_t n = 0;
	int yes;

	if (builds_needed_keys(db, &keys, &n))
		return -1;
	yes = n && bsearch(key, keys, n, 65, cmp_key) != NULL;
	free(keys);
	return yes;
}

/* ---- uploads ------------------------------------------------------------ */

int builds_check_upload(sqlite3 *w, const char *key, int64_t host, bool admin,
			time_t now, char *err, size_t errlen)
{
	char name[64] = "";
	int64_t who = builds_builder_of(w, key, now, NULL, name);

	if (who < 0)
		return refuse(err, errlen, -1, "database: %s", sqlite3_errmsg(w));
	if (who && who == host)
		return 0;
	if (who)
		return refuse(err, errlen, 409, "image %s is being built by host"
				" '%s'", key, name);
	if (admin)
		return 0;
	return refuse(err, errlen, 409, "this host was not asked to build image %s"
			" (a claim or build task with image.state \"build\")",
			key);
}

int builds_mark_uploaded(sqlite3 *w, const char *key, int64_t host, time_t now)
{
	sqlite3_stmt *st = db_prepare(w, "UPDATE image_builds SET state = 'done',"
				      " finished_at = ? WHERE key = ? AND state ="
				      " 'building'");
	int rc;

	(void)host;
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, (int64_t)now);
	sqlite3_bind_text(st, 2, key, -1, SQLITE_STATIC);
	rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
	sqlite3_finalize(st);
	return rc;
}
