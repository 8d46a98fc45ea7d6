/* SPDX-License-Identifier: MIT */
/*
 * The single write discipline: every write transaction of the runner
 * protocol (claim, heartbeat, result, fail), cancellation, the lease
 * reaper and the analysis worker runs on one connection, taken in arrival
 * order (fairlock.h):
 *
 *	sqlite3 *w = db_writer_lock(&writer);
 *	... short transactions on w (db_begin/db_commit) ...
 *	db_writer_unlock(&writer);
 *
 * Whatever is slow (reading every run of an experiment, the statistics,
 * network I/O) happens before or after, on a pool connection that only
 * reads (db.h; WAL: readers see committed state and never block the
 * writer), so the lock is held for the writes alone and claims and
 * heartbeats never wait behind an analysis. One writer means no
 * SQLITE_BUSY between our own writers and a page cache that stays warm.
 *
 * Request handlers for users (submitting experiments, patches, keys) still
 * write on their pool connection with BEGIN IMMEDIATE; SQLite's busy
 * timeout orders them with the writer.
 */
#ifndef PERFLAB_STORE_WRITER_H
#define PERFLAB_STORE_WRITER_H

#include <sqlite3.h>

#include "daemon/store/fairlock.h"

struct db_writer {
	struct fair_lock lock;
	sqlite3 *db;
};

/* Own @db from now on (closed by db_writer_destroy). */
void db_writer_init(struct db_writer *w, sqlite3 *db);
void db_writer_destroy(struct db_writer *w);

/* Wait for the writer; returns its connection, to use until unlock. */
sqlite3 *db_writer_lock(struct db_writer *w);
/* Roll back whatever the holder left open, then let the next one in. */
void db_writer_unlock(struct db_writer *w);

#endif
