// SPDX-License-Identifier: MIT
/*
 * profiles - read the stored profiles of an experiment's variants; see
 * profiles.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/lab/profiles.h"
#include "daemon/store/sql.h"

/*
 * The kinds of profile the lab stores, in the order they are guessed.
 * runs: run id, event, then the kind's counters of variant ?'s runs;
 * syms: dso, name, then the kind's figures of run ?.
 */
static const struct stored_kind {
	const struct perfdiff_kind *kind;
	const char *runs, *syms;
} kinds[] = {
	{ &perfdiff_instructions,
	  "SELECT e.run_id, e.source, e.ios, e.total, e.kernel, e.user,"
	  " e.unattributed FROM runs r JOIN exact_profiles e ON e.run_id = r.id"
	  " WHERE r.variant_id = ? ORDER BY r.id",
	  "SELECT s.dso, s.name, x.insns FROM exact_profile_symbols x"
	  " JOIN symbols s ON s.id = x.symbol_id WHERE x.run_id = ?" },
	/* after instructions: a cache profile is an instruction one too */
	{ &perfdiff_cycles,
	  "SELECT e.run_id, e.source, e.ios, c.est_cycles, e.total,"
	  " c.l1i_misses + c.l1d_read_misses + c.l1d_write_misses, c.ll_misses"
	  " FROM runs r JOIN exact_profiles e ON e.run_id = r.id"
	  " JOIN exact_profile_cache c ON c.run_id = r.id"
	  " WHERE r.variant_id = ? ORDER BY r.id",
	  "SELECT s.dso, s.name, c.est_cycles, x.insns,"
	  " c.l1i_misses + c.l1d_read_misses + c.l1d_write_misses, c.ll_misses"
	  " FROM exact_profile_cache_symbols c JOIN exact_profile_symbols x"
	  " ON x.run_id = c.run_id AND x.symbol_id = c.symbol_id"
	  " JOIN symbols s ON s.id = c.symbol_id WHERE c.run_id = ?" },
	{ &perfdiff_samples,
	  "SELECT p.run_id, p.event, p.total, p.lost FROM runs r"
	  " JOIN profiles p ON p.run_id = r.id WHERE r.variant_id = ?"
	  " ORDER BY r.id",
	  "SELECT s.dso, s.name, ps.samples FROM profile_symbols ps"
	  " JOIN symbols s ON s.id = ps.symbol_id WHERE ps.run_id = ?" },
};

#define NR_KINDS (sizeof(kinds) / sizeof(kinds[0]))

const struct perfdiff_kind *profiles_kind(const char *name)
{
	size_t i;

	for (i = 0; i < NR_KINDS; i++)
		if (!strcmp(kinds[i].kind->name, name))
			return kinds[i].kind;
	return NULL;
}

void profiles_kind_names(char *buf, size_t size)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < NR_KINDS && n < size; i++)
		n += snprintf(buf + n, size - n, "%s%s",
			      !i	       ? "" :
			      i + 1 < NR_KINDS ? ", " :
						 " or ",
			      kinds[i].kind->name);
}

/* ---- strings of one load: a bump allocator -------------------------------- */

static char *arena_strdup(struct profiles_arena *a, const unsigned char *u)
{
	const char *s = u ? (const char *)u : "";
	size_t n = strlen(s) + 1;
	char *p;

	if (a->used + n > a->cap) {
		size_t cap = n > 65536 ? n : 65536;
		char **old = realloc(a->old, (a->nold + 1) * sizeof(*old));

		if (!old)
			return NULL;
		a->old = old;
		if (a->blk)
			a->old[a->nold++] = a->blk;
		a->blk = malloc(cap);
		if (!a->blk)
			return NULL;
		a->used = 0;
		a->cap = cap;
	}
	p = a->blk + a->used;
	memcpy(p, s, n);
	a->used += n;
	return p;
}

static void arena_free(struct profiles_arena *a)
{
	size_t i;

	for (i = 0; i < a->nold; i++)
		free(a->old[i]);
	free(a->old);
	free(a->blk);
}

/* Room for element @n of the array *@p (doubling *@cap); 0 or -1. */
static int grow(void **p, size_t *cap, size_t n, size_t size)
{
	size_t ncap = *cap ? *cap * 2 : 256;
	void *np;

	if (n < *cap)
		return 0;
	np = realloc(*p, ncap * size);
	if (!np)
		return -1;
	*p = np;
	*cap = ncap;
	return 0;
}

/* ---- the experiment's variants -------------------------------------------- */

struct variants {
	int64_t id[PROFILES_MAX_SIDES];
	const char *name[PROFILES_MAX_SIDES];
	size_t nr;
	size_t pick; /* index of the named variant; 0: none named */
};

/* The variants of @exp, the control first, and @name's index. */
static int load_variants(sqlite3 *db, int64_t exp, const char *name,
			 struct variants *v, struct profiles_arena *a,
			 struct lab_err *e)
{
	sqlite3_stmt *st;
	size_t i;
	int rc;

	if (exp < 0 ||
	    db_int(db, 0, "SELECT count(*) FROM experiments WHERE id = ?", 1,
		   exp) != 1)
		return lab_fail(e, LAB_NOT_FOUND, "no such experiment");
	st = db_prepare(db,
			"SELECT id, name FROM variants WHERE experiment_id = ?"
			" ORDER BY is_control DESC, idx");
	if (!st)
		return lab_fail_db(e, db);
	sqlite3_bind_int64(st, 1, exp);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW &&
	       v->nr < PROFILES_MAX_SIDES) {
		v->id[v->nr] = sqlite3_column_int64(st, 0);
		v->name[v->nr] = arena_strdup(a, sqlite3_column_text(st, 1));
		if (!v->name[v->nr++])
			break;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return lab_fail_db(e, db);
	if (v->nr < 2)
		return lab_fail(e, LAB_CONFLICT,
				"experiment %lld has no variant to compare",
				(long long)exp);
	v->pick = 0;
	if (!name)
		return 0;
	for (i = 1; i < v->nr; i++)
		if (!strcmp(v->name[i], name))
			v->pick = i;
	if (!v->pick && strcmp(v->name[0], name))
		return lab_fail(e, LAB_NOT_FOUND,
				"no variant named '%s' in experiment %lld",
				name, (long long)exp);
	if (!v->pick)
		return lab_fail(e, LAB_INVALID,
				"variant '%s' is the control (the baseline)",
				name);
	return 0;
}

/* ---- perf diff sides -------------------------------------------------------- */

static void free_side(struct perfdiff_side *s)
{
	size_t r;

	for (r = 0; r < s->nr_runs; r++)
		free((void *)s->runs[r].syms);
	free((void *)s->runs);
	s->runs = NULL;
	s->nr_runs = 0;
}

static int load_symbols(const struct perfdiff_kind *k, sqlite3_stmt *st,
			int64_t run, struct perfdiff_run *p,
			struct profiles_arena *a)
{
	struct perfdiff_sym *syms = NULL;
	size_t n = 0, cap = 0, f;
	int rc;

	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, run);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (grow((void **)&syms, &cap, n, sizeof(*syms)))
			break;
		memset(&syms[n], 0, sizeof(syms[n]));
		syms[n].dso = arena_strdup(a, sqlite3_column_text(st, 0));
		syms[n].name = arena_strdup(a, sqlite3_column_text(st, 1));
		for (f = 0; f < k->nr_figures; f++)
			syms[n].count[f] = sqlite3_column_int64(st, 2 + f);
		if (!syms[n].dso || !syms[n].name)
			break;
		n++;
	}
	p->syms = syms;
	p->nr_syms = n;
	return rc == SQLITE_DONE ? 0 : -1;
}

/* The runs of variant @vid with profiles of kind @sk as side @side. */
static int load_side(const struct stored_kind *sk, sqlite3_stmt *runs,
		     sqlite3_stmt *syms, int64_t vid,
		     struct perfdiff_side *side, struct profiles_arena *a)
{
	const struct perfdiff_kind *k = sk->kind;
	struct perfdiff_run *p, *np;
	size_t i;
	int step;

	sqlite3_reset(runs);
	sqlite3_bind_int64(runs, 1, vid);
	while ((step = sqlite3_step(runs)) == SQLITE_ROW) {
		p = realloc((void *)side->runs,
			    (side->nr_runs + 1) * sizeof(*p));
		if (!p)
			return -1;
		side->runs = p;
		np = &p[side->nr_runs++];
		memset(np, 0, sizeof(*np));
		np->event = arena_strdup(a, sqlite3_column_text(runs, 1));
		for (i = 0; i < k->nr_counters; i++)
			np->counter[i] = sqlite3_column_int64(runs, 2 + i);
		if (!np->event ||
		    load_symbols(k, syms, sqlite3_column_int64(runs, 0), np, a))
			return -1;
	}
	return step == SQLITE_DONE ? 0 : -1;
}

/* The control and the picked variant(s) with profiles of kind @sk. */
static int load_sides(sqlite3 *db, const struct stored_kind *sk,
		      const struct variants *v, struct profiles_diff *d,
		      struct lab_err *e)
{
	sqlite3_stmt *runs = db_prepare(db, sk->runs);
	sqlite3_stmt *syms = db_prepare(db, sk->syms);
	size_t i;
	int rc = -1;

	d->kind = sk->kind;
	if (!runs || !syms) {
		lab_fail_db(e, db);
		goto out;
	}
	for (i = 0; i < v->nr; i++) {
		struct perfdiff_side *s = &d->sides[d->nr_sides];

		if (i && v->pick && i != v->pick)
			continue;
		s->name = v->name[i];
		d->nr_sides++;
		if (load_side(sk, runs, syms, v->id[i], s, &d->strings)) {
			lab_fail_db(e, db);
			goto out;
		}
		if (s->nr_runs)
			continue;
		if (!i || v->pick) {
			lab_fail(e, LAB_CONFLICT, "variant '%s' has no %s yet",
				 v->name[i], sk->kind->runs);
			goto out;
		}
		/* all variants: leave out one without profiles (failed build) */
		free_side(s);
		d->nr_sides--;
	}
	rc = d->nr_sides < 2 ?
		     lab_fail(e, LAB_CONFLICT, "no variant has %s yet",
			      sk->kind->runs) :
		     0;
out:
	sqlite3_finalize(runs);
	sqlite3_finalize(syms);
	return rc;
}

static void free_sides(struct profiles_diff *d)
{
	size_t i;

	for (i = 0; i < d->nr_sides; i++)
		free_side(&d->sides[i]);
	d->nr_sides = 0;
}

/* The sides of @exp's perf diff, of @kind or the first kind they have. */
static int load_diff(sqlite3 *db, int64_t exp, const char *variant,
		     const struct perfdiff_kind *kind, struct profiles_diff *d,
		     struct lab_err *e)
{
	struct variants v = { .nr = 0 };
	size_t i;

	if (load_variants(db, exp, variant, &v, &d->strings, e))
		return -1;
	d->sampled_runs =
		db_int(db, 0,
		       "SELECT count(*) FROM profiles p JOIN runs r"
		       " ON r.id = p.run_id WHERE r.experiment_id = ?",
		       1, exp);
	for (i = 0; i < NR_KINDS; i++) {
		if (kind && kinds[i].kind != kind)
			continue;
		free_sides(d);
		if (!load_sides(db, &kinds[i], &v, d, e))
			return 0;
		/* guessing: a kind the sides lack, try the next one */
		if (e->st != LAB_CONFLICT || kind || i + 1 == NR_KINDS)
			return -1;
	}
	return lab_fail(e, LAB_INVALID, "unknown kind of profile");
}

struct perfdiff_result *profiles_perfdiff(store_conn *db, int64_t exp,
					  const char *variant,
					  const struct perfdiff_kind *kind,
					  const struct perfdiff_opts *o,
					  struct profiles_diff *d,
					  struct lab_err *e)
{
	struct perfdiff_result *r;
	char err[256];

	memset(d, 0, sizeof(*d));
	if (load_diff(db, exp, variant, kind, d, e))
		return NULL;
	if ((size_t)o->sort_idx >= d->nr_sides) {
		lab_fail(e, LAB_INVALID, "order: only %zu variant(s) compared",
			 d->nr_sides - 1);
		return NULL;
	}
	r = perfdiff_compute(d->kind, d->sides, d->nr_sides, o, err,
			     sizeof(err));
	if (!r)
		lab_fail(e,
			 strstr(err, "out of memory") ? LAB_INTERNAL :
							LAB_REJECTED,
			 "profiles cannot be compared: %s", err);
	return r;
}

void profiles_diff_free(struct profiles_diff *d)
{
	free_sides(d);
	arena_free(&d->strings);
}

/* ---- flame graph stacks ----------------------------------------------------- */

/* Folded stacks of variant @vid summed over its runs. */
static int load_stacks(sqlite3 *db, int64_t vid, struct fg_stack **out,
		       size_t *nr, struct profiles_arena *a)
{
	sqlite3_stmt *st = db_prepare(
		db, "SELECT s.folded, sum(ps.samples) FROM profile_stacks ps"
		    " JOIN stacks s ON s.id = ps.stack_id"
		    " JOIN runs r ON r.id = ps.run_id"
		    " WHERE r.variant_id = ? GROUP BY ps.stack_id");
	struct fg_stack *v = NULL;
	size_t n = 0, cap = 0;
	int rc;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, vid);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (grow((void **)&v, &cap, n, sizeof(*v)))
			break;
		v[n].folded = arena_strdup(a, sqlite3_column_text(st, 0));
		v[n].samples = sqlite3_column_int64(st, 1);
		if (!v[n].folded)
			break;
		n++;
	}
	sqlite3_finalize(st);
	*out = v;
	*nr = n;
	return rc == SQLITE_DONE ? 0 : -1;
}

int profiles_stacks(store_conn *db, int64_t exp, const char *variant,
		    struct profiles_stacks *s, struct lab_err *e)
{
	struct variants v = { .nr = 0 };

	memset(s, 0, sizeof(*s));
	if (load_variants(db, exp, variant, &v, &s->strings, e))
		return -1;
	if (!v.pick && v.nr > 2)
		return lab_fail(
			e, LAB_INVALID,
			"variant: name the variant to compare with the control");
	v.pick = v.pick ? v.pick : 1;
	s->base_name = v.name[0];
	s->new_name = v.name[v.pick];
	if (load_stacks(db, v.id[0], &s->base, &s->nr_base, &s->strings) ||
	    load_stacks(db, v.id[v.pick], &s->new, &s->nr_new, &s->strings))
		return lab_fail_db(e, db);
	if (!s->nr_new)
		return lab_fail(e, LAB_CONFLICT,
				"variant '%s' has no call stacks recorded",
				s->new_name);
	return 0;
}

void profiles_stacks_free(struct profiles_stacks *s)
{
	free(s->base);
	free(s->new);
	arena_free(&s->strings);
}
