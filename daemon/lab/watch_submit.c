// SPDX-License-Identifier: MIT
/*
 * Complete series to experiments; see watch_submit.h.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/lab/bases.h"
#include "daemon/lab/experiments.h"
#include "daemon/lab/gitmirror.h"
#include "daemon/lab/patches.h"
#include "daemon/lab/roles.h"
#include "daemon/lab/trust.h"
#include "daemon/lab/watch_submit.h"
#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "daemon/store/writer.h"

#define MBOX_SEP "From mboxrd@z Thu Jan  1 00:00:00 1970\n"

struct series_row {
	int64_t id, base_id, key_id;
	int version;
	char subject[256], base_commit[41], ref[257], label[65], backend[33],
		key_name[65];
	int runs;
};

/* The series' patches 1..n as one mbox (malloc'd, *@len). */
static char *series_mbox(sqlite3 *db, int64_t sid, size_t *len)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT raw FROM watch_messages WHERE"
				      " series_id = ? AND kind = 'patch' ORDER BY idx");
	char *buf = NULL;
	size_t n = 0;

	if (!st)
		return NULL;
	sqlite3_bind_int64(st, 1, sid);
	while (sqlite3_step(st) == SQLITE_ROW) {
		size_t rl = (size_t)sqlite3_column_bytes(st, 0);
		char *nb = realloc(buf, n + sizeof(MBOX_SEP) + rl + 2);

		if (!nb) {
			free(buf);
			buf = NULL;
			break;
		}
		buf = nb;
		memcpy(buf + n, MBOX_SEP, sizeof(MBOX_SEP) - 1);
		n += sizeof(MBOX_SEP) - 1;
		memcpy(buf + n, sqlite3_column_blob(st, 0), rl);
		n += rl;
		buf[n++] = '\n';
		buf[n] = '\0';
	}
	sqlite3_finalize(st);
	*len = n;
	return buf;
}

static int load_complete(sqlite3 *db, int64_t watch, struct series_row *r,
			 int max)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT s.id, w.base_id, w.key_id,"
		" s.version, s.subject, s.base_commit, coalesce(w.ref, b.ref),"
		" w.label, w.backend, k.name, w.runs FROM watch_series s JOIN"
		" watches w ON w.id = s.watch_id JOIN bases b ON b.id = w.base_id"
		" JOIN api_keys k ON k.id = w.key_id WHERE s.watch_id = ? AND"
		" s.state = 'complete' AND (s.reason IS NULL OR s.updated_at <"
		" CAST(strftime('%s') AS INTEGER) - 60) ORDER BY s.id LIMIT ?");
	int n = 0;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, watch);
	sqlite3_bind_int(st, 2, max);
	while (n < max && sqlite3_step(st) == SQLITE_ROW) {
		struct series_row *s = &r[n++];

		s->id = sqlite3_column_int64(st, 0);
		s->base_id = sqlite3_column_int64(st, 1);
		s->key_id = sqlite3_column_int64(st, 2);
		s->version = sqlite3_column_int(st, 3);
		db_col_copy(st, 4, s->subject, sizeof(s->subject));
		db_col_copy(st, 5, s->base_commit, sizeof(s->base_commit));
		db_col_copy(st, 6, s->ref, sizeof(s->ref));
		db_col_copy(st, 7, s->label, sizeof(s->label));
		db_col_copy(st, 8, s->backend, sizeof(s->backend));
		db_col_copy(st, 9, s->key_name, sizeof(s->key_name));
		s->runs = sqlite3_column_int(st, 10);
	}
	sqlite3_finalize(st);
	return n;
}

/* The commit to test on: the series' base-commit when the ref's head
 * has it in its history, else the head. 0, or -1 with @e. */
static int pick_base(const struct base_ref *b, const struct series_row *s,
		     char sha[41], const char **how, struct lab_err *e)
{
	char head[41], bc[41];
	struct lab_err ignore;

	if (bases_commit(b, s->ref[0] ? s->ref : "HEAD", head, e))
		return -1;
	*how = "ref-head";
	memcpy(sha, head, 41);
	if (s->base_commit[0] && !bases_commit(b, s->base_commit, bc, &ignore) &&
	    gitmirror_is_ancestor(b->mirror, bc, head) == 1) {
		memcpy(sha, bc, 41);
		*how = "base-commit";
	}
	return 0;
}

/* `git apply --check` of @mbox on @sha, in a scratch index of the mirror. */
static int apply_check(const struct base_ref *b, const char *sha,
		       const char *mbox, size_t len, struct lab_err *e)
{
	char dir[PATH_MAX], file[PATH_MAX + 32], idx[PATH_MAX + 32],
		gdir[sizeof(b->mirror) + 16], why[512];
	const char *env[] = { gdir, idx, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=/dev/null", "HOME=/nonexistent", "LC_ALL=C", NULL };
	FILE *f;
	int rc = -1;

	snprintf(dir, sizeof(dir), "%s/watch-apply-XXXXXX", gitmirror_dir());
	if (!mkdtemp(dir))
		return lab_fail(e, LAB_INTERNAL, "no scratch directory for git apply");
	snprintf(file, sizeof(file), "%s/series.mbox", dir);
	snprintf(idx, sizeof(idx), "GIT_INDEX_FILE=%s/index", dir);
	snprintf(gdir, sizeof(gdir), "GIT_DIR=%s", b->mirror);
	f = fopen(file, "w");
	if (!f || fwrite(mbox, 1, len, f) != len || fclose(f)) {
		lab_fail(e, LAB_INTERNAL, "cannot write the series for git apply");
		goto out;
	}
	rc = gitmirror_run_env((const char *const[]){ "git", "read-tree", sha,
		NULL }, env, NULL, 0, NULL, NULL, 0, 120, why, sizeof(why));
	if (rc)
		lab_fail(e, LAB_UPSTREAM, "git read-tree %.12s: %s", sha, why);
	else if ((rc = gitmirror_run_env((const char *const[]){ "git", "apply",
			"--cached", "--check", "--", file, NULL }, env, NULL, 0,
			NULL, NULL, 0, 120, why, sizeof(why))))
		lab_fail(e, LAB_REJECTED, "does not apply on %.12s: %s", sha, why);
out:
	unlink(file);
	snprintf(file, sizeof(file), "%s/index", dir);
	unlink(file);
	rmdir(dir);
	return rc ? -1 : 0;
}

static void store_outcome(sqlite3 *db, int64_t sid, const char *state,
			  const char *reason, int64_t exp, const char *base_used,
			  const char *how)
{
	sqlite3 *w = db_write_lock(db);
	sqlite3_stmt *st = db_prepare(w, "UPDATE watch_series SET state = ?2,"
		" reason = ?3, experiment_id = nullif(?4, 0), base_used = ?5,"
		" base_how = ?6, updated_at = strftime('%s') WHERE id = ?1 AND"
		" state = 'complete'");

	if (st) {
		sqlite3_bind_int64(st, 1, sid);
		sqlite3_bind_text(st, 2, state, -1, SQLITE_STATIC);
		if (reason)
			sqlite3_bind_text(st, 3, reason, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(st, 4, exp);
		if (base_used)
			sqlite3_bind_text(st, 5, base_used, -1, SQLITE_TRANSIENT);
		if (how)
			sqlite3_bind_text(st, 6, how, -1, SQLITE_STATIC);
		sqlite3_step(st);
		sqlite3_finalize(st);
	}
	db_write_unlock(db, w);
}

/* One series: 1 queued, 0 refused or left for later. */
static int submit_one(sqlite3 *db, const struct series_row *s, int max_queued)
{
	struct trust_who who = { ROLE_SUBMIT, s->key_id, s->key_name, max_queued };
	char sha[41], spec[128], title[300], *mbox;
	int64_t ids[EXP_MAX_SERIES], exp;
	const char *how = NULL;
	struct patch_req r = { 0 };
	struct patch_series ps;
	struct base_ref b;
	struct lab_err e = { 0 };
	size_t len = 0;
	int n;

	if (bases_by_id(db, s->base_id, &b, &e) || pick_base(&b, s, sha, &how, &e))
		goto refused;
	snprintf(spec, sizeof(spec), "%s@%s", b.name, sha);
	mbox = series_mbox(db, s->id, &len);
	if (!mbox)
		return 0;
	/* The lab's own checks (paths inside the tree, no binary) before
	 * git reads it; experiments_submit_patch checks again. */
	if (patches_prepare(mbox, len, EXP_MAX_SERIES, &ps, NULL, 0, &e) == 0)
		patch_series_free(&ps);
	else
		lab_prefix(&e, "not a usable patch");
	if (e.st != LAB_OK || apply_check(&b, sha, mbox, len, &e)) {
		free(mbox);
		goto refused;
	}
	if (s->version > 1)
		snprintf(title, sizeof(title), "v%d: %.240s", s->version, s->subject);
	else
		snprintf(title, sizeof(title), "%.240s", s->subject);
	r = (struct patch_req){ .text = mbox, .len = len, .title = title,
		.base = spec, .label = s->label[0] ? s->label : NULL,
		.backend = s->backend[0] ? s->backend : NULL, .runs = s->runs,
		.prefixes = true };
	exp = experiments_submit_patch(db, &who, &r, ids, &n, &e);
	free(mbox);
	if (exp < 0)
		goto refused;
	store_outcome(db, s->id, "queued", NULL, exp, spec, how);
	return 1;
refused:
	/* Later, not never: the quota frees up, the fetch ends. */
	if (e.st == LAB_QUOTA || e.st == LAB_PENDING || e.st == LAB_UNAVAILABLE) {
		store_outcome(db, s->id, "complete", e.msg, 0, NULL, NULL);
		return 0;
	}
	store_outcome(db, s->id, e.st == LAB_UPSTREAM ? "failed" : "refused",
		      e.msg, 0, how ? spec : NULL, how);
	return 0;
}

int watch_submit_complete(store_conn *db, int64_t watch, int max,
			  int max_queued)
{
	struct series_row rows[16];
	int n, q = 0;

	if (max > 16)
		max = 16;
	n = load_complete(db, watch, rows, max);
	for (int i = 0; i < n; i++)
		q += submit_one(db, &rows[i], max_queued);
	return n < 0 ? -1 : q;
}
