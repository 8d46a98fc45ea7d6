/* SPDX-License-Identifier: MIT */
/*
 * The single write discipline: every write transaction in the daemon
 * runs on one connection, taken in arrival order (fairlock.h). No
 * exception: the runner protocol, cancellation, the analysis worker,
 * every user-facing handler that writes (the dispatcher runs routes
 * marked ROUTE_WRITES with the writer as req->db) and the lab's
 * background workers (lease expiry, baselines, track polls, bisections,
 * alert delivery: lab/workers.h).
 *
 *	store_conn *w = db_writer_lock(&writer);
 *	... short transactions on w (db_begin/db_commit) ...
 *	db_writer_unlock(&writer);
 *
 * Whatever is slow (reading every run of an experiment, the statistics,
 * git fetches and rev-lists, SMTP and webhooks) happens before or after,
 * on a pool connection that only reads (db.h; WAL: readers see committed
 * state and never block the writer), so the lock is held for the writes
 * alone and claims and heartbeats never wait behind an analysis or a
 * fetch. One writer means no SQLITE_BUSY between our own writers and a
 * page cache that stays warm.
 *
 * Lab code that was handed a pool connection brackets its short writes
 * with db_write_lock/db_write_unlock (the registered writer, or @db itself
 * when it is the writer or in tools and tests with a single connection).
 *
 * The check: pool connections are opened with PRAGMA query_only=1, so
 * SQLite refuses any write on them (SQLITE_READONLY), and db_begin()
 * asserts that its connection is the writer's.
 */
#ifndef PERFLAB_STORE_WRITER_H
#define PERFLAB_STORE_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include "daemon/store/conn.h"
#include "daemon/store/fairlock.h"

struct db_writer {
	struct fair_lock lock;
	store_conn *db;
};

/* Own @db from now on (closed by db_writer_destroy). */
void db_writer_init(struct db_writer *w, store_conn *db);
void db_writer_destroy(struct db_writer *w);

/* Wait for the writer; returns its connection, to use until unlock. */
store_conn *db_writer_lock(struct db_writer *w);
/* Roll back whatever the holder left open, then let the next one in. */
void db_writer_unlock(struct db_writer *w);

/*
 * 503 when this thread's last hold of the writer ended on a storage
 * failure (full, read-only, I/O, busy; @msg gets SQLite's message), else
 * 0. Reading it clears it.
 */
int db_writer_last_error(char *msg, size_t len);

/*
 * For lab code holding @db: the writer's connection, locked, when a
 * daemon writer is registered and @db is not it; else @db. Pair with
 * db_write_unlock(@db, returned).
 */
store_conn *db_write_lock(store_conn *db);
void db_write_unlock(store_conn *db, store_conn *wdb);

#endif
