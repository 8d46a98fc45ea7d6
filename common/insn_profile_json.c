// SPDX-License-Identifier: MIT
/*
 * insn_profile_json: a parsed perflab-insn profile and the symbol maps ->
 * the exact_profile object of a bench result (docs/contracts.md §1).
 * With the cache model's events (a v2 profile) every symbol row and the
 * totals carry them too, with estimated cycles (common/cache_cost.h).
 */
#include "common/insn_profile.h"
#include "common/cache_cost.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXACT_MAX (1ull << 53)

/* A row's counters: instructions, then the events (INSN_EV_*). */
#define NCNT (1 + INSN_EV_N)

struct row {
	const char *dso, *sym;
	uint64_t c[NCNT];
};

static void fail(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
}

static int cmp_name(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	int c = strcmp(x->dso, y->dso);

	return c ? c : strcmp(x->sym, y->sym);
}

static int cmp_insns(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->c[0] != y->c[0])
		return x->c[0] > y->c[0] ? -1 : 1;
	return cmp_name(a, b);
}

/* Counters of address i of p into v[NCNT]. */
static void counters_of(const struct insn_prof *p, size_t i, uint64_t *v)
{
	v[0] = p->count[i];
	for (int e = 0; e < INSN_EV_N; e++)
		v[1 + e] = p->cache ? p->ev[i * INSN_EV_N + e] : 0;
}

static void add(uint64_t *to, const uint64_t *v)
{
	for (int k = 0; k < NCNT; k++)
		to[k] += v[k];
}

/*
 * Per-symbol counters of one address class into rows[]; returns the
 * number of rows. Sums of the class into sum[], outside any symbol into
 * unattr[].
 */
static size_t attribute(const struct insn_prof *p, int kernel,
			const struct insn_symtab *t, const char *dso,
			uint64_t *cnt, struct row *rows, uint64_t *sum,
			uint64_t *unattr)
{
	size_t nrows = 0;
	uint64_t v[NCNT];

	memset(cnt, 0, (t->n ? t->n : 1) * NCNT * sizeof(*cnt));
	for (size_t i = 0; i < p->n; i++) {
		long s;

		if ((p->addr[i] >= INSN_PROF_KERNEL_START) != kernel)
			continue;
		counters_of(p, i, v);
		add(sum, v);
		s = insn_symtab_find(t, p->addr[i]);
		add(s < 0 ? unattr : cnt + s * NCNT, v);
	}
	for (size_t s = 0; s < t->n; s++) {
		if (!cnt[s * NCNT])
			continue;
		rows[nrows] = (struct row){ dso, t->name[s], { 0 } };
		memcpy(rows[nrows++].c, cnt + s * NCNT, sizeof(rows->c));
	}
	return nrows;
}

/* Rows of one name merged (static functions of one name in two files). */
static size_t merge_rows(struct row *r, size_t n)
{
	size_t k = 0;

	qsort(r, n, sizeof(*r), cmp_name);
	for (size_t i = 0; i < n; i++) {
		if (k && !cmp_name(&r[k - 1], &r[i]))
			add(r[k - 1].c, r[i].c);
		else
			r[k++] = r[i];
	}
	qsort(r, k, sizeof(*r), cmp_insns);
	return k;
}

/* Sets the fields of new object x on o; x is released either way. */
static int update_new(json_t *o, json_t *x)
{
	int rc = x ? json_object_update(o, x) : -1;

	json_decref(x);
	return rc;
}

/* The cache fields of counters c, set on o (a row or the totals). */
static int cache_fields(json_t *o, const uint64_t *c)
{
	const uint64_t *e = c + 1;
	struct cache_weights w = CACHE_WEIGHTS_DEFAULT;
	uint64_t l1 = e[INSN_EV_I1M] + e[INSN_EV_D1RM] + e[INSN_EV_D1WM];
	uint64_t ll = e[INSN_EV_LLIM] + e[INSN_EV_LLDRM] + e[INSN_EV_LLDWM];
	uint64_t est;

	if (cache_est_cycles(&w, c[0] + e[INSN_EV_DR] + e[INSN_EV_DW], l1, ll,
			     &est))
		return -1;
	return update_new(o, json_pack(
		"{s:I, s:I, s:I, s:I, s:I, s:I, s:I}",
		"data_reads", (json_int_t)e[INSN_EV_DR],
		"data_writes", (json_int_t)e[INSN_EV_DW],
		"l1i_misses", (json_int_t)e[INSN_EV_I1M],
		"l1d_read_misses", (json_int_t)e[INSN_EV_D1RM],
		"l1d_write_misses", (json_int_t)e[INSN_EV_D1WM],
		"ll_misses", (json_int_t)ll, "est_cycles", (json_int_t)est));
}

static json_t *rows_json(const struct row *r, size_t n, int cache)
{
	json_t *a = json_array(), *o;

	for (size_t i = 0; a && i < n; i++) {
		o = json_pack("{s:s, s:s, s:I}", "dso", r[i].dso, "sym",
			      r[i].sym, "insns", (json_int_t)r[i].c[0]);
		if (!o || (cache && cache_fields(o, r[i].c)) ||
		    json_array_append_new(a, o)) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

/* The window's totals, and the model and weights they came from. */
static int cache_summary(json_t *j, const struct insn_prof *p)
{
	const struct insn_cache_geom *g = &p->geom;
	struct cache_weights w = CACHE_WEIGHTS_DEFAULT;
	const uint64_t *e = p->ev_total;
	uint64_t all[NCNT] = { p->total };
	json_t *c;

	memcpy(all + 1, e, sizeof(p->ev_total));
	if (cache_fields(j, all))
		return -1;
	c = json_pack("{s:s, s:I, s:{s:I, s:I}, s:{s:I, s:I}, s:{s:I, s:I}, "
		      "s:{s:I, s:I, s:I}}", "model", "lru-write-allocate",
		      "line", (json_int_t)g->line,
		      "l1i", "size", (json_int_t)g->l1i_size, "ways",
		      (json_int_t)g->l1i_ways,
		      "l1d", "size", (json_int_t)g->l1d_size, "ways",
		      (json_int_t)g->l1d_ways,
		      "ll", "size", (json_int_t)g->ll_size, "ways",
		      (json_int_t)g->ll_ways,
		      "weights", "l1_hit", (json_int_t)w.l1_hit, "ll_hit",
		      (json_int_t)w.ll_hit, "ram", (json_int_t)w.ram);
	if (!c || json_object_set_new(j, "cache", c))
		return -1;
	return 0;
}

json_t *insn_prof_cost_json(const json_t *exact)
{
	double ios = (double)json_integer_value(json_object_get(exact, "ios"));
	uint64_t l1 = 0;

	if (!json_object_get(exact, "cache") || ios <= 0)
		return NULL;
	for (int k = 0; k < 3; k++)
		l1 += (uint64_t)json_integer_value(json_object_get(
			exact, (const char *[]){ "l1i_misses", "l1d_read_misses",
						 "l1d_write_misses" }[k]));
	return json_pack("{s:f, s:f, s:f}", "est_cycles_per_io",
			 json_integer_value(json_object_get(exact,
							    "est_cycles")) / ios,
			 "l1_misses_per_io", (double)l1 / ios, "ll_misses_per_io",
			 json_integer_value(json_object_get(exact,
							    "ll_misses")) / ios);
}

void insn_prof_attach(json_t *bench, json_t *exact)
{
	json_t *cost = insn_prof_cost_json(exact);

	json_object_set_new(bench, "exact_profile", exact);
	if (cost)
		json_object_set_new(bench, "exact_cost", cost);
}

static int window_ok(const struct insn_prof *p, uint64_t ios, char *err,
		     size_t errlen)
{
	if (p->window != INSN_WIN_CLOSED || !p->starts ||
	    p->starts != p->ends) {
		fail(err, errlen, "no measured window: %llu start and %llu "
		     "end marks, window %s", (unsigned long long)p->starts,
		     (unsigned long long)p->ends,
		     p->window == INSN_WIN_FAILED ? "failed (plugin out of "
		     "memory)" : p->window == INSN_WIN_OPEN ? "never closed" :
		     p->window == INSN_WIN_NONE ? "never opened" : "closed");
		return -1;
	}
	/* JSON readers keep integers exact up to 2^53 (doubles). */
	if (!ios || ios > EXACT_MAX || p->total > EXACT_MAX) {
		fail(err, errlen, "IO count %llu or total out of range",
		     (unsigned long long)ios);
		return -1;
	}
	for (int e = 0; p->cache && e < INSN_EV_N; e++)
		if (p->ev_total[e] > EXACT_MAX) {
			fail(err, errlen, "cache event %d out of range", e);
			return -1;
		}
	return 0;
}

json_t *insn_prof_json(const struct insn_prof *p, uint64_t ios,
		       const struct insn_symtab *ksyms,
		       const struct insn_symtab *usyms, const char *udso,
		       char *err, size_t errlen)
{
	static const struct insn_symtab none;
	uint64_t kern[NCNT] = { 0 }, user[NCNT] = { 0 }, unattr[NCNT] = { 0 };
	uint64_t *cnt;
	size_t nk, nu, nmax;
	struct row *rows;
	json_t *j = NULL, *syms;

	ksyms = ksyms ? ksyms : &none;
	usyms = usyms ? usyms : &none;
	if (window_ok(p, ios, err, errlen))
		return NULL;
	nmax = ksyms->n > usyms->n ? ksyms->n : usyms->n;
	cnt = calloc((nmax ? nmax : 1) * NCNT, sizeof(*cnt));
	rows = calloc(ksyms->n + usyms->n + 1, sizeof(*rows));
	if (!cnt || !rows) {
		fail(err, errlen, "out of memory");
		goto out;
	}
	nk = attribute(p, 1, ksyms, "[kernel.kallsyms]", cnt, rows, kern,
		       unattr);
	nu = attribute(p, 0, usyms, udso, cnt, rows + nk, user, unattr);
	syms = rows_json(rows, merge_rows(rows, nk + nu), p->cache);
	j = syms ? json_pack("{s:s, s:s, s:I, s:I, s:I, s:I, s:I, s:o}",
			     "kind", "instructions", "source",
			     "qemu-tcg-plugin", "ios", (json_int_t)ios,
			     "total", (json_int_t)p->total,
			     "kernel", (json_int_t)kern[0],
			     "user", (json_int_t)user[0],
			     "unattributed", (json_int_t)unattr[0],
			     "symbols", syms) : NULL;
	if (j && p->cache && cache_summary(j, p)) {
		json_decref(j);
		j = NULL;
	}
	if (!j)
		fail(err, errlen, "out of memory or counts out of range");
out:
	free(cnt);
	free(rows);
	return j;
}
