// SPDX-License-Identifier: MIT
/*
 * Query rows as JSON; see json.h.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/store/json.h"
#include "daemon/store/sql.h"

/* Length of the valid UTF-8 sequence at @s (at most @n bytes), or 0. */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
	size_t len, i;
	unsigned cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return len;
}

json_t *json_string_lossy(const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, o = 0, k;
	json_t *j;
	char *b;

	if (!s)
		return json_string("");
	while (i < len && (k = utf8_seq(u + i, len - i)) && u[i])
		i += k;
	if (i == len)
		return json_stringn(s, len);
	b = malloc(len * 3 + 1);
	if (!b)
		return NULL;
	for (i = 0; i < len;) {
		k = u[i] ? utf8_seq(u + i, len - i) : 0;
		if (k) {
			memcpy(b + o, s + i, k);
			o += k;
			i += k;
		} else {
			memcpy(b + o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
		}
	}
	j = json_stringn(b, o);
	free(b);
	return j;
}

json_t *json_col(sqlite3_stmt *st, int i)
{
	switch (sqlite3_column_type(st, i)) {
	case SQLITE_NULL:
		return json_null();
	case SQLITE_INTEGER:
		return json_integer(sqlite3_column_int64(st, i));
	case SQLITE_FLOAT:
		return json_real(sqlite3_column_double(st, i));
	default:
		return json_string_lossy((const char *)sqlite3_column_blob(st, i),
					 (size_t)sqlite3_column_bytes(st, i));
	}
}

json_t *json_row(sqlite3_stmt *st)
{
	json_t *o = json_object();
	int i, n = sqlite3_column_count(st);

	if (!o)
		return NULL;
	for (i = 0; i < n; i++) {
		const char *name = sqlite3_column_name(st, i);
		const char *dot = strchr(name, '.');
		size_t len = strlen(name);
		json_t *dst = o, *v;
		char key[128];

		if (dot && (size_t)(dot - name) < sizeof(key)) {
			memcpy(key, name, dot - name);
			key[dot - name] = '\0';
			dst = json_object_get(o, key);
			if (!dst) {
				dst = json_object();
				json_object_set_new(o, key, dst);
			}
			name = dot + 1;
			len = strlen(name);
		}
		if (len > 5 && len < sizeof(key) && !strcmp(name + len - 5, "_json")) {
			const char *txt = (const char *)sqlite3_column_text(st, i);

			v = txt ? json_loads(txt, JSON_DECODE_ANY, NULL) : NULL;
			if (!v)
				v = json_null();
			memcpy(key, name, len - 5);
			key[len - 5] = '\0';
			json_object_set_new(dst, key, v);
			continue;
		}
		json_object_set_new(dst, name, json_col(st, i));
	}
	return o;
}

json_t *json_rows(sqlite3_stmt *st)
{
	json_t *a = json_array();

	while (a && sqlite3_step(st) == SQLITE_ROW)
		json_array_append_new(a, json_row(st));
	return a;
}

/* Every row of @sql with ?1 bound to @id (when @bind) as objects. */
static json_t *query(sqlite3 *db, const char *sql, bool bind, int64_t id)
{
	sqlite3_stmt *st = db_prepare(db, sql);
	json_t *a;

	if (!st)
		return NULL;
	if (bind)
		sqlite3_bind_int64(st, 1, id);
	a = json_rows(st);
	sqlite3_finalize(st);
	return a;
}

json_t *json_query(sqlite3 *db, const char *sql)
{
	return query(db, sql, false, 0);
}

json_t *json_query_id(sqlite3 *db, const char *sql, int64_t id)
{
	return query(db, sql, true, id);
}

json_t *json_query_texts(sqlite3 *db, const char *sql, int64_t id, int many)
{
	sqlite3_stmt *st = db_prepare(db, sql);
	json_t *r = many ? json_array() : NULL;

	if (!st)
		return r;
	sqlite3_bind_int64(st, 1, id);
	while (sqlite3_step(st) == SQLITE_ROW) {
		json_t *o = json_loads((const char *)sqlite3_column_text(st, 0), 0, NULL);

		if (!many) {
			r = o;
			break;
		}
		if (o)
			json_array_append_new(r, o);
	}
	sqlite3_finalize(st);
	return r;
}

int64_t json_page_next(json_t *a, int limit, const char *key)
{
	if (!a || limit < 1 || json_array_size(a) <= (size_t)limit)
		return 0;
	while (json_array_size(a) > (size_t)limit)
		json_array_remove(a, json_array_size(a) - 1);
	return json_integer_value(json_object_get(json_array_get(a, limit - 1), key));
}

void json_array_reverse(json_t *a)
{
	size_t n = json_array_size(a);

	for (size_t i = 0; i < n / 2; i++) {
		json_t *x = json_incref(json_array_get(a, i));

		json_array_set(a, i, json_array_get(a, n - 1 - i));
		json_array_set_new(a, n - 1 - i, x);
	}
}
