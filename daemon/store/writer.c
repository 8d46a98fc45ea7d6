// SPDX-License-Identifier: MIT
/*
 * The one write connection; see writer.h.
 */
#include "daemon/store/db.h"
#include "daemon/store/writer.h"

void db_writer_init(struct db_writer *w, sqlite3 *db)
{
	fair_lock_init(&w->lock);
	w->db = db;
}

void db_writer_destroy(struct db_writer *w)
{
	sqlite3_close(w->db);
	w->db = NULL;
	fair_lock_destroy(&w->lock);
}

sqlite3 *db_writer_lock(struct db_writer *w)
{
	fair_lock(&w->lock);
	return w->db;
}

void db_writer_unlock(struct db_writer *w)
{
	db_rollback(w->db);	/* never leave a transaction open */
	fair_unlock(&w->lock);
}
