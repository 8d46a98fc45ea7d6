/* SPDX-License-Identifier: MIT */
/*
 * The writer: one SQLite connection and the FIFO lock that goes with it.
 *
 * Write discipline of perflabd. The lab's own write paths - the runner
 * protocol (claim, heartbeat, result, fail), cancellation, the lease
 * reaper and the analysis worker - write only through the writer:
 *
 *	sqlite3 *w = db_writer_lock(&writer);
 *	... short transactions on w (db_begin/db_commit) ...
 *	db_writer_unlock(&writer);
 *
 * Whatever is slow (reading every run of an experiment, the statistics,
 * network I/O) happens before or after, on a pool connection that only
 * reads, so the lock is held for the writes alone and claims and
 * heartbeats never wait behind an analysis. The lock is FIFO
 * (fairlock.h) and the connection's page cache stays warm.
 *
 * Request handlers for users (submitting experiments, patches, keys) write
 * on their pool connection with BEGIN IMMEDIATE; SQLite's busy timeout
 * orders them with the writer.
 */
#ifndef PERFLAB_WRITER_H
#define PERFLAB_WRITER_H

#include <sqlite3.h>

#include "daemon/store/fairlock.h"

struct db_writer {
	struct fair_lock lock;
	sqlite3 *db;
};

/* Takes ownership of @db (closed by db_writer_destroy). */
void db_writer_init(struct db_writer *w, sqlite3 *db);
void db_writer_destroy(struct db_writer *w);

/* Wait for the lock (FIFO); the connection to write with until unlock. */
sqlite3 *db_writer_lock(struct db_writer *w);
/* Roll back whatever transaction is left open, then release the lock. */
void db_writer_unlock(struct db_writer *w);

#endif
