// SPDX-License-Identifier: MIT
/*
 * Backup, check and restore of a database file; see backup.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "daemon/store/backup.h"
#include "daemon/store/db.h"
#include "daemon/store/sql.h"

#define DEFAULT_STEP 256

/*
 * An existing database, never created (a mistyped path must not become
 * an empty database), and only read: query_only makes SQLite refuse any
 * write on it.
 */
static sqlite3 *open_existing(const char *path, char *err, size_t len)
{
	sqlite3 *db = NULL;

	if (access(path, F_OK)) {
		snprintf(err, len, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE |
			    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		snprintf(err, len, "cannot open %s: %s", path,
			 db ? sqlite3_errmsg(db) : "out of memory");
		sqlite3_close(db);
		return NULL;
	}
	sqlite3_busy_timeout(db, 10000);
	if (sqlite3_exec(db, "PRAGMA query_only=1", NULL, NULL, NULL) != SQLITE_OK) {
		snprintf(err, len, "%s: %s", path, sqlite3_errmsg(db));
		sqlite3_close(db);
		return NULL;
	}
	return db;
}

/* PRAGMA user_version, or -1 with @err (not a database, unreadable). */
static int user_version(sqlite3 *db, const char *path, char *err, size_t len)
{
	sqlite3_stmt *s;
	int v = -1;

	if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &s, NULL) != SQLITE_OK) {
		snprintf(err, len, "%s: %s", path, sqlite3_errmsg(db));
		return -1;
	}
	if (sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_int(s, 0);
	else
		snprintf(err, len, "%s: %s", path, sqlite3_errmsg(db));
	sqlite3_finalize(s);
	return v;
}

static int sync_path(const char *path, int flags)
{
	int fd = open(path, flags | O_CLOEXEC);
	int rc;

	if (fd < 0)
		return -1;
	rc = fsync(fd);
	close(fd);
	return rc;
}

static int sync_dir_of(const char *path)
{
	char buf[PATH_MAX];

	snprintf(buf, sizeof(buf), "%s", path);
	return sync_path(dirname(buf), O_RDONLY | O_DIRECTORY);
}

static void sleep_us(long us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Copy @s into @d page by page; 0 or -1 with @err. */
static int copy_pages(sqlite3 *d, sqlite3 *s, const struct db_backup_opts *o,
		      char *err, size_t len)
{
	int step = o && o->pages_per_step > 0 ? o->pages_per_step : DEFAULT_STEP;
	sqlite3_backup *b = sqlite3_backup_init(d, "main", s, "main");
	int rc;

	if (!b) {
		snprintf(err, len, "backup: %s", sqlite3_errmsg(d));
		return -1;
	}
	do {
		rc = sqlite3_backup_step(b, step);
		if (o && o->progress)
			o->progress(o->arg, sqlite3_backup_pagecount(b) -
				    sqlite3_backup_remaining(b),
				    sqlite3_backup_pagecount(b));
		if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED)
			sleep_us(10000);
		else if (rc == SQLITE_OK && o && o->pages_per_second > 0)
			sleep_us((long)step * 1000000 / o->pages_per_second);
	} while (rc == SQLITE_OK || rc == SQLITE_BUSY || rc == SQLITE_LOCKED);
	sqlite3_backup_finish(b);
	if (rc != SQLITE_DONE) {
		snprintf(err, len, "backup: %s", sqlite3_errstr(rc));
		return -1;
	}
	return 0;
}

static int quick_check(sqlite3 *db, const char *path, char *err, size_t len)
{
	sqlite3_stmt *s;
	int ok = 0;

	if (sqlite3_prepare_v2(db, "PRAGMA quick_check(1)", -1, &s, NULL) != SQLITE_OK) {
		snprintf(err, len, "%s: %s", path, sqlite3_errmsg(db));
		return -1;
	}
	if (sqlite3_step(s) == SQLITE_ROW) {
		ok = !strcmp((const char *)sqlite3_column_text(s, 0), "ok");
		if (!ok)
			snprintf(err, len, "%s: quick_check: %s", path,
				 sqlite3_column_text(s, 0));
	} else {
		snprintf(err, len, "%s: %s", path, sqlite3_errmsg(db));
	}
	sqlite3_finalize(s);
	return ok ? 0 : -1;
}

int db_backup_file(const char *src, const char *dst,
		   const struct db_backup_opts *o, char *err, size_t len)
{
	char part[PATH_MAX];
	sqlite3 *s = NULL, *d = NULL;
	int rc = -1, v;

	if ((size_t)snprintf(part, sizeof(part), "%s.part", dst) >= sizeof(part)) {
		snprintf(err, len, "backup file name too long");
		return -1;
	}
	if (!access(dst, F_OK)) {
		snprintf(err, len, "%s exists; not overwriting it", dst);
		return -1;
	}
	s = open_existing(src, err, len);
	if (!s)
		return -1;
	v = user_version(s, src, err, len);
	if (v < 0)
		goto out;
	if (v == 0) {
		snprintf(err, len, "%s is not a perflab database (schema version 0)",
			 src);
		goto out;
	}
	/*
	 * One read transaction for the whole copy: every step reads the same
	 * snapshot, whatever perflabd commits meanwhile (WAL), so the copy is
	 * one consistent state and the backup never restarts.
	 */
	if (db_exec(s, "BEGIN") ||
	    db_int(s, -1, "SELECT count(*) FROM sqlite_schema", 0) < 0) {
		snprintf(err, len, "%s: %s", src, sqlite3_errmsg(s));
		goto out;
	}
	unlink(part);
	if (sqlite3_open_v2(part, &d, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
			    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		snprintf(err, len, "cannot create %s: %s", part,
			 d ? sqlite3_errmsg(d) : "out of memory");
		goto out;
	}
	/* A new file, renamed into place only when whole: no journal. */
	if (db_exec(d, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF")) {
		snprintf(err, len, "%s: %s", part, sqlite3_errmsg(d));
		goto out;
	}
	if (copy_pages(d, s, o, err, len))
		goto out;
	db_exec(s, "COMMIT");
	if (quick_check(d, part, err, len))
		goto out;
	if (sqlite3_close(d) != SQLITE_OK) {
		snprintf(err, len, "%s: %s", part, sqlite3_errmsg(d));
		goto out;
	}
	d = NULL;
	if (sync_path(part, O_RDONLY)) {
		snprintf(err, len, "fsync %s: %s", part, strerror(errno));
		goto out;
	}
	if (renameat2(AT_FDCWD, part, AT_FDCWD, dst, RENAME_NOREPLACE)) {
		snprintf(err, len, "rename %s to %s: %s", part, dst,
			 strerror(errno));
		goto out;
	}
	sync_dir_of(dst);
	rc = 0;
out:
	if (d)
		sqlite3_close(d);
	if (rc)
		unlink(part);
	sqlite3_close(s);
	return rc;
}

struct problems {
	int n, max;
	void (*report)(void *arg, const char *problem);
	void *arg;
};

static void problem(struct problems *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void problem(struct problems *p, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	if (p->n++ >= p->max || !p->report)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	p->report(p->arg, buf);
}

static void integrity(sqlite3 *db, struct problems *p)
{
	char sql[64];
	sqlite3_stmt *s;
	const char *t;
	int rc;

	snprintf(sql, sizeof(sql), "PRAGMA integrity_check(%d)", p->max);
	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK) {
		problem(p, "integrity_check: %s", sqlite3_errmsg(db));
		return;
	}
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		t = (const char *)sqlite3_column_text(s, 0);
		if (t && strcmp(t, "ok"))
			problem(p, "integrity_check: %s", t);
	}
	if (rc != SQLITE_DONE)
		problem(p, "integrity_check: %s", sqlite3_errmsg(db));
	sqlite3_finalize(s);
}

static void foreign_keys(sqlite3 *db, struct problems *p)
{
	sqlite3_stmt *s;
	int rc;

	if (sqlite3_prepare_v2(db, "PRAGMA foreign_key_check", -1, &s, NULL)
	    != SQLITE_OK) {
		problem(p, "foreign_key_check: %s", sqlite3_errmsg(db));
		return;
	}
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		/* WITHOUT ROWID tables have no rowid to name. */
		if (sqlite3_column_type(s, 1) == SQLITE_NULL)
			problem(p, "foreign key: a %s row refers to a missing %s row",
				sqlite3_column_text(s, 0), sqlite3_column_text(s, 2));
		else
			problem(p, "foreign key: %s row %lld refers to a missing %s row",
				sqlite3_column_text(s, 0),
				(long long)sqlite3_column_int64(s, 1),
				sqlite3_column_text(s, 2));
	}
	if (rc != SQLITE_DONE)
		problem(p, "foreign_key_check: %s", sqlite3_errmsg(db));
	sqlite3_finalize(s);
}

int db_check_path(const char *path, int max,
		  void (*report)(void *arg, const char *problem), void *arg,
		  int *version, char *err, size_t len)
{
	struct problems p = { 0, max > 0 ? max : 100, report, arg };
	sqlite3 *db = open_existing(path, err, len);
	int v;

	if (!db)
		return -1;
	v = user_version(db, path, err, len);
	if (v < 0) {
		sqlite3_close(db);
		return -1;
	}
	if (version)
		*version = v;
	if (v == 0)
		problem(&p, "not a perflab database (schema version 0)");
	else if (v > db_schema_version())
		problem(&p, "schema version %d is newer than this perflabd's %d",
			v, db_schema_version());
	integrity(db, &p);
	foreign_keys(db, &p);
	sqlite3_close(db);
	return p.n;
}

static void first_problem(void *arg, const char *problem)
{
	char *first = arg;

	if (!first[0])
		snprintf(first, 512, "%s", problem);
}

int db_restore_file(const char *backup, const char *live, char *err,
		    size_t len)
{
	char first[512] = "";
	sqlite3 *s = NULL, *d = NULL;
	int n, rc = -1;

	n = db_check_path(backup, 0, first_problem, first, NULL, err, len);
	if (n < 0)
		return -1;
	if (n > 0) {
		snprintf(err, len, "%s fails the check (%d problem%s, first: %s);"
			 " not restoring it", backup, n, n == 1 ? "" : "s", first);
		return -1;
	}
	s = open_existing(backup, err, len);
	if (!s)
		return -1;
	if (sqlite3_open_v2(live, &d, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
			    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		snprintf(err, len, "cannot open %s: %s", live,
			 d ? sqlite3_errmsg(d) : "out of memory");
		goto out;
	}
	/*
	 * Exclusive locking mode keeps the lock from the first transaction
	 * to the close: nobody opens the database while it is replaced, and
	 * while anyone has it open (WAL readers too) the lock is refused.
	 */
	if (db_exec(d, "PRAGMA locking_mode=EXCLUSIVE") ||
	    sqlite3_exec(d, "BEGIN EXCLUSIVE; COMMIT", NULL, NULL, NULL)
	    != SQLITE_OK) {
		if (sqlite3_errcode(d) == SQLITE_BUSY)
			snprintf(err, len, "%s is in use: stop perflabd (and"
				 " whatever else has it open) first", live);
		else
			snprintf(err, len, "%s: %s", live, sqlite3_errmsg(d));
		goto out;
	}
	if (copy_pages(d, s, NULL, err, len))
		goto out;
	rc = 0;
out:
	sqlite3_close(s);
	/* The last connection: checkpoints the WAL into the file. */
	if (d && sqlite3_close(d) != SQLITE_OK && !rc) {
		snprintf(err, len, "%s: %s", live, sqlite3_errmsg(d));
		rc = -1;
	}
	return rc;
}
