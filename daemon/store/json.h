/* SPDX-License-Identifier: MIT */
/*
 * Query rows as JSON: what a handler answers and what a job spec carries
 * are SQLite rows turned into jansson values here, once.
 */
#ifndef PERFLAB_STORE_JSON_H
#define PERFLAB_STORE_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>
#include <sqlite3.h>

/*
 * JSON string from bytes that may not be valid UTF-8 (patch text, logs):
 * invalid sequences become U+FFFD. Never NULL unless out of memory.
 */
json_t *json_string_lossy(const char *s, size_t len);
/* Column @i of @st as JSON: null, integer, real, or lossy string. */
json_t *json_col(sqlite3_stmt *st, int i);

/*
 * The current row of @st as an object keyed by column name. A column
 * named "a.b" goes into sub-object "a" as "b"; a name ending in "_json"
 * holds JSON text that is parsed (the suffix is dropped).
 */
json_t *json_row(sqlite3_stmt *st);
/* Every row of @st (after binding) as an array of json_row objects. */
json_t *json_rows(sqlite3_stmt *st);
/* Prepare and run @sql: its rows as json_row objects, NULL on error. */
json_t *json_query(sqlite3 *db, const char *sql);
/* The same with ?1 bound to @id. */
json_t *json_query_id(sqlite3 *db, const char *sql, int64_t id);
/*
 * @sql whose column 0 is JSON text (a json_object() per row), ?1 bound to
 * @id: the rows parsed, as an array when @many (empty on error), else
 * the first row's value (NULL when there is none).
 */
json_t *json_query_texts(sqlite3 *db, const char *sql, int64_t id, int many);

/*
 * Keyset pages: @a holds the rows of a page fetched one row longer than
 * @limit. Drops that extra row and returns the cursor of the next page,
 * member @key of the last row kept; 0 when @a was the last page.
 */
int64_t json_page_next(json_t *a, int limit, const char *key);
/* Reverse @a in place (a page read newest first, shown oldest first). */
void json_array_reverse(json_t *a);

#endif
