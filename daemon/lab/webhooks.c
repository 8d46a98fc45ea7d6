// SPDX-License-Identifier: MIT
/*
 * Webhook registration; see webhooks.h.
 */
#include <string.h>
#include <time.h>

#include "daemon/lab/webhooks.h"
#include "daemon/store/json.h"
#include "daemon/store/sql.h"
#include "daemon/store/writer.h"

json_t *webhooks_json(sqlite3 *db)
{
	return json_query(db, "SELECT id, url, enabled, created_at FROM webhooks"
			  " ORDER BY id");
}

int64_t webhooks_add(sqlite3 *db, const char *url, const char *secret,
		     struct lab_err *e)
{
	sqlite3_stmt *st;
	int64_t id = -1;
	sqlite3 *w;

	if (!url || (strncmp(url, "http://", 7) && strncmp(url, "https://", 8)) ||
	    !secret || strlen(secret) < 8)
		return lab_fail(e, LAB_INVALID, "needs \"url\" (http:// or"
				" https://) and \"secret\" (at least 8 characters)");
	w = db_write_lock(db);
	st = db_prepare(w, "INSERT INTO webhooks (url, secret, created_at)"
			" VALUES (?, ?, ?)");
	if (st) {
		sqlite3_bind_text(st, 1, url, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, secret, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 3, (int64_t)time(NULL));
		if (sqlite3_step(st) == SQLITE_DONE)
			id = sqlite3_last_insert_rowid(w);
		sqlite3_finalize(st);
	}
	if (id < 0)
		lab_fail_db(e, w);
	db_write_unlock(db, w);
	return id;
}
