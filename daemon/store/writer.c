// SPDX-License-Identifier: MIT
/*
 * The one write connection; see writer.h.
 */
#include <stdio.h>

#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "daemon/store/writer.h"

/* The daemon's writer; NULL in tools and unit tests, which own their
 * one connection and write on it directly. */
static struct db_writer *registered;

void db_writer_init(struct db_writer *w, sqlite3 *db)
{
	fair_lock_init(&w->lock);
	w->db = db;
	/* A pool connection (query_only) becomes the one that writes. */
	sqlite3_exec(db, "PRAGMA query_only=0", NULL, NULL, NULL);
	__atomic_store_n(&registered, w, __ATOMIC_RELEASE);
	db_set_writer(db);
}

void db_writer_destroy(struct db_writer *w)
{
	struct db_writer *self = w;

	if (__atomic_compare_exchange_n(&registered, &self, NULL, false,
					__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		db_set_writer(NULL);
	sqlite3_close(w->db);
	w->db = NULL;
	fair_lock_destroy(&w->lock);
}

sqlite3 *db_writer_lock(struct db_writer *w)
{
	fair_lock(&w->lock);
	return w->db;
}

/* The holder's last storage failure, kept for its thread's HTTP answer
 * (503 with a reason) after the writer went to someone else. */
static __thread int last_status;
static __thread char last_msg[160];

void db_writer_unlock(struct db_writer *w)
{
	if (db_error_status(w->db) == 503) {
		last_status = 503;
		snprintf(last_msg, sizeof(last_msg), "%s", sqlite3_errmsg(w->db));
	}
	db_rollback_all(w->db);	/* never leave a transaction open */
	db_flush_commit_count(w->db);
	fair_unlock(&w->lock);
}

int db_writer_last_error(char *msg, size_t len)
{
	int st = last_status;

	if (st && msg)
		snprintf(msg, len, "%s", last_msg);
	last_status = 0;
	return st;
}

sqlite3 *db_write_lock(sqlite3 *db)
{
	struct db_writer *w = __atomic_load_n(&registered, __ATOMIC_ACQUIRE);

	if (!w || db == w->db)
		return db;
	return db_writer_lock(w);
}

void db_write_unlock(sqlite3 *db, sqlite3 *wdb)
{
	struct db_writer *w = __atomic_load_n(&registered, __ATOMIC_ACQUIRE);

	if (w && wdb != db)
		db_writer_unlock(w);
}
