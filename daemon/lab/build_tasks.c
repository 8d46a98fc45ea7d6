// SPDX-License-Identifier: MIT
/*
 * Builds (builds.h): the claim gate, build tasks and their leases.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/rand.h>

#include "common/failure_reasons.h"
#include "common/kimage.h"
#include "daemon/lab/build_state.h"
#include "daemon/lab/builds.h"
#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "daemon/store/json.h"

#define TASK_SCAN 200		/* variants a build task claim looks at */

/* ---- the claim --------------------------------------------------------- */

static void wait_message(sqlite3 *db, int64_t job, const char *key)
{
	char msg[96];
	sqlite3_stmt *st;

	snprintf(msg, sizeof(msg), "waiting for image %.12s", key);
	st = db_prepare(db, "UPDATE jobs SET message = ?1 WHERE id = ?2 AND"
			" message IS NOT ?1");
	if (!st)
		return;
	sqlite3_bind_text(st, 1, msg, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, job);
	sqlite3_step(st);
	sqlite3_finalize(st);
}

static int64_t insert_build(sqlite3 *w, const char *key, const struct build_spec *bs,
			int64_t job, int64_t host, const char *lease,
			time_t expires, time_t now)
{
	sqlite3_stmt *st = db_prepare(w, "INSERT INTO image_builds (key,"
				      " experiment_id, variant_id, job_id, host_id,"
				      " lease_token, lease_expires, created_at)"
				      " VALUES (?,?,?,?,?,?,?,?) RETURNING id");
	int64_t id = -1;

	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, bs->experiment);
	sqlite3_bind_int64(st, 3, bs->variant);
	if (job > 0)
		sqlite3_bind_int64(st, 4, job);
	sqlite3_bind_int64(st, 5, host);
	sqlite3_bind_text(st, 6, lease, -1, SQLITE_STATIC);
	if (expires)
		sqlite3_bind_int64(st, 7, (int64_t)expires);
	sqlite3_bind_int64(st, 8, (int64_t)now);
	if (sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return id;
}

/* @host builds @id's key again, now for @job under @lease. */
static int rebind_build(sqlite3 *w, int64_t id, int64_t job, const char *lease)
{
	sqlite3_stmt *st = db_prepare(w, "UPDATE image_builds SET job_id = ?,"
				      " lease_token = ?, lease_expires = NULL"
				      " WHERE id = ?");
	int rc;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, job);
	sqlite3_bind_text(st, 2, lease, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, id);
	rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
	sqlite3_finalize(st);
	return rc;
}

/*
 * A patched build waits while another host builds its base (same base,
 * commit and config, no patches): after it, the shared compiler caches
 * hold the base's objects, so the patched builds are mostly cache hits
 * instead of cold builds side by side.
 */
static bool base_in_progress(sqlite3 *db, const struct build_spec *bs,
			     int64_t host, time_t now)
{
	struct build_spec base = *bs;
	char key[65];
	int64_t who;

	if (!bs->npatches)
		return false;
	base.npatches = 0;
	kimage_patchset_hash(NULL, 0, base.patchset);
	if (builds_key_for_host(db, &base, host, key) != 1 || builds_image_stored(db, key))
		return false;
	who = builds_builder_of(db, key, now, NULL, NULL);
	return who > 0 && who != host;
}

/* jobs_ctx.gate: may @host run @job now, as far as its image goes? */
static int gate(sqlite3 *db, int64_t host, int64_t job, const char *lease,
		time_t now)
{
	struct build_spec bs;
	char role[16], key[65];
	int64_t variant, other, id = 0;
	int rc;

	builds_host_role(db, host, role);
	if (!role[0])
		return 1;
	variant = db_int(db, -1, "SELECT variant_id FROM jobs WHERE id = ?", 1, job);
	if (variant < 0 || builds_spec_of_variant(db, variant, &bs))
		return -1;
	rc = builds_key_for_host(db, &bs, host, key);
	if (rc <= 0)
		return rc < 0 ? -1 : 1;	/* no such config: it builds alone */
	/* Handed out: its age for the collector starts again. */
	if (builds_image_stored(db, key))
		return builds_touch(db, key, now);
	other = builds_builder_of(db, key, now, &id, NULL);
	if (other < 0)
		return -1;
	/* Its own build of an earlier claim: this job's lease carries it. */
	if (other == host)
		return rebind_build(db, id, job, lease) ? -1 : 1;
	if (other || !builds_may_build(role) || base_in_progress(db, &bs, host, now)) {
		wait_message(db, job, key);
		return 0;
	}
	return insert_build(db, key, &bs, job, host, lease, 0, now) < 0 ? -1 : 1;
}

/*
 * Inside a transaction: every unfinished variant whose image, as a host
 * that may run it builds it, is @key fails with @reason. The experiments
 * settled are added to @settled (for jobs_after_settle after commit).
 */
struct settled {
	int64_t exp[64];
	int how[64];
	int n;
};

static int fail_waiting(sqlite3 *w, const char *key, const char *reason,
			const char *log, time_t now, struct settled *done)
{
	struct build_spec bs;
	int nv, rc = 0;
	int64_t *v = builds_unfinished_variants(w, false, 100000, &nv);

	if (!v)
		return -1;
	for (int i = 0; i < nv && !rc; i++) {
		int how;

		if (builds_spec_of_variant(w, v[i], &bs) || !builds_runners_need(w, &bs, key))
			continue;
		how = jobs_fail_variant(w, v[i], reason, log, now);
		if (how < 0)
			rc = -1;
		else if (how > 0 && done->n < 64) {
			done->exp[done->n] = bs.experiment;
			done->how[done->n++] = how;
		}
	}
	free(v);
	return rc;
}

static void after_settle(const struct jobs_ctx *c, const struct settled *done)
{
	for (int i = 0; i < done->n; i++)
		jobs_after_settle(c, done->exp[i], done->how[i]);
}

static int new_lease(char lease[33])
{
	unsigned char rnd[16];

	if (RAND_bytes(rnd, sizeof(rnd)) != 1)
		return -1;
	for (int i = 0; i < 16; i++)
		snprintf(lease + 2 * i, 3, "%02x", rnd[i]);
	return 0;
}

static json_t *task_json(sqlite3 *db, int64_t id, const char *lease,
			 time_t expires, int lease_seconds,
			 const struct build_spec *bs, const char *key)
{
	sqlite3_stmt *st = db_prepare(db,
		"SELECT e.id AS experiment_id, b.name AS \"base.name\","
		" b.kind AS \"base.kind\", b.tree AS \"base.tree\", b.ref AS \"base.ref\","
		" b.url AS \"base.url\", coalesce(v.base_commit, e.base_commit) AS"
		" \"base.commit\", CASE e.config WHEN '' THEN b.config ELSE e.config"
		" END AS config, v.id AS \"variant.id\", v.name AS \"variant.name\""
		" FROM variants v JOIN experiments e ON e.id = v.experiment_id"
		" JOIN bases b ON b.id = e.base_id WHERE v.id = ?");
	json_t *o = NULL, *v;

	if (!st)
		return NULL;
	sqlite3_bind_int64(st, 1, bs->variant);
	if (sqlite3_step(st) == SQLITE_ROW)
		o = json_row(st);
	sqlite3_finalize(st);
	if (!o)
		return NULL;
	jobs_base_shape(json_object_get(o, "base"));
	v = json_object_get(o, "variant");
	json_object_set_new(v, "patches", jobs_variant_patches(db, bs->variant));
	json_object_set_new(o, "kind", json_string("build"));
	json_object_set_new(o, "build_id", json_integer(id));
	json_object_set_new(o, "lease", json_string(lease));
	json_object_set_new(o, "lease_seconds", json_integer(lease_seconds));
	json_object_set_new(o, "lease_expires", json_integer((json_int_t)expires));
	json_object_set_new(o, "trust_domain", json_string(bs->domain));
	json_object_set_new(o, "image", json_pack("{s:s,s:s}", "key", key,
						  "state", "build"));
	return o;
}

/* The oldest key a waiting variant needs that @host builds the same way. */
static int task_claim(sqlite3 *w, const struct jobs_ctx *c, int64_t host,
		      time_t now, json_t **task)
{
	struct settled done = { .n = 0 };
	struct build_spec bs;
	char key[65], lease[33], *why, *log;
	int64_t *v, id = 0;
	int nv, rc = 0;

	if (new_lease(lease) || db_begin(w))
		return -1;
	db_int(w, 0, "UPDATE hosts SET last_seen = ? WHERE id = ? RETURNING id",
	       2, (int64_t)now, host);
	v = builds_unfinished_variants(w, true, TASK_SCAN, &nv);
	if (!v)
		goto fail;
	for (int i = 0; i < nv && !id; i++) {
		if (builds_spec_of_variant(w, v[i], &bs) ||
		    builds_key_for_host(w, &bs, host, key) != 1 ||
		    builds_image_stored(w, key) || builds_builder_of(w, key, now, NULL, NULL) ||
		    base_in_progress(w, &bs, host, now) || !builds_runners_need(w, &bs, key))
			continue;
		why = builds_final_failure(w, key, &log);
		if (why) {
			rc = fail_waiting(w, key, why, log, now, &done);
			free(why);
			free(log);
			if (rc)
				break;
			continue;
		}
		id = insert_build(w, key, &bs, 0, host, lease,
				  now + c->lease_seconds, now);
		if (id < 0)
			rc = -1;
	}
	free(v);
	if (rc)
		goto fail;
	if (id > 0) {
		*task = task_json(w, id, lease, now + c->lease_seconds,
				  c->lease_seconds, &bs, key);
		if (!*task)
			goto fail;
	}
	if (db_commit(w)) {
		json_decref(*task);
		*task = NULL;
		return -1;
	}
	after_settle(c, &done);
	return id > 0 ? 2 : 0;
fail:
	db_rollback(w);
	return -1;
}

int builds_claim(sqlite3 *w, const struct jobs_ctx *c, int64_t host, time_t now,
		 struct claim *cl, json_t **task)
{
	struct jobs_ctx gc = *c;
	char role[16];
	int rc;

	*task = NULL;
	builds_host_role(w, host, role);
	gc.gate = gate;
	if (strcmp(role, "builder")) {
		rc = jobs_claim(w, role[0] ? &gc : c, host, now, cl);
		if (rc)
			return rc;
	}
	if (!builds_may_build(role))
		return 0;
	return task_claim(w, c, host, now, task);
}

static json_t *ready_image(sqlite3 *db, const char *key)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT key, 'ready' AS state, sha256,"
				      " size, files AS files_json FROM images"
				      " WHERE key = ?");
	json_t *o = NULL;

	if (!st)
		return NULL;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		o = json_row(st);
	sqlite3_finalize(st);
	return o;
}

int builds_claim_json(sqlite3 *db, int64_t host, const struct claim *cl,
		      json_t *spec)
{
	struct build_spec bs;
	char role[16], key[65];
	int64_t variant;
	json_t *img;
	int rc;

	variant = json_integer_value(json_object_get(json_object_get(spec,
						     "variant"), "id"));
	(void)cl;
	if (builds_spec_of_variant(db, variant, &bs))
		return -1;
	json_object_set_new(spec, "trust_domain", json_string(bs.domain));
	builds_host_role(db, host, role);
	if (!role[0])
		return 0;
	rc = builds_key_for_host(db, &bs, host, key);
	if (rc <= 0)
		return rc;
	img = ready_image(db, key);
	if (!img)
		img = json_pack("{s:s,s:s}", "key", key, "state", "build");
	json_object_set_new(spec, "image", img);
	return 0;
}

/* ---- build tasks ------------------------------------------------------- */

/* The live task @id of @host under @lease: its key, or JOB_* status. */
static int task_check(sqlite3 *w, int64_t id, int64_t host, const char *lease,
		      time_t now, char key[65])
{
	sqlite3_stmt *st = db_prepare(w, "SELECT key, host_id, lease_token,"
				      " lease_expires, state FROM image_builds"
				      " WHERE id = ? AND job_id IS NULL");
	int rc = BUILD_NOT_FOUND;

	if (!st)
		return BUILD_ERROR;
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) == SQLITE_ROW) {
		rc = BUILD_STALE;
		if ((host == 0 || sqlite3_column_int64(st, 1) == host) &&
		    !strcmp((const char *)sqlite3_column_text(st, 2), lease) &&
		    sqlite3_column_int64(st, 3) >= (int64_t)now &&
		    !strcmp((const char *)sqlite3_column_text(st, 4), "building")) {
			snprintf(key, 65, "%s", sqlite3_column_text(st, 0));
			rc = BUILD_OK;
		}
	}
	sqlite3_finalize(st);
	return rc;
}

int builds_task_heartbeat(sqlite3 *w, const struct jobs_ctx *c, int64_t id,
			  int64_t host, const char *lease, time_t now,
			  time_t *expires)
{
	char key[65];
	int rc;

	if (db_begin(w))
		return BUILD_ERROR;
	rc = task_check(w, id, host, lease, now, key);
	if (rc == BUILD_OK &&
	    db_int(w, -1, "UPDATE image_builds SET lease_expires = ? WHERE id = ?"
		   " RETURNING 0", 2, (int64_t)(now + c->lease_seconds), id) != 0)
		rc = BUILD_ERROR;
	if (rc == BUILD_OK)
		db_int(w, 0, "UPDATE hosts SET last_seen = ? WHERE id = (SELECT"
		       " host_id FROM image_builds WHERE id = ?) RETURNING id", 2,
		       (int64_t)now, id);
	if (rc != BUILD_OK || db_commit(w)) {
		db_rollback(w);
		return rc == BUILD_OK ? BUILD_ERROR : rc;
	}
	*expires = now + c->lease_seconds;
	return BUILD_OK;
}

/* Lost or internal failures of @key in the last day. */
static int64_t attempts_lost(sqlite3 *w, const char *key, time_t now)
{
	sqlite3_stmt *st = db_prepare(w, "SELECT count(*) FROM image_builds WHERE"
				      " key = ? AND created_at > ? AND (state ="
				      " 'lost' OR (state = 'failed' AND"
				      " failure_reason = 'internal'))");
	int64_t n = 0;

	if (!st)
		return 0;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, (int64_t)now - 86400);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

static int end_task(sqlite3 *w, int64_t id, const char *state,
		    const char *reason, const char *log, time_t now)
{
	sqlite3_stmt *st = db_prepare(w, "UPDATE image_builds SET state = ?,"
				      " failure_reason = ?, failure_log = ?,"
				      " finished_at = ? WHERE id = ?");
	int rc;

	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, state, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, reason, -1, SQLITE_STATIC);
	if (log)
		sqlite3_bind_text(st, 3, log, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, (int64_t)now);
	sqlite3_bind_int64(st, 5, id);
	rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
	sqlite3_finalize(st);
	return rc;
}

/* After a lost or failed attempt: fail the waiting variants when final. */
static int after_attempt(sqlite3 *w, const struct jobs_ctx *c, const char *key,
			 const char *reason, const char *log, time_t now,
			 struct settled *done)
{
	const struct failure_reason *r = failure_reason_find(reason);
	char why[128];

	/* "lost": the lease expired, retried like a retryable reason. */
	if (r && !r->retryable)
		return fail_waiting(w, key, reason, log, now, done);
	if (attempts_lost(w, key, now) < c->max_attempts)
		return 0;
	snprintf(why, sizeof(why), "building image %.12s failed %d times"
		 " (internal or lease lost)", key, c->max_attempts);
	return fail_waiting(w, key, "internal", log ? log : why, now, done);
}

int builds_task_fail(sqlite3 *w, const struct jobs_ctx *c, int64_t id,
		     int64_t host, const char *lease, const char *reason,
		     const char *log, time_t now)
{
	struct settled done = { .n = 0 };
	char key[65];
	int rc;

	if (!failure_reason_for(reason, FAILURE_BY_BUILDER))
		return BUILD_ERROR;
	if (db_begin(w))
		return BUILD_ERROR;
	rc = task_check(w, id, host, lease, now, key);
	if (rc == BUILD_OK && (end_task(w, id, "failed", reason, log, now) ||
			     after_attempt(w, c, key, reason, log, now, &done)))
		rc = BUILD_ERROR;
	if (rc != BUILD_OK || db_commit(w)) {
		db_rollback(w);
		return rc == BUILD_OK ? BUILD_ERROR : rc;
	}
	after_settle(c, &done);
	return BUILD_OK;
}

int builds_expire(sqlite3 *w, const struct jobs_ctx *c, time_t now)
{
	struct settled done = { .n = 0 };
	char key[65];
	int64_t id;
	int n = 0;

	while ((id = db_int(w, 0, "SELECT id FROM image_builds WHERE state ="
			    " 'building' AND job_id IS NULL AND lease_expires < ?"
			    " LIMIT 1", 1, (int64_t)now)) > 0) {
		sqlite3_stmt *st;

		if (db_begin(w))
			break;
		st = db_prepare(w, "SELECT key FROM image_builds WHERE id = ?");
		key[0] = '\0';
		if (st) {
			sqlite3_bind_int64(st, 1, id);
			if (sqlite3_step(st) == SQLITE_ROW)
				snprintf(key, sizeof(key), "%s",
					 sqlite3_column_text(st, 0));
			sqlite3_finalize(st);
		}
		if (!key[0] || end_task(w, id, "lost", "lease expired", NULL, now) ||
		    after_attempt(w, c, key, "lost", NULL, now, &done) ||
		    db_commit(w)) {
			db_rollback(w);
			break;
		}
		n++;
	}
	after_settle(c, &done);
	return n;
}

