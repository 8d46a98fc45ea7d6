/* SPDX-License-Identifier: MIT */
/*
 * The single write discipline: every write transaction of the runner
 * protocol, the reaper and the lab's background work runs on one
 * connection, taken in arrival order (fairlock.h). One writer means no
 * SQLITE_BUSY between our own writers and a page cache that stays warm;
 * readers use the pool (db.h) and see committed state (WAL).
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
