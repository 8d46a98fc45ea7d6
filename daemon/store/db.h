/* SPDX-License-Identifier: MIT */
/*
 * The store (daemon/store/, see its README.md): connections, migrations,
 * transactions, the pool for readers and the one writer (writer.h), and
 * rows as JSON. It knows SQL and nothing of the lab or of HTTP.
 *
 * This header names no SQL: connections are store_conn handles (conn.h)
 * and what runs statements is in sql.h, for store/ and lab/ only.
 *
 * SQLite store: open with WAL, foreign keys and a busy timeout; apply the
 * embedded migrations; a small pool of connections for request threads.
 */
#ifndef PERFLAB_DB_H
#define PERFLAB_DB_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/store/conn.h"

struct migration;

/* Once per process, before any connection: SQLite's global settings. */
void db_global_init(void);

/* Highest schema version this binary knows. */
int db_schema_version(void);

/*
 * Open @path (created if missing) and set the connection pragmas.
 * Returns NULL with a message in @err on failure.
 */
store_conn *db_open(const char *path, char *err, size_t errlen);

/*
 * Apply the migrations in @m[0..n) newer than PRAGMA user_version, each in
 * its own transaction. Refuses (-1) a database whose user_version is newer
 * than the newest migration. Returns the resulting version or -1.
 */
int db_migrate_with(store_conn *db, const struct migration *m, size_t n,
		    char *err, size_t errlen);
/* The same with the migrations embedded in the binary. */
int db_migrate(store_conn *db, char *err, size_t errlen);

int db_user_version(store_conn *db);

/*
 * Open @path, apply the migrations and close it again: a daemon checks
 * its database once before its pool opens it. 0, or -1 with @err.
 */
int db_check_file(const char *path, char *err, size_t errlen);
/* Close a connection db_open() returned. */
void db_close(store_conn *db);

/*
 * BEGIN IMMEDIATE, 0 or -1; asserts that @db may write (db_is_writer).
 * Inside an open transaction a SAVEPOINT: transactions nest, and
 * db_commit/db_rollback end the innermost level only.
 */
int db_begin(store_conn *db);
/* Register the daemon's one writer connection (writer.h); NULL: none. */
void db_set_writer(store_conn *db);
/* @db may write: it is the registered writer, or none is registered
 * (tools and unit tests write on their one connection). */
bool db_is_writer(store_conn *db);
int db_commit(store_conn *db);
void db_rollback(store_conn *db);
/* Roll back every level of the open transaction, if any. */
void db_rollback_all(store_conn *db);
/*
 * HTTP status for the last error on @db: 503 when the database cannot
 * be written or read right now (disk full, read-only, I/O error, busy),
 * else 500. Call before db_rollback(), which clears the error.
 */
int db_error_status(store_conn *db);
/* SQLite's message for the last error on @db. */
const char *db_errmsg(store_conn *db);

/*
 * Count commits made through @db in *@counter (incremented after each
 * commit is durable and visible, from SQLite's WAL hook; the hook also
 * does the usual automatic checkpoint every 1000 pages).
 */
void db_count_commits(store_conn *db, uint64_t *counter);
/*
 * Count now a commit of @db whose count is still pending: a write with
 * RETURNING whose statement was finalized after its first row commits
 * then, but SQLite calls the hook only when a later statement ends.
 * The writer does this on every unlock, so the pool's generation (and
 * the response cache keyed by it) never lags a write.
 */
void db_flush_commit_count(store_conn *db);

/* A pool of connections to one database file, grown on demand. */
struct db_pool {
	char *path;
	pthread_mutex_t lock;
	store_conn **idle;
	int nidle, cap;
	uint64_t generation;	/* commits through pool connections */
};

/* Changes whenever a pool connection committed; see db_count_commits. */
uint64_t db_pool_generation(struct db_pool *p);

int db_pool_init(struct db_pool *p, const char *path);
store_conn *db_pool_get(struct db_pool *p);
void db_pool_put(struct db_pool *p, store_conn *db);
void db_pool_destroy(struct db_pool *p);

#endif
