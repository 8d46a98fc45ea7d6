/* SPDX-License-Identifier: MIT */
/*
 * The store (daemon/store/, see its README.md): connections, migrations,
 * transactions, the pool for readers and the one writer (writer.h), and
 * rows as JSON. It knows SQL and nothing of the lab or of HTTP.
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
#include <sqlite3.h>

struct migration;

/* Highest schema version this binary knows. */
int db_schema_version(void);

/*
 * Open @path (created if missing) and set the connection pragmas.
 * Returns NULL with a message in @err on failure.
 */
sqlite3 *db_open(const char *path, char *err, size_t errlen);

/*
 * Apply the migrations in @m[0..n) newer than PRAGMA user_version, each in
 * its own transaction. Refuses (-1) a database whose user_version is newer
 * than the newest migration. Returns the resulting version or -1.
 */
int db_migrate_with(sqlite3 *db, const struct migration *m, size_t n,
		    char *err, size_t errlen);
/* The same with the migrations embedded in the binary. */
int db_migrate(sqlite3 *db, char *err, size_t errlen);

int db_user_version(sqlite3 *db);

/* Helpers. */
int db_exec(sqlite3 *db, const char *sql);
/* Prepare or return NULL (message logged to stderr). */
sqlite3_stmt *db_prepare(sqlite3 *db, const char *sql);
/* Run @sql with @nargs int64_t parameters; first column of the first row, or @def. */
int64_t db_int(sqlite3 *db, int64_t def, const char *sql, int nargs, ...);
/*
 * BEGIN IMMEDIATE, 0 or -1; asserts that @db may write (db_is_writer).
 * Inside an open transaction a SAVEPOINT: transactions nest, and
 * db_commit/db_rollback end the innermost level only.
 */
int db_begin(sqlite3 *db);
/* Register the daemon's one writer connection (writer.h); NULL: none. */
void db_set_writer(sqlite3 *db);
/* @db may write: it is the registered writer, or none is registered
 * (tools and unit tests write on their one connection). */
bool db_is_writer(sqlite3 *db);
int db_commit(sqlite3 *db);
void db_rollback(sqlite3 *db);
/* Roll back every level of the open transaction, if any. */
void db_rollback_all(sqlite3 *db);
/*
 * HTTP status for the last error on @db: 503 when the database cannot
 * be written or read right now (disk full, read-only, I/O error, busy),
 * else 500. Call before db_rollback(), which clears the error.
 */
int db_error_status(sqlite3 *db);

/*
 * Count commits made through @db in *@counter (incremented after each
 * commit is durable and visible, from SQLite's WAL hook; the hook also
 * does the usual automatic checkpoint every 1000 pages).
 */
void db_count_commits(sqlite3 *db, uint64_t *counter);

/* A pool of connections to one database file, grown on demand. */
struct db_pool {
	char *path;
	pthread_mutex_t lock;
	sqlite3 **idle;
	int nidle, cap;
	uint64_t generation;	/* commits through pool connections */
};

/* Changes whenever a pool connection committed; see db_count_commits. */
uint64_t db_pool_generation(struct db_pool *p);

int db_pool_init(struct db_pool *p, const char *path);
sqlite3 *db_pool_get(struct db_pool *p);
void db_pool_put(struct db_pool *p, sqlite3 *db);
void db_pool_destroy(struct db_pool *p);

#endif
