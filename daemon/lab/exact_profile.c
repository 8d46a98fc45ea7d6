// SPDX-License-Identifier: MIT
/*
 * Exact profiles: validation and storage (see exact_profile.h).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "daemon/lab/exact_cache.h"
#include "daemon/lab/exact_profile.h"
#include "daemon/lab/validate.h"

static int bad(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* Integer member @k of @o in [lo, EXACT_MAX_COUNT]; its value in @out. */
static int count_field(json_t *o, const char *where, const char *k,
		       json_int_t lo, json_int_t *out, char *err, size_t errlen)
{
	json_t *v = json_object_get(o, k);

	if (!v)
		return bad(err, errlen, "%s: missing field '%s'", where, k);
	if (!json_is_integer(v))
		return bad(err, errlen, "%s: field '%s' must be an integer",
			   where, k);
	*out = json_integer_value(v);
	if (*out < lo || *out > EXACT_MAX_COUNT)
		return bad(err, errlen,
			   "%s: field '%s' must be %" PRId64 " to 2^53", where,
			   k, (int64_t)lo);
	return 0;
}

/*
 * String member @k: 1..@max bytes, no NUL (jansson can carry one, SQLite
 * text would cut it short and two names would collide).
 */
static int name_field(json_t *o, const char *where, const char *k, size_t max,
		      char *err, size_t errlen)
{
	json_t *v = json_object_get(o, k);
	size_t n;

	if (!v)
		return bad(err, errlen, "%s: missing field '%s'", where, k);
	if (!json_is_string(v))
		return bad(err, errlen, "%s: field '%s' must be a string",
			   where, k);
	n = json_string_length(v);
	if (!n || n > max)
		return bad(err, errlen, "%s: field '%s' must be 1 to %zu bytes",
			   where, k, max);
	if (strlen(json_string_value(v)) != n)
		return bad(err, errlen, "%s: field '%s' contains a NUL byte",
			   where, k);
	return 0;
}

/* Every key of @o is in @a or in @b; else the first other in *@badkey. */
static int keys_in(json_t *o, const char *const *a, const char *const *b,
		   const char **badkey)
{
	const char *k;
	json_t *v;

	json_object_foreach(o, k, v) {
		const char *const *l;
		int found = 0;

		for (l = a; *l && !found; l++)
			found = !strcmp(*l, k);
		for (l = b; *l && !found; l++)
			found = !strcmp(*l, k);
		if (!found) {
			*badkey = k;
			return -1;
		}
	}
	return 0;
}

/* The symbols; their instructions summed into *@sum (<= @total). */
static int check_symbols(json_t *a, json_int_t total, json_int_t *sum,
			 char *err, size_t errlen)
{
	static const char *const keys[] = { "dso", "sym", "insns", NULL };
	const char *w = "bench.exact_profile.symbols", *badkey;
	json_int_t n;
	json_t *e;
	size_t i;

	*sum = 0;
	if (!json_is_array(a))
		return bad(err, errlen, "%s: must be an array", w);
	if (json_array_size(a) > EXACT_MAX_SYMBOLS)
		return bad(err, errlen, "%s: more than %d symbols", w,
			   EXACT_MAX_SYMBOLS);
	json_array_foreach(a, i, e)
	{
		if (!json_is_object(e))
			return bad(err, errlen, "%s[%zu]: must be an object", w,
				   i);
		if (keys_in(e, keys, exact_cache_symbol_keys, &badkey))
			return bad(err, errlen, "%s[%zu]: unknown field '%s'",
				   w, i, badkey);
		if (name_field(e, w, "dso", EXACT_MAX_NAME, err, errlen) ||
		    name_field(e, w, "sym", EXACT_MAX_NAME, err, errlen) ||
		    count_field(e, w, "insns", 0, &n, err, errlen))
			return -1;
		/* both <= 2^53: the sum cannot overflow before the check */
		*sum += n;
		if (*sum > total)
			return bad(
				err, errlen,
				"%s: the symbols' instructions exceed the total (%" PRId64
				")",
				w, (int64_t)total);
	}
	return 0;
}

static int check(json_t *p, char *err, size_t errlen)
{
	static const char *const keys[] = { "kind",	    "source",  "ios",
					    "total",	    "kernel",  "user",
					    "unattributed", "symbols", NULL };
	const char *w = "bench.exact_profile", *badkey;
	json_int_t ios, total, kernel, user, unatt = 0, sum;
	json_t *k;

	if (!json_is_object(p))
		return bad(err, errlen, "%s: must be an object", w);
	if (keys_in(p, keys, exact_cache_keys, &badkey))
		return bad(err, errlen, "%s: unknown field '%s'", w, badkey);
	k = json_object_get(p, "kind");
	if (!json_is_string(k) || strcmp(json_string_value(k), "instructions"))
		return bad(err, errlen, "%s: kind must be \"instructions\"", w);
	if (name_field(p, w, "source", EXACT_MAX_SOURCE, err, errlen) ||
	    count_field(p, w, "ios", 1, &ios, err, errlen) ||
	    count_field(p, w, "total", 0, &total, err, errlen) ||
	    count_field(p, w, "kernel", 0, &kernel, err, errlen) ||
	    count_field(p, w, "user", 0, &user, err, errlen))
		return -1;
	if (json_object_get(p, "unattributed") &&
	    count_field(p, w, "unattributed", 0, &unatt, err, errlen))
		return -1;
	if (kernel + user > total)
		return bad(err, errlen,
			   "%s: kernel + user (%" PRId64
			   ") exceed the total (%" PRId64 ")",
			   w, (int64_t)(kernel + user), (int64_t)total);
	if (!json_object_get(p, "symbols"))
		return bad(err, errlen, "%s: missing field 'symbols'", w);
	if (check_symbols(json_object_get(p, "symbols"), total, &sum, err,
			  errlen))
		return -1;
	if (sum + unatt > total)
		return bad(err, errlen,
			   "%s: symbols (%" PRId64 ") + unattributed (%" PRId64
			   ") exceed the total (%" PRId64 ")",
			   w, (int64_t)sum, (int64_t)unatt, (int64_t)total);
	return exact_cache_check(p, err, errlen);
}

int exact_profile_validate(json_t *p, struct lab_err *e)
{
	char why[512];

	if (check(p, why, sizeof(why)))
		return lab_fail(e, LAB_INVALID, "%s", why);
	return 0;
}

static int64_t int_of(json_t *o, const char *k)
{
	return json_integer_value(json_object_get(o, k));
}

int exact_profile_store_head(sqlite3 *db, int64_t run, json_t *p)
{
	sqlite3_stmt *st = db_prepare(
		db, "INSERT INTO exact_profiles (run_id, kind, source, ios,"
		    " total, kernel, user, unattributed)"
		    " VALUES (?,?,?,?,?,?,?,?)");
	int rc;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, run);
	sqlite3_bind_text(st, 2, json_string_value(json_object_get(p, "kind")),
			  -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3,
			  json_string_value(json_object_get(p, "source")), -1,
			  SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, int_of(p, "ios"));
	sqlite3_bind_int64(st, 5, int_of(p, "total"));
	sqlite3_bind_int64(st, 6, int_of(p, "kernel"));
	sqlite3_bind_int64(st, 7, int_of(p, "user"));
	sqlite3_bind_int64(st, 8, int_of(p, "unattributed"));
	rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
	sqlite3_finalize(st);
	return rc;
}

