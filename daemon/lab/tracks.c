// SPDX-License-Identifier: MIT
/*
 * Tracks: creation and polling (new commits become experiments); see
 * tracks.h. Points, detection and JSON are in track_points.c.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "daemon/analysis/changepoint.h"
#include "daemon/lab/bases.h"
#include "daemon/lab/fetcher.h"
#include "daemon/lab/gitmirror.h"
#include "daemon/lab/planner.h"
#include "daemon/lab/tracks.h"
#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "daemon/store/writer.h"

/* At most this many commits are queued by one poll (the newest ones). */
#define TRACK_MAX_QUEUE 200
/* Tracks with a background poll in flight at once. */
#define TRACK_MAX_BUSY 256

struct track {
	int64_t id;
	char label[65], ref[257], host_label[65], backend[65];
	char last[41];
	char *bench;
	int runs, every_commits, every_seconds;
	int64_t next_run_at;
	struct base_ref base;
};

static void col(char *dst, size_t len, sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	snprintf(dst, len, "%s", t ? (const char *)t : "");
}

/* Track @id into @t (free t->bench): 0, or -1 LAB_NOT_FOUND. */
static int track_load(sqlite3 *db, int64_t id, struct track *t,
		      struct lab_err *e)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT label, ref, coalesce(host_label, ''),"
				      " coalesce(backend, ''), coalesce(last_commit, ''),"
				      " bench, runs, every_commits, every_seconds,"
				      " coalesce(next_run_at, 0), base_id FROM tracks"
				      " WHERE id = ?");
	int64_t base = 0;
	int rc;

	memset(t, 0, sizeof(*t));
	t->id = id;
	if (!st)
		return lab_fail_db(e, db);
	rc = lab_fail(e, LAB_NOT_FOUND, "no such track");
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) == SQLITE_ROW) {
		col(t->label, sizeof(t->label), st, 0);
		col(t->ref, sizeof(t->ref), st, 1);
		col(t->host_label, sizeof(t->host_label), st, 2);
		col(t->backend, sizeof(t->backend), st, 3);
		col(t->last, sizeof(t->last), st, 4);
		t->bench = strdup((const char *)sqlite3_column_text(st, 5));
		t->runs = sqlite3_column_int(st, 6);
		t->every_commits = sqlite3_column_int(st, 7);
		t->every_seconds = sqlite3_column_int(st, 8);
		t->next_run_at = sqlite3_column_int64(st, 9);
		base = sqlite3_column_int64(st, 10);
		rc = t->bench ? 0 : lab_fail(e, LAB_INTERNAL, "out of memory");
	}
	sqlite3_finalize(st);
	if (!rc)
		rc = bases_by_id(db, base, &t->base, e);
	return rc;
}

/* The commits to queue out of the new ones @c[0..n) (oldest first). */
static size_t choose(const struct track *t, char (*c)[41], size_t n,
		     char (*out)[41])
{
	size_t k = 0, i;

	if (t->every_seconds > 0 || !t->last[0]) {
		/* A schedule, or a new track: the newest head only. */
		memcpy(out[0], c[n - 1], 41);
		return 1;
	}
	for (i = 0; i < n; i++)
		if ((i + 1) % (size_t)(t->every_commits > 0 ? t->every_commits : 1) == 0)
			memcpy(out[k++], c[i], 41);
	if (k > TRACK_MAX_QUEUE) {
		memmove(out, out + k - TRACK_MAX_QUEUE, TRACK_MAX_QUEUE * sizeof(*out));
		k = TRACK_MAX_QUEUE;
	}
	return k;
}

/* One experiment at @sha and its track point; inside a transaction. */
static int queue_commit(sqlite3 *db, const struct track *t, const char *sha,
			const struct gitmirror_commit *ci)
{
	struct variant_spec v = { .name = "commit", .is_control = true };
	struct experiment_spec e = {
		.kind = "explicit", .base_id = t->base.id, .base_commit = sha,
		.label = t->host_label[0] ? t->host_label : NULL,
		.backend = t->backend[0] ? t->backend : NULL,
		.bench_json = t->bench, .runs = t->runs, .max_runs = t->runs,
		.variants = &v, .nvariants = 1,
	};
	const struct gitmirror_commit c = *ci;
	char title[256];
	sqlite3_stmt *st;
	int64_t exp;
	int ok;

	/* Measured already (the ref went back and forth): no second point. */
	st = db_prepare(db, "SELECT 1 FROM track_points WHERE track_id = ? AND"
			" commit_sha = ?");
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, t->id);
	sqlite3_bind_text(st, 2, sha, -1, SQLITE_STATIC);
	ok = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	if (ok)
		return 0;
	snprintf(title, sizeof(title), "track %s: %.12s %.120s", t->label, sha,
		 c.subject);
	e.title = title;
	exp = planner_create(db, &e, NULL);
	if (exp < 0)
		return -1;
	st = db_prepare(db, "INSERT INTO track_points (track_id, commit_sha, subject,"
			" author, committed_at, experiment_id, created_at)"
			" VALUES (?,?,?,?,?,?,?)");
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, t->id);
	sqlite3_bind_text(st, 2, sha, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, c.subject, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, c.author, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, c.time ? c.time : (int64_t)time(NULL));
	sqlite3_bind_int64(st, 6, exp);
	sqlite3_bind_int64(st, 7, (int64_t)time(NULL));
	ok = sqlite3_step(st) == SQLITE_DONE;
	sqlite3_finalize(st);
	return ok ? 0 : -1;
}

static int note_poll(sqlite3 *db, const struct track *t, const char *head,
		     const char *last, const char *error, time_t now)
{
	sqlite3_stmt *st = db_prepare(db, "UPDATE tracks SET polled_at = ?,"
				      " head = coalesce(NULLIF(?, ''), head),"
				      " last_commit = coalesce(NULLIF(?, ''), last_commit),"
				      " poll_error = ?, next_run_at = CASE WHEN"
				      " every_seconds > 0 AND NULLIF(?, '') IS NOT NULL"
				      " THEN ? + every_seconds ELSE next_run_at END"
				      " WHERE id = ?");
	int ok;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, (int64_t)now);
	sqlite3_bind_text(st, 2, head ? head : "", -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, last ? last : "", -1, SQLITE_STATIC);
	if (error)
		sqlite3_bind_text(st, 4, error, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, last ? last : "", -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 6, (int64_t)now);
	sqlite3_bind_int64(st, 7, t->id);
	ok = sqlite3_step(st) == SQLITE_DONE;
	sqlite3_finalize(st);
	return ok ? 0 : -1;
}

/* note_poll from a pool connection: the one write under the lock. */
static int note_poll_now(sqlite3 *db, const struct track *t, const char *head,
			 const char *last, const char *error, time_t now)
{
	sqlite3 *w = db_write_lock(db);
	int rc = note_poll(w, t, head, last, error, now);

	db_write_unlock(db, w);
	return rc;
}

/* The new first-parent commits up to @head (a force push: just @head). */
static int new_commits(const struct track *t, const char *head,
		       char (**c)[41], size_t *n)
{
	struct lab_err e;

	*c = NULL;
	*n = 0;
	if (!strcmp(t->last, head))
		return 0;
	if (t->last[0]) {
		if (!gitmirror_first_parent(t->base.mirror, t->last, head, c, n,
					    &e))
			return 0;
		/* Not a descendant of the last commit: a force push. */
		if (e.st != LAB_REJECTED)
			return -1;
	}
	*c = malloc(sizeof(**c));
	if (!*c)
		return -1;
	memcpy((*c)[0], head, 41);
	*n = 1;
	return 0;
}

static int queue_new(sqlite3 *db, struct track *t, const char *head,
		     time_t now, int *queued)
{
	char (*c)[41] = NULL, (*pick)[41] = NULL;
	struct gitmirror_commit *info = NULL;
	size_t n = 0, k = 0, i;
	sqlite3 *w;
	int ret = -1;

	*queued = 0;
	if (t->every_seconds > 0 && now < t->next_run_at)
		return note_poll_now(db, t, head, NULL, NULL, now);
	if (new_commits(t, head, &c, &n))
		goto out;
	pick = calloc(n ? n : 1, sizeof(*pick));
	if (!pick)
		goto out;
	k = n ? choose(t, c, n, pick) : 0;
	/* git before the write lock: subjects and authors of the picks. */
	info = calloc(k ? k : 1, sizeof(*info));
	if (!info)
		goto out;
	for (i = 0; i < k; i++)
		if (gitmirror_commit_info(t->base.mirror, pick[i], &info[i]))
			memset(&info[i], 0, sizeof(info[i]));
	w = db_write_lock(db);
	if (db_begin(w)) {
		db_write_unlock(db, w);
		goto out;
	}
	for (i = 0; i < k; i++)
		if (queue_commit(w, t, pick[i], &info[i]))
			break;
	if (i < k || note_poll(w, t, head, k ? pick[k - 1] : NULL, NULL, now) ||
	    db_commit(w)) {
		db_rollback(w);
		db_write_unlock(db, w);
		goto out;
	}
	db_write_unlock(db, w);
	*queued = (int)k;
	ret = 0;
out:
	free(info);
	free(c);
	free(pick);
	return ret;
}

/* After the fetch: the ref's head and the new commits. 0, or -1:
 * LAB_UPSTREAM (also the track's poll_error), LAB_INTERNAL. */
static int poll_mirror(sqlite3 *db, struct track *t, time_t now, int *queued,
		       struct lab_err *e)
{
	char head[41];

	*queued = 0;
	if (gitmirror_resolve(t->base.mirror, t->ref, head, e)) {
		e->st = LAB_UPSTREAM;
		note_poll_now(db, t, NULL, NULL, e->msg, now);
		return -1;
	}
	if (queue_new(db, t, head, now, queued))
		return lab_fail(e, LAB_INTERNAL, "cannot queue the track's"
				" commits: %s", db_errmsg(db));
	return 0;
}

/* ---- polls in the background (the "tracks" worker) -------------------- */

static struct {
	pthread_mutex_t lock;
	struct worker *w;
	struct db_pool *pool;
	int64_t busy[TRACK_MAX_BUSY];	/* tracks with a poll in flight */
	int nbusy;
} P = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* Mark track @id in flight; 0 when it was not, -1 (already, or full). */
static int busy_take(int64_t id)
{
	int rc = -1;

	pthread_mutex_lock(&P.lock);
	for (int i = 0; i < P.nbusy; i++)
		if (P.busy[i] == id)
			goto out;
	if (P.nbusy < TRACK_MAX_BUSY) {
		P.busy[P.nbusy++] = id;
		rc = 0;
	}
out:
	pthread_mutex_unlock(&P.lock);
	return rc;
}

static void busy_put(int64_t id)
{
	pthread_mutex_lock(&P.lock);
	for (int i = 0; i < P.nbusy; i++)
		if (P.busy[i] == id) {
			P.busy[i] = P.busy[--P.nbusy];
			break;
		}
	pthread_mutex_unlock(&P.lock);
}

static void (*notify_queued)(void);

void tracks_on_queued(void (*fn)(void))
{
	notify_queued = fn;
}

/* The second half of a poll, after its fetch ended. */
struct poll_work {
	struct work w;
	int64_t id;
	int rc;			/* the fetch's FETCH_* */
	char err[256];
};

static void poll_run(struct work *w)
{
	struct poll_work *pw = (struct poll_work *)w;
	sqlite3 *db = db_pool_get(P.pool);
	struct lab_err e;
	struct track t;
	int q;

	if (!db)
		return;
	if (!track_load(db, pw->id, &t, &e)) {
		if (pw->rc != FETCH_OK)
			note_poll_now(db, &t, NULL, NULL, pw->err, time(NULL));
		else if (!poll_mirror(db, &t, time(NULL), &q, &e) && q &&
			 notify_queued)
			notify_queued();
	}
	free(t.bench);
	db_pool_put(P.pool, db);
}

static void poll_drop(struct work *w)
{
	busy_put(((struct poll_work *)w)->id);
	free(w);
}

/* fetch_done_fn: queue the mirror half of track @arg's poll. */
static void poll_fetched(void *arg, int rc, const char *err)
{
	struct poll_work *pw = arg;

	pw->rc = rc;
	snprintf(pw->err, sizeof(pw->err), "%s", err ? err : "");
	if (rc == FETCH_PENDING || !P.w) {
		poll_drop(&pw->w);	/* stopping */
		return;
	}
	worker_queue(P.w, &pw->w);
}

/*
 * Poll track @t in the background: fetch (@need), then the mirror half on
 * the tracks worker. 0 queued or in flight already, -1.
 */
static int poll_later(struct track *t, enum fetch_need need)
{
	struct poll_work *pw;
	char err[256];
	int rc, retry;

	if (!P.w || busy_take(t->id))
		return P.w ? 0 : -1;
	pw = calloc(1, sizeof(*pw));
	if (!pw) {
		busy_put(t->id);
		return -1;
	}
	pw->w.run = poll_run;
	pw->w.drop = poll_drop;
	pw->id = t->id;
	rc = fetcher_get(t->base.id, t->base.mirror, t->base.url, need, 0,
			 poll_fetched, pw, err, sizeof(err), &retry);
	if (rc != FETCH_PENDING)
		poll_fetched(pw, rc, err);
	return 0;
}

void tracks_use_worker(struct worker *w, struct db_pool *pool)
{
	P.pool = pool;
	P.w = w;
}

/* ---- polls asked for ---------------------------------------------------- */

/* The fetch of "poll now" (one that starts from now, shared with other
 * polls): FETCH_OK, FETCH_PENDING, or FETCH_FAILED with @e set. */
static int fetch_now(const struct base_ref *b, struct lab_err *e)
{
	char why[300];
	int retry, rc = fetcher_get(b->id, b->mirror, b->url, FETCH_NEWER, -1,
				    NULL, NULL, why, sizeof(why), &retry);

	if (rc == FETCH_FAILED)
		lab_fail(e, LAB_UPSTREAM, "git fetch failed: %s", why);
	else if (rc == FETCH_PENDING)
		lab_fail(e, LAB_PENDING, "%s", why);
	return rc;
}

int tracks_poll(sqlite3 *db, int64_t id, time_t now, int *queued,
		struct lab_err *e)
{
	struct lab_err local;
	struct track t;
	int rc;

	*queued = 0;
	if (!e)
		e = &local;
	if (track_load(db, id, &t, e)) {
		free(t.bench);
		return -1;
	}
	rc = fetch_now(&t.base, e);
	if (rc == FETCH_PENDING) {
		rc = poll_later(&t, FETCH_NEWER) ? lab_fail(e, LAB_INTERNAL,
			"out of memory") : 1;
	} else if (rc) {
		note_poll_now(db, &t, NULL, NULL, e->msg, now);
		rc = -1;
	} else {
		rc = poll_mirror(db, &t, now, queued, e);
	}
	free(t.bench);
	return rc;
}

int tracks_poll_base(sqlite3 *db, const char *base, const char *ref,
		     time_t now, int *tracks, int *queued, struct lab_err *e)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT t.id FROM tracks t JOIN bases b"
				      " ON b.id = t.base_id WHERE b.name = ? AND"
				      " (?2 IS NULL OR t.ref = ?2 OR 'refs/heads/' ||"
				      " t.ref = ?2) AND t.enabled ORDER BY t.id");
	struct lab_err fetched;
	int64_t ids[64];
	int n = 0, q, rc = 0, later = 0, f;
	struct track t;

	*tracks = *queued = 0;
	if (!st)
		return lab_fail_db(e, db);
	sqlite3_bind_text(st, 1, base, -1, SQLITE_STATIC);
	if (ref)
		sqlite3_bind_text(st, 2, ref, -1, SQLITE_STATIC);
	while (n < 64 && sqlite3_step(st) == SQLITE_ROW)
		ids[n++] = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (!n)
		return lab_fail(e, LAB_NOT_FOUND, "no track of base '%.64s'%s%.200s",
				base, ref ? " and ref " : "", ref ? ref : "");
	/* One fetch of the base (it was pushed to), then every track. */
	if (track_load(db, ids[0], &t, e)) {
		free(t.bench);
		return -1;
	}
	f = fetch_now(&t.base, &fetched);
	free(t.bench);
	for (int i = 0; i < n && !rc; i++) {
		if (track_load(db, ids[i], &t, e)) {
			rc = -1;
		} else if (f == FETCH_PENDING) {
			rc = poll_later(&t, FETCH_NEWER) ? lab_fail(e,
				LAB_INTERNAL, "out of memory") : 0;
			later++;
		} else if (f) {
			note_poll_now(db, &t, NULL, NULL, fetched.msg, now);
			*e = fetched;
			rc = -1;
		} else if (!poll_mirror(db, &t, now, &q, e)) {
			*queued += q;
		}
		free(t.bench);
		(*tracks)++;
	}
	return rc ? -1 : later ? 1 : 0;
}

void tracks_poll_due(sqlite3 *db, int interval, time_t now)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT id FROM tracks WHERE enabled AND"
				      " (polled_at IS NULL OR polled_at + ?1 <= ?2 OR"
				      " (every_seconds > 0 AND next_run_at <= ?2))"
				      " ORDER BY id LIMIT 64");
	int64_t ids[64];
	struct track t;
	int n = 0;

	if (!st)
		return;
	sqlite3_bind_int(st, 1, interval);
	sqlite3_bind_int64(st, 2, (int64_t)now);
	while (n < 64 && sqlite3_step(st) == SQLITE_ROW)
		ids[n++] = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	/* Each fetch on the git worker; the mirror half comes back here. */
	for (int i = 0; i < n; i++) {
		if (!track_load(db, ids[i], &t, NULL))
			poll_later(&t, FETCH_FRESH);
		free(t.bench);
	}
}

static int insert_track(sqlite3 *db, const struct track_spec *s, int64_t base,
			const char *ref, int64_t *id, struct lab_err *e)
{
	struct cp_opts o;
	sqlite3_stmt *st = db_prepare(db, "INSERT INTO tracks (label, base_id, ref,"
				      " host_label, backend, bench, runs, every_commits,"
				      " every_seconds, cp_min_size, cp_max_p, created_by,"
				      " created_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,"
				      " NULLIF(?, 0),?)");
	int rc;

	if (!st)
		return lab_fail_db(e, db);
	sqlite3_bind_text(st, 1, s->label, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, base);
	sqlite3_bind_text(st, 3, ref, -1, SQLITE_STATIC);
	if (s->host_label)
		sqlite3_bind_text(st, 4, s->host_label, -1, SQLITE_STATIC);
	if (s->backend)
		sqlite3_bind_text(st, 5, s->backend, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, s->bench_json, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 7, s->runs);
	sqlite3_bind_int(st, 8, s->every_commits);
	sqlite3_bind_int(st, 9, s->every_seconds);
	cp_opts_track(&o, s->min_size, s->max_p);
	sqlite3_bind_int(st, 10, o.min_size);
	sqlite3_bind_double(st, 11, o.max_p);
	sqlite3_bind_int64(st, 12, s->key_id);
	sqlite3_bind_int64(st, 13, (int64_t)time(NULL));
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	*id = sqlite3_last_insert_rowid(db);
	if (rc == SQLITE_DONE)
		return 0;
	if (sqlite3_extended_errcode(db) == SQLITE_CONSTRAINT_UNIQUE)
		return lab_fail(e, LAB_CONFLICT, "a track labelled '%s' exists",
				s->label);
	return lab_fail_db(e, db);
}

int tracks_create(sqlite3 *db, const struct track_spec *s, int64_t *id,
		  struct lab_err *e)
{
	struct lab_err poll;
	struct base_ref b;
	struct track t;
	const char *ref;
	char head[41];
	sqlite3 *w;
	int rc, q;

	if (bases_find(db, s->base, &b, e))
		return -1;
	if (!b.git)
		return lab_fail(e, LAB_REJECTED, "base '%s' is not a git base",
				s->base);
	ref = s->ref ? s->ref : b.ref;
	if (gitmirror_check_ref(ref))
		return lab_fail(e, LAB_INVALID, "'ref' is not a usable git ref"
				" name");
	/* The ref's head now (fetcher.h). A base whose upstream fails, or
	 * that has no such ref, cannot be tracked: the request's. */
	if (bases_commit(&b, ref, head, e)) {
		if (e->st == LAB_UPSTREAM)
			e->st = LAB_REJECTED;
		return -1;
	}
	w = db_write_lock(db);
	rc = insert_track(w, s, b.id, ref, id, e);
	db_write_unlock(db, w);
	if (rc)
		return -1;
	/* The first point, from the mirror just fetched; a failure is the
	 * track's poll_error and the timer tries again. */
	rc = track_load(db, *id, &t, &poll);
	if (!rc)
		rc = poll_mirror(db, &t, time(NULL), &q, &poll);
	free(t.bench);
	if (rc && poll.st == LAB_INTERNAL) {
		*e = poll;
		return -1;
	}
	return 0;
}
