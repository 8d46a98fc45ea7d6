// SPDX-License-Identifier: MIT
/*
 * Statement helpers for the layers that own SQL; see sql.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/store/sql.h"

int db_exec(sqlite3 *db, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		fprintf(stderr, "perflabd: sql error: %s (%s)\n",
			msg ? msg : "?", sql);
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

sqlite3_stmt *db_prepare(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st = NULL;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		fprintf(stderr, "perflabd: prepare failed: %s (%s)\n",
			sqlite3_errmsg(db), sql);
		return NULL;
	}
	return st;
}

int64_t db_int(sqlite3 *db, int64_t def, const char *sql, int nargs, ...)
{
	sqlite3_stmt *st = db_prepare(db, sql);
	int64_t v = def;
	va_list ap;
	int i;

	if (!st)
		return def;
	va_start(ap, nargs);
	for (i = 0; i < nargs; i++)
		sqlite3_bind_int64(st, i + 1, va_arg(ap, int64_t));
	va_end(ap);
	if (sqlite3_step(st) == SQLITE_ROW) {
		if (sqlite3_column_type(st, 0) != SQLITE_NULL)
			v = sqlite3_column_int64(st, 0);
		/* Run it to its end: an autocommit write with RETURNING
		 * commits when finalized, but SQLite calls the WAL hook that
		 * counts commits (db_count_commits) only from a step that
		 * returns SQLITE_DONE. (A step after SQLITE_DONE would run
		 * the statement again.) */
		while (sqlite3_step(st) == SQLITE_ROW)
			;
	}
	sqlite3_finalize(st);
	return v;
}

int db_text(sqlite3 *db, const char *sql, int64_t id, char **out, size_t *len)
{
	sqlite3_stmt *st = db_prepare(db, sql);
	int rc, ret = -1;
	size_t n;

	*out = NULL;
	*len = 0;
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		n = (size_t)sqlite3_column_bytes(st, 0);
		*out = malloc(n + 1);
		if (*out) {
			if (n)
				memcpy(*out, sqlite3_column_blob(st, 0), n);
			(*out)[n] = '\0';
			*len = n;
			ret = 1;
		}
	} else if (rc == SQLITE_DONE) {
		ret = 0;
	}
	sqlite3_finalize(st);
	return ret;
}

void db_col_copy(sqlite3_stmt *st, int i, char *out, size_t len)
{
	const unsigned char *s = sqlite3_column_text(st, i);

	snprintf(out, len, "%s", s ? (const char *)s : "");
}
