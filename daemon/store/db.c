// SPDX-License-Identifier: MIT
/*
 * SQLite store: connection setup, migrations, connection pool.
 */
#include <assert.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "daemon/store/migrations.h"

int db_schema_version(void)
{
	int v = 0;
	size_t i;

	for (i = 0; i < perflab_migrations_count; i++)
		if (perflab_migrations[i].version > v)
			v = perflab_migrations[i].version;
	return v;
}

sqlite3 *db_open(const char *path, char *err, size_t errlen)
{
	sqlite3 *db = NULL;
	int rc;

	rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE |
			     SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK) {
		snprintf(err, errlen, "cannot open database %s: %s", path,
			 db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
		goto fail;
	}
	sqlite3_busy_timeout(db, 10000);
	if (sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA foreign_keys=ON;"
			 "PRAGMA synchronous=NORMAL; PRAGMA temp_store=MEMORY;",
			 NULL, NULL, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "cannot set up database %s: %s", path,
			 sqlite3_errmsg(db));
		goto fail;
	}
	return db;
fail:
	sqlite3_close(db);
	return NULL;
}

void db_global_init(void)
{
	/* No global allocator statistics: with them every SQLite malloc and
	 * free takes one process-wide mutex, which serialised all request
	 * threads under load (bench/load-api.sh: 10x fewer uploads). */
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

int db_check_file(const char *path, char *err, size_t errlen)
{
	sqlite3 *db = db_open(path, err, errlen);
	char why[512];
	int v;

	if (!db)
		return -1;
	v = db_migrate(db, why, sizeof(why));
	if (v < 0)
		snprintf(err, errlen, "%s: %s", path, why);
	sqlite3_close(db);
	return v < 0 ? -1 : 0;
}

void db_close(sqlite3 *db)
{
	sqlite3_close(db);
}

const char *db_errmsg(sqlite3 *db)
{
	return sqlite3_errmsg(db);
}

int db_user_version(sqlite3 *db)
{
	return (int)db_int(db, -1, "PRAGMA user_version", 0);
}

static int apply_one(sqlite3 *db, const struct migration *m, char *err,
		     size_t errlen)
{
	char *msg = NULL;
	char sql[64];

	if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, &msg) != SQLITE_OK)
		goto fail;
	if (sqlite3_exec(db, m->sql, NULL, NULL, &msg) != SQLITE_OK)
		goto fail_rollback;
	snprintf(sql, sizeof(sql), "PRAGMA user_version=%d", m->version);
	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK)
		goto fail_rollback;
	if (sqlite3_exec(db, "COMMIT", NULL, NULL, &msg) != SQLITE_OK)
		goto fail_rollback;
	return 0;
fail_rollback:
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
fail:
	snprintf(err, errlen, "migration %s failed: %s", m->name,
		 msg ? msg : sqlite3_errmsg(db));
	sqlite3_free(msg);
	return -1;
}

int db_migrate_with(sqlite3 *db, const struct migration *m, size_t n,
		    char *err, size_t errlen)
{
	int cur = db_user_version(db), max = 0, next;
	size_t i;

	if (cur < 0) {
		snprintf(err, errlen, "cannot read schema version: %s",
			 sqlite3_errmsg(db));
		return -1;
	}
	for (i = 0; i < n; i++)
		if (m[i].version > max)
			max = m[i].version;
	if (cur > max) {
		snprintf(err, errlen,
			 "database schema version %d is newer than this perflabd "
			 "(knows up to %d); refusing to open it: upgrade perflabd",
			 cur, max);
		return -1;
	}
	/* Apply in version order whatever the array order. */
	for (next = cur + 1; next <= max; next++) {
		for (i = 0; i < n; i++)
			if (m[i].version == next)
				break;
		if (i == n)
			continue;
		if (apply_one(db, &m[i], err, errlen))
			return -1;
		cur = next;
	}
	return cur;
}

int db_migrate(sqlite3 *db, char *err, size_t errlen)
{
	return db_migrate_with(db, perflab_migrations, perflab_migrations_count,
			       err, errlen);
}

/* The daemon's one writer connection (writer.c registers it). */
static sqlite3 *writer_db;

void db_set_writer(sqlite3 *db)
{
	__atomic_store_n(&writer_db, db, __ATOMIC_RELEASE);
}

bool db_is_writer(sqlite3 *db)
{
	sqlite3 *w = __atomic_load_n(&writer_db, __ATOMIC_ACQUIRE);

	return !w || db == w;
}

/*
 * Transactions nest: a db_begin inside an open transaction is a
 * SAVEPOINT, and its db_commit/db_rollback releases or undoes only that
 * level. So a caller can make one transaction of functions that each
 * begin and commit their own (the analysis store: analysis.h). The depth
 * is kept per connection; a connection with no transaction open (SQLite
 * ended it, or nobody began one) is at depth 0 whatever was counted.
 */
#define NEST_SLOTS 16

static struct nest {
	sqlite3 *db;
	int depth;
} nests[NEST_SLOTS];
static pthread_mutex_t nest_lock = PTHREAD_MUTEX_INITIALIZER;

/* @db's slot; a slot at depth 0 is free to take. */
static struct nest *nest_of(sqlite3 *db)
{
	struct nest *n = NULL;

	pthread_mutex_lock(&nest_lock);
	for (int i = 0; i < NEST_SLOTS; i++) {
		if (nests[i].db == db) {
			n = &nests[i];
			break;
		}
		if (!n && nests[i].depth == 0)
			n = &nests[i];
	}
	if (n && n->db != db) {
		n->db = db;
		n->depth = 0;
	}
	pthread_mutex_unlock(&nest_lock);
	/* More writers than slots cannot happen (one writer, writer.h). */
	assert(n);
	if (sqlite3_get_autocommit(db))
		n->depth = 0;
	return n;
}

int db_begin(sqlite3 *db)
{
	struct nest *n;

	/* Writes go through the one writer (writer.h). */
	assert(db_is_writer(db));
	n = nest_of(db);
	if (sqlite3_get_autocommit(db)) {
		if (db_exec(db, "BEGIN IMMEDIATE"))
			return -1;
		n->depth = 1;
		return 0;
	}
	if (db_exec(db, "SAVEPOINT perflab_nest"))
		return -1;
	n->depth = (n->depth ? n->depth : 1) + 1;
	return 0;
}

int db_commit(sqlite3 *db)
{
	struct nest *n = nest_of(db);

	if (n->depth > 1) {
		if (db_exec(db, "RELEASE perflab_nest")) {
			db_rollback(db);
			return -1;
		}
		n->depth--;
		return 0;
	}
	if (db_exec(db, "COMMIT")) {
		db_rollback_all(db);
		return -1;
	}
	n->depth = 0;
	return 0;
}

void db_rollback(sqlite3 *db)
{
	struct nest *n = nest_of(db);

	if (sqlite3_get_autocommit(db))
		return;
	if (n->depth > 1) {
		sqlite3_exec(db, "ROLLBACK TO perflab_nest; RELEASE perflab_nest",
			     NULL, NULL, NULL);
		n->depth--;
		return;
	}
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	n->depth = 0;
}

void db_rollback_all(sqlite3 *db)
{
	struct nest *n = nest_of(db);

	if (!sqlite3_get_autocommit(db))
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	n->depth = 0;
}

int db_error_status(sqlite3 *db)
{
	switch (sqlite3_errcode(db)) {
	case SQLITE_FULL:
	case SQLITE_READONLY:
	case SQLITE_IOERR:
	case SQLITE_CANTOPEN:
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
	case SQLITE_NOMEM:
		return 503;
	}
	return 500;
}

static int wal_hook(void *arg, sqlite3 *db, const char *name, int pages)
{
	__atomic_fetch_add((uint64_t *)arg, 1, __ATOMIC_RELEASE);
	if (pages >= 1000)
		sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
	return SQLITE_OK;
}

void db_count_commits(sqlite3 *db, uint64_t *counter)
{
	sqlite3_wal_hook(db, wal_hook, counter);
}

void db_flush_commit_count(sqlite3 *db)
{
	sqlite3_stmt *st;

	/* SQLite defers the WAL hook of a commit made by a statement that
	 * was finalized before SQLITE_DONE (a write with RETURNING stepped
	 * once) to the next statement that runs to its end: this one. */
	if (!sqlite3_get_autocommit(db) ||
	    sqlite3_prepare_v2(db, "SELECT 0", -1, &st, NULL) != SQLITE_OK)
		return;
	while (sqlite3_step(st) == SQLITE_ROW)
		;
	sqlite3_finalize(st);
}

uint64_t db_pool_generation(struct db_pool *p)
{
	return __atomic_load_n(&p->generation, __ATOMIC_ACQUIRE);
}

int db_pool_init(struct db_pool *p, const char *path)
{
	memset(p, 0, sizeof(*p));
	p->path = strdup(path);
	if (!p->path)
		return -1;
	pthread_mutex_init(&p->lock, NULL);
	return 0;
}

sqlite3 *db_pool_get(struct db_pool *p)
{
	sqlite3 *db = NULL;
	char err[256];

	pthread_mutex_lock(&p->lock);
	if (p->nidle > 0)
		db = p->idle[--p->nidle];
	pthread_mutex_unlock(&p->lock);
	if (db)
		return db;
	db = db_open(p->path, err, sizeof(err));
	if (!db) {
		fprintf(stderr, "perflabd: %s\n", err);
		return NULL;
	}
	/* Pool connections only read: SQLite itself refuses a write on
	 * one, so a write that bypasses the writer (writer.h) fails loudly
	 * instead of racing it. db_writer_init lifts this for its own. */
	if (sqlite3_exec(db, "PRAGMA query_only=1", NULL, NULL, NULL) != SQLITE_OK) {
		sqlite3_close(db);
		return NULL;
	}
	db_count_commits(db, &p->generation);
	return db;
}

void db_pool_put(struct db_pool *p, sqlite3 *db)
{
	if (!db)
		return;
	db_rollback_all(db);
	pthread_mutex_lock(&p->lock);
	if (p->nidle == p->cap) {
		int cap = p->cap ? p->cap * 2 : 16;
		sqlite3 **n = realloc(p->idle, cap * sizeof(*n));

		if (!n) {
			pthread_mutex_unlock(&p->lock);
			sqlite3_close(db);
			return;
		}
		p->idle = n;
		p->cap = cap;
	}
	p->idle[p->nidle++] = db;
	pthread_mutex_unlock(&p->lock);
}

void db_pool_destroy(struct db_pool *p)
{
	while (p->nidle > 0)
		sqlite3_close(p->idle[--p->nidle]);
	free(p->idle);
	free(p->path);
	pthread_mutex_destroy(&p->lock);
}
