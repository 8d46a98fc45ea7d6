/* SPDX-License-Identifier: MIT */
/*
 * Running SQL: for store/ and lab/, the layers that own the queries.
 * The HTTP layer never includes this header (nor <sqlite3.h>): a handler
 * asks a lab/ or store/ function, which returns a struct or the
 * resource's JSON (tests/layers/include-graph.sh checks).
 */
#ifndef PERFLAB_STORE_SQL_H
#define PERFLAB_STORE_SQL_H

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>

int db_exec(sqlite3 *db, const char *sql);
/* Prepare or return NULL (message logged to stderr). */
sqlite3_stmt *db_prepare(sqlite3 *db, const char *sql);
/*
 * Run @sql with @nargs int64_t parameters to its end; first column of
 * the first row, or @def.
 */
int64_t db_int(sqlite3 *db, int64_t def, const char *sql, int nargs, ...);
/*
 * Column 0 of the first row of @sql, ?1 bound to @id, into *@out as a
 * malloc'd NUL-terminated copy of its *@len bytes (text or blob). 1, 0
 * when there is no row, -1 on error or without memory.
 */
int db_text(sqlite3 *db, const char *sql, int64_t id, char **out, size_t *len);

/* Text column @i of @st's row into @out ("" for NULL), truncated to @len. */
void db_col_copy(sqlite3_stmt *st, int i, char *out, size_t len);

#endif
