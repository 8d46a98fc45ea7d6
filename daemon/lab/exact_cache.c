// SPDX-License-Identifier: MIT
/*
 * Exact profiles' cache model: validation and storage (exact_cache.h).
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/cache_cost.h"
#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "daemon/lab/exact_cache.h"
#include "daemon/lab/validate.h"

/* Counts are exact in a JSON double (exact_profile.h: EXACT_MAX_COUNT). */
#define EXACT_MAX_COUNT (INT64_C(1) << 53)

/* The seven counts, in storage order. */
enum { DR, DW, L1I, L1DR, L1DW, LL, EST, NCOUNTS };
static const char *const counts[NCOUNTS] = {
	"data_reads", "data_writes", "l1i_misses", "l1d_read_misses",
	"l1d_write_misses", "ll_misses", "est_cycles",
};

const char *const exact_cache_keys[] = {
	"cache", "data_reads", "data_writes", "l1i_misses", "l1d_read_misses",
	"l1d_write_misses", "ll_misses", "est_cycles", NULL,
};
const char *const exact_cache_symbol_keys[] = {
	"data_reads", "data_writes", "l1i_misses", "l1d_read_misses",
	"l1d_write_misses", "ll_misses", "est_cycles", NULL,
};

static int bad(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int bad(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static int count_of(json_t *o, const char *w, const char *k, uint64_t *out,
		    char *err, size_t errlen)
{
	json_t *v = json_object_get(o, k);

	if (!json_is_integer(v) || json_integer_value(v) < 0 ||
	    json_integer_value(v) > EXACT_MAX_COUNT)
		return bad(err, errlen, "%s: field '%s' must be an integer "
			   "0 to 2^53", w, k);
	*out = (uint64_t)json_integer_value(v);
	return 0;
}

struct model {
	uint64_t line;
	struct cache_weights w;
};

static int level(json_t *c, const char *k, uint64_t line, char *err,
		 size_t errlen)
{
	static const char *const keys[] = { "size", "ways", NULL };
	json_t *l = json_object_get(c, k);
	const char *badkey;
	uint64_t size, ways, sets;

	if (!json_is_object(l) || json_check_keys(l, keys, &badkey))
		return bad(err, errlen, "bench.exact_profile.cache.%s: want "
			   "{\"size\", \"ways\"}", k);
	if (count_of(l, "bench.exact_profile.cache", "size", &size, err,
		     errlen) ||
	    count_of(l, "bench.exact_profile.cache", "ways", &ways, err,
		     errlen))
		return -1;
	sets = ways && ways <= 64 && size <= (1ull << 32) &&
	       !(size % (ways * line)) ? size / ways / line : 0;
	if (!sets || (sets & (sets - 1)))
		return bad(err, errlen, "bench.exact_profile.cache.%s: %" PRIu64
			   " bytes, %" PRIu64 " ways of %" PRIu64 "-byte lines "
			   "is not a cache (power-of-two sets, 1-64 ways)", k,
			   size, ways, line);
	return 0;
}

static int check_model(json_t *c, struct model *m, char *err, size_t errlen)
{
	static const char *const keys[] = { "model", "line", "l1i", "l1d",
					    "ll", "weights", NULL };
	static const char *const wkeys[] = { "l1_hit", "ll_hit", "ram", NULL };
	const char *w = "bench.exact_profile.cache", *badkey;
	json_t *wt = json_object_get(c, "weights");

	if (!json_is_object(c))
		return bad(err, errlen, "%s: must be an object", w);
	if (json_check_keys(c, keys, &badkey))
		return bad(err, errlen, "%s: unknown field '%s'", w, badkey);
	if (!json_is_string(json_object_get(c, "model")) ||
	    strcmp(json_string_value(json_object_get(c, "model")),
		   "lru-write-allocate"))
		return bad(err, errlen, "%s: model must be "
			   "\"lru-write-allocate\"", w);
	if (count_of(c, w, "line", &m->line, err, errlen))
		return -1;
	if (m->line < 16 || m->line > 4096 || (m->line & (m->line - 1)))
		return bad(err, errlen, "%s: line must be a power of two 16 to "
			   "4096", w);
	if (level(c, "l1i", m->line, err, errlen) ||
	    level(c, "l1d", m->line, err, errlen) ||
	    level(c, "ll", m->line, err, errlen))
		return -1;
	if (!json_is_object(wt) || json_check_keys(wt, wkeys, &badkey) ||
	    count_of(wt, w, "l1_hit", &m->w.l1_hit, err, errlen) ||
	    count_of(wt, w, "ll_hit", &m->w.ll_hit, err, errlen) ||
	    count_of(wt, w, "ram", &m->w.ram, err, errlen) ||
	    !cache_weights_ok(&m->w))
		return bad(err, errlen, "%s.weights: want 0 < l1_hit <= ll_hit "
			   "<= ram <= %d", w, CACHE_WEIGHT_MAX);
	return 0;
}

/* Seven counts of @o, consistent with @insns and the weights. */
static int check_counts(json_t *o, const char *w, uint64_t insns,
			const struct model *m, uint64_t *c, char *err,
			size_t errlen)
{
	uint64_t acc, l1, est;

	for (int k = 0; k < NCOUNTS; k++)
		if (count_of(o, w, counts[k], &c[k], err, errlen))
			return -1;
	acc = insns + c[DR] + c[DW];
	l1 = c[L1I] + c[L1DR] + c[L1DW];
	if (c[L1I] > 2 * insns || c[L1DR] > 2 * c[DR] || c[L1DW] > 2 * c[DW])
		return bad(err, errlen, "%s: more L1 misses than two lines per "
			   "access", w);
	if (c[LL] > l1)
		return bad(err, errlen, "%s: ll_misses (%" PRIu64 ") exceed the "
			   "L1 misses (%" PRIu64 ")", w, c[LL], l1);
	if (cache_est_cycles(&m->w, acc, l1, c[LL], &est) || est != c[EST])
		return bad(err, errlen, "%s: est_cycles %" PRIu64 " is not what "
			   "the weights give for these counts", w, c[EST]);
	return 0;
}

static int check_symbols(json_t *a, const struct model *m,
			 const uint64_t *total, char *err, size_t errlen)
{
	uint64_t sum[NCOUNTS] = { 0 }, c[NCOUNTS];
	char w[64];
	json_t *e;
	size_t i;

	json_array_foreach(a, i, e) {
		snprintf(w, sizeof(w), "bench.exact_profile.symbols[%zu]", i);
		if (check_counts(e, w, (uint64_t)json_integer_value(
					json_object_get(e, "insns")),
				 m, c, err, errlen))
			return -1;
		for (int k = 0; k < NCOUNTS; k++) {
			sum[k] += c[k];	/* each <= 2^53, at most 200000 */
			if (sum[k] > total[k])
				return bad(err, errlen, "bench.exact_profile."
					   "symbols: their %s exceed the "
					   "total (%" PRIu64 ")", counts[k],
					   total[k]);
		}
	}
	return 0;
}

static int has_any(json_t *o, const char *const *keys)
{
	for (; *keys; keys++)
		if (json_object_get(o, *keys))
			return 1;
	return 0;
}

int exact_cache_check(json_t *p, char *err, size_t errlen)
{
	uint64_t total[NCOUNTS];
	json_t *syms = json_object_get(p, "symbols"), *e;
	struct model m;
	size_t i;

	if (!json_object_get(p, "cache")) {
		if (has_any(p, exact_cache_keys))
			return bad(err, errlen, "bench.exact_profile: cache "
				   "counts without the cache model");
		json_array_foreach(syms, i, e)
			if (has_any(e, exact_cache_symbol_keys))
				return bad(err, errlen, "bench.exact_profile."
					   "symbols[%zu]: cache counts without "
					   "the cache model", i);
		return 0;
	}
	if (check_model(json_object_get(p, "cache"), &m, err, errlen) ||
	    check_counts(p, "bench.exact_profile", (uint64_t)json_integer_value(
				 json_object_get(p, "total")), &m, total, err,
			 errlen))
		return -1;
	return check_symbols(syms, &m, total, err, errlen);
}

static int per_io(json_t *c, const char *k, uint64_t v, uint64_t ios,
		  char *err, size_t errlen)
{
	json_t *x = json_object_get(c, k);
	double want = (double)v / (double)ios;

	if (!json_is_number(x) ||
	    fabs(json_number_value(x) - want) > 1e-9 * (want > 1 ? want : 1))
		return bad(err, errlen, "bench.exact_cost: %s must be "
			   "exact_profile's total over ios (%.6f)", k, want);
	return 0;
}

int exact_cache_check_cost(json_t *bench, char *err, size_t errlen)
{
	static const char *const keys[] = { "est_cycles_per_io",
					    "l1_misses_per_io",
					    "ll_misses_per_io", NULL };
	json_t *p = json_object_get(bench, "exact_profile");
	json_t *c = json_object_get(bench, "exact_cost");
	const char *badkey;
	uint64_t ios, l1 = 0;

	if (c && (!json_is_object(c) || json_check_keys(c, keys, &badkey)))
		return bad(err, errlen, "bench.exact_cost: want an object of "
			   "est_cycles_per_io, l1_misses_per_io, "
			   "ll_misses_per_io");
	if (!p)
		return 0;	/* figures reported as they are, like ns_per_io */
	if (!json_object_get(p, "cache"))
		return c ? bad(err, errlen, "bench.exact_cost: the exact "
			       "profile has no cache model") : 0;
	if (!c)
		return bad(err, errlen, "bench.exact_cost: missing with a "
			   "cache model in exact_profile");
	ios = (uint64_t)json_integer_value(json_object_get(p, "ios"));
	for (int k = L1I; k <= L1DW; k++)
		l1 += (uint64_t)json_integer_value(json_object_get(p, counts[k]));
	if (per_io(c, "est_cycles_per_io", (uint64_t)json_integer_value(
			   json_object_get(p, "est_cycles")), ios, err, errlen) ||
	    per_io(c, "l1_misses_per_io", l1, ios, err, errlen) ||
	    per_io(c, "ll_misses_per_io", (uint64_t)json_integer_value(
			   json_object_get(p, "ll_misses")), ios, err, errlen))
		return -1;
	return 0;
}

static json_int_t int_at(json_t *o, const char *path1, const char *k)
{
	json_t *x = path1 ? json_object_get(o, path1) : o;

	return json_integer_value(json_object_get(x, k));
}

static int store_head(sqlite3 *db, int64_t run, json_t *p)
{
	json_t *c = json_object_get(p, "cache");
	sqlite3_stmt *st = db_prepare(
		db, "INSERT INTO exact_profile_cache (run_id, line, l1i_size,"
		    " l1i_ways, l1d_size, l1d_ways, ll_size, ll_ways, w_l1_hit,"
		    " w_ll_hit, w_ram, data_reads, data_writes, l1i_misses,"
		    " l1d_read_misses, l1d_write_misses, ll_misses, est_cycles)"
		    " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
	json_t *wt = json_object_get(c, "weights");
	int rc, n = 1;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, n++, run);
	sqlite3_bind_int64(st, n++, int_at(c, NULL, "line"));
	sqlite3_bind_int64(st, n++, int_at(c, "l1i", "size"));
	sqlite3_bind_int64(st, n++, int_at(c, "l1i", "ways"));
	sqlite3_bind_int64(st, n++, int_at(c, "l1d", "size"));
	sqlite3_bind_int64(st, n++, int_at(c, "l1d", "ways"));
	sqlite3_bind_int64(st, n++, int_at(c, "ll", "size"));
	sqlite3_bind_int64(st, n++, int_at(c, "ll", "ways"));
	sqlite3_bind_int64(st, n++, int_at(wt, NULL, "l1_hit"));
	sqlite3_bind_int64(st, n++, int_at(wt, NULL, "ll_hit"));
	sqlite3_bind_int64(st, n++, int_at(wt, NULL, "ram"));
	for (int k = 0; k < NCOUNTS; k++)
		sqlite3_bind_int64(st, n++, json_integer_value(
					   json_object_get(p, counts[k])));
	rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
	sqlite3_finalize(st);
	return rc;
}

/*
 * Per symbol, summed over same-named rows like the instructions; the
 * symbol rows exist already (ingest stored the instructions first).
 */
static const char store_sym_sql[] =
	"INSERT INTO exact_profile_cache_symbols (run_id, symbol_id,"
	" data_reads, data_writes, l1i_misses, l1d_read_misses,"
	" l1d_write_misses, ll_misses, est_cycles)"
	" SELECT ?1, id, ?4, ?5, ?6, ?7, ?8, ?9, ?10 FROM symbols"
	" WHERE dso = ?2 AND name = ?3"
	" ON CONFLICT DO UPDATE SET data_reads = data_reads + excluded.data_reads,"
	" data_writes = data_writes + excluded.data_writes,"
	" l1i_misses = l1i_misses + excluded.l1i_misses,"
	" l1d_read_misses = l1d_read_misses + excluded.l1d_read_misses,"
	" l1d_write_misses = l1d_write_misses + excluded.l1d_write_misses,"
	" ll_misses = ll_misses + excluded.ll_misses,"
	" est_cycles = est_cycles + excluded.est_cycles";

static int store_symbols(sqlite3 *db, int64_t run, json_t *a)
{
	sqlite3_stmt *st = db_prepare(db, store_sym_sql);
	json_t *e;
	size_t i;
	int rc = 0;

	if (!st)
		return -1;
	json_array_foreach(a, i, e) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, run);
		sqlite3_bind_text(st, 2, json_string_value(json_object_get(
					  e, "dso")), -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, json_string_value(json_object_get(
					  e, "sym")), -1, SQLITE_STATIC);
		for (int k = 0; k < NCOUNTS; k++)
			sqlite3_bind_int64(st, 4 + k, json_integer_value(
						   json_object_get(e, counts[k])));
		if (sqlite3_step(st) != SQLITE_DONE || !sqlite3_changes(db)) {
			rc = -1;
			break;
		}
	}
	sqlite3_finalize(st);
	return rc;
}

int exact_cache_store(sqlite3 *db, int64_t run, json_t *p)
{
	if (!json_object_get(p, "cache"))
		return 0;
	if (store_head(db, run, p))
		return -1;
	return store_symbols(db, run, json_object_get(p, "symbols"));
}
