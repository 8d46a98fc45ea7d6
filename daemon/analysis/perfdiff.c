// SPDX-License-Identifier: MIT
/*
 * perfdiff - compute and sort a perf diff (see perfdiff.h).
 *
 * Symbols are interned in a symtab keyed by (dso, name); each row has one
 * accumulator per side holding each figure's pending count of the current
 * run and Welford's running mean over the runs the symbol was in. A
 * symbol named twice in one run adds up before the run's value is taken;
 * runs without it count as 0 when the side is closed.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/analysis/perfdiff.h"
#include "daemon/analysis/perfdiff_noise.h"
#include "daemon/analysis/symtab.h"

/* Welford's running statistics over the runs that had the value. */
struct welford {
	size_t n;
	double mean, m2, min, max;
};

struct fig_acc {
	uint64_t cur; /* pending count of the current run */
	uint64_t count;
	struct welford w;
};

struct acc {
	int64_t stamp; /* run the pending counts belong to */
	uint64_t norm; /* of that run */
	struct fig_acc f[]; /* [kind->nr_figures] */
};

static int errf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static inline void welford_add(struct welford *a, double x)
{
	double d = x - a->mean;

	if (!a->n || x < a->min)
		a->min = x;
	if (!a->n || x > a->max)
		a->max = x;
	a->n++;
	a->mean += d / (double)a->n;
	a->m2 += d * (x - a->mean);
}

/* Close @a over @runs runs: the runs without a value count as 0. */
static void welford_close(struct welford *a, size_t runs,
			  struct perfdiff_stat *s)
{
	size_t n0 = runs - a->n;
	double d;

	if (n0) {
		d = a->mean;
		a->m2 += d * d * (double)a->n * (double)n0 / (double)runs;
		a->mean = a->mean * (double)a->n / (double)runs;
		a->min = a->n ? fmin(a->min, 0) : 0;
		a->max = a->n ? fmax(a->max, 0) : 0;
		a->n = runs;
	}
	s->mean = a->mean;
	s->min = a->min;
	s->max = a->max;
	s->sd = runs >= 2 ? sqrt(fmax(a->m2, 0) / (double)(runs - 1)) : NAN;
}

static inline void acc_flush(const struct perfdiff_kind *k, struct acc *a)
{
	size_t f, nf = k->nr_figures;
	double scale = k->scale, norm = (double)a->norm;

	if (!a->norm)
		return;
	for (f = 0; f < nf; f++) {
		welford_add(&a->f[f].w, (double)a->f[f].cur * scale / norm);
		a->f[f].cur = 0;
	}
	a->norm = 0;
}

static int check_run(const struct perfdiff_kind *k,
		     const struct perfdiff_run *p, const char *event,
		     const char *side, size_t run, char *err, size_t errlen)
{
	uint64_t sum[PERFDIFF_MAX_FIGURES] = { 0 }, c;
	size_t i, f;

	/* like perf diff, only profiles of the same event compare */
	if (strcmp(p->event ? p->event : "", event))
		return errf(err, errlen,
			    "%s: run %zu: %s '%s' is not the baseline's '%s'",
			    side, run, k->event_key, p->event ? p->event : "",
			    event);
	if (!p->counter[0])
		return errf(err, errlen, "%s: run %zu: %s", side, run,
			    k->empty);
	for (f = 0; f < k->nr_figures; f++)
		if (k->figures[f].outside >= 0)
			sum[f] = p->counter[k->figures[f].outside];
	for (i = 0; i < p->nr_syms; i++) {
		if (!p->syms[i].dso || !p->syms[i].name)
			return errf(err, errlen,
				    "%s: run %zu: symbol without name", side,
				    run);
		for (f = 0; f < k->nr_figures; f++) {
			c = p->syms[i].count[f];
			sum[f] += c;
			if (sum[f] < c)
				sum[f] = UINT64_MAX; /* above any total */
		}
	}
	for (f = 0; f < k->nr_figures; f++) {
		int t = k->figures[f].total;

		if (t >= 0 && sum[f] > p->counter[t])
			return errf(err, errlen,
				    "%s: run %zu: symbol %s (%" PRIu64
				    ") exceed the total (%" PRIu64 ")",
				    side, run, k->figures[f].name, sum[f],
				    p->counter[t]);
	}
	return 0;
}

static inline bool all_zero(const struct perfdiff_sym *y, size_t nf)
{
	size_t f;

	for (f = 0; f < nf; f++)
		if (y->count[f])
			return false;
	return true;
}

/* Add the runs of side @s to the table. */
static int add_side(struct perfdiff_result *r, struct symtab *t,
		    const struct perfdiff_side *side, size_t s, int64_t *stamp,
		    char *err, size_t errlen)
{
	const struct perfdiff_kind *k = r->kind;
	struct perfdiff_side_info *info = &r->sides[s];
	size_t run, i, f, nf = k->nr_figures;

	info->name = side->name ? side->name : "";
	info->nr_runs = side->nr_runs;
	if (!side->nr_runs)
		return errf(err, errlen, "%s: no %s", info->name, k->runs);
	for (run = 0; run < side->nr_runs; run++) {
		const struct perfdiff_run *p = &side->runs[run];

		if (check_run(k, p, r->event, info->name, run, err, errlen))
			return -1;
		for (i = 0; i < k->nr_counters; i++)
			info->counter[i] += p->counter[i];
		++*stamp;
		for (i = 0; i < p->nr_syms; i++) {
			const struct perfdiff_sym *y = &p->syms[i];
			struct acc *a;
			long row;

			if (all_zero(y, nf))
				continue;
			row = symtab_get(t, y->dso, y->name);
			if (row < 0)
				return errf(err, errlen, "out of memory");
			a = symtab_acc(t, row, s);
			if (a->stamp != *stamp) {
				acc_flush(k, a);
				a->stamp = *stamp;
				a->norm = p->counter[0];
			}
			for (f = 0; f < nf; f++) {
				a->f[f].cur += y->count[f];
				a->f[f].count += y->count[f];
			}
		}
	}
	return 0;
}

/* The side's counters per norm, run by run (the totals per IO). */
static void side_stats(struct perfdiff_result *r,
		       const struct perfdiff_side *side, size_t s)
{
	const struct perfdiff_kind *k = r->kind;
	size_t i, run;

	for (i = 0; i < k->nr_counters; i++) {
		struct welford w = { .n = 0 };

		for (run = 0; run < side->nr_runs; run++) {
			const struct perfdiff_run *p = &side->runs[run];

			welford_add(&w, (double)p->counter[i] * k->scale /
						(double)p->counter[0]);
		}
		welford_close(&w, side->nr_runs, &r->sides[s].per[i]);
	}
}

double perfdiff_value(const struct perfdiff_result *r,
		      const struct perfdiff_cell *c, size_t f)
{
	return r->kind->pooled ? c->v[f].pooled : c->v[f].run.mean;
}

/* The value of counter @i of side @s, as perfdiff_value() of a cell. */
static double side_value(const struct perfdiff_result *r, size_t s, int i)
{
	const struct perfdiff_side_info *si = &r->sides[s];

	if (r->kind->pooled)
		return (double)si->counter[i] * r->kind->scale /
		       (double)si->counter[0];
	return si->per[i].mean;
}

static int unstable(const struct perfdiff_stat *s, size_t runs,
		    const struct perfdiff_opts *o)
{
	if (runs < 2)
		return -1;
	return s->max - s->min > o->tol_abs + o->tol_rel * fabs(s->mean);
}

static void fill_cell(struct perfdiff_result *r, struct perfdiff_cell *c,
		      struct acc *a, size_t s)
{
	const struct perfdiff_kind *k = r->kind;
	const struct perfdiff_side_info *si = &r->sides[s];
	size_t f;

	acc_flush(k, a);
	c->noise = -1;
	c->p_value = NAN;
	c->unstable = -1;
	for (f = 0; f < k->nr_figures; f++) {
		struct perfdiff_value *v = &c->v[f];
		int t = k->figures[f].total;
		double tv;

		v->count = a->f[f].count;
		c->present |= v->count > 0;
		v->pooled =
			(double)v->count * k->scale / (double)si->counter[0];
		welford_close(&a->f[f].w, si->nr_runs, &v->run);
		tv = t >= 0 ? side_value(r, s, t) : 0;
		v->share = tv > 0 ? perfdiff_value(r, c, f) * 100 / tv : 0;
		if (k->exact && si->nr_runs >= 2)
			c->unstable = c->unstable == 1 ||
				      unstable(&v->run, si->nr_runs, &r->opts);
	}
	if (c->unstable == 1)
		r->sides[s].nr_unstable++;
}

static void compare_cell(struct perfdiff_result *r, struct perfdiff_cell *c,
			 const struct perfdiff_cell *b, size_t s)
{
	const struct perfdiff_kind *k = r->kind;
	uint64_t bc = b->v[0].count, nc = c->v[0].count;
	size_t f;

	for (f = 0; f < k->nr_figures; f++)
		c->v[f].delta =
			perfdiff_value(r, c, f) - perfdiff_value(r, b, f);
	c->has_pair = c->present;
	if (!c->has_pair)
		return;
	/* builtin-diff.c compute_ratio/wdiff */
	c->ratio = (double)nc / (double)(bc ? bc : 1);
	c->wdiff = (int64_t)nc * r->opts.w2 - (int64_t)bc * r->opts.w1;
	/* Welch's test of the mean per-run value; noise set by the marks */
	if (k->noise)
		c->p_value = perfdiff_noise_welch_p(
			c->v[0].delta, b->v[0].run.sd * b->v[0].run.sd,
			r->sides[0].nr_runs, c->v[0].run.sd * c->v[0].run.sd,
			r->sides[s].nr_runs);
}

/*
 * Benjamini-Hochberg across the symbols of each compared side: a delta is
 * real when its p-value is among the discoveries at PERFDIFF_NOISE_FDR,
 * noise otherwise. Testing thousands of symbols one by one at 5 % would
 * mark dozens of noise deltas real in every A/A diff.
 */
static int mark_noise(struct perfdiff_result *r)
{
	size_t s, i, nr = r->nr_rows;
	unsigned char *real = malloc(nr ? nr : 1);
	double *p = calloc(nr ? nr : 1, sizeof(*p));
	int rc = -1;

	if (!real || !p)
		goto out;
	for (s = 1; s < r->nr_sides; s++) {
		for (i = 0; i < nr; i++)
			p[i] = r->rows[i].cells[s].has_pair ?
				       r->rows[i].cells[s].p_value :
				       NAN;
		if (perfdiff_noise_bh(p, nr, PERFDIFF_NOISE_FDR, real))
			goto out;
		for (i = 0; i < nr; i++)
			if (!isnan(p[i]))
				r->rows[i].cells[s].noise = !real[i];
	}
	rc = 0;
out:
	free(real);
	free(p);
	return rc;
}

/*
 * A row's cells and their values lie next to each other in one block, so
 * reading a row (in sorted order) touches few cache lines.
 */
static int build_rows(struct perfdiff_result *r, struct symtab *t)
{
	size_t i, s, n = r->nr_sides, nf = r->kind->nr_figures;
	size_t cells = n * sizeof(struct perfdiff_cell);
	size_t block = cells + n * nf * sizeof(struct perfdiff_value);
	size_t nr = t->nr ? t->nr : 1;

	r->store = calloc(nr, block);
	r->rows = calloc(nr, sizeof(*r->rows));
	if (!r->store || !r->rows)
		return -1;
	for (i = 0; i < t->nr; i++) {
		struct perfdiff_row *row = &r->rows[i];
		char *b = (char *)r->store + i * block;

		row->dso = t->dso[i];
		row->name = t->name[i];
		row->cells = (struct perfdiff_cell *)b;
		for (s = 0; s < n; s++) {
			row->cells[s].v =
				(struct perfdiff_value *)(b + cells) + s * nf;
			fill_cell(r, &row->cells[s], symtab_acc(t, i, s), s);
		}
		for (s = 1; s < n; s++)
			compare_cell(r, &row->cells[s], &row->cells[0], s);
	}
	r->nr_symbols = r->nr_rows = t->nr;
	return r->kind->noise ? mark_noise(r) : 0;
}

/* ---- sorting ------------------------------------------------------------ */

static enum perfdiff_sort effective_sort(const struct perfdiff_kind *k,
					 const struct perfdiff_opts *o)
{
	size_t i;

	if (o->sort == PERFDIFF_SORT_DSO || o->sort == PERFDIFF_SORT_SYMBOL)
		return o->sort;
	for (i = 0; o->sort != PERFDIFF_SORT_DEFAULT && i < k->nr_fields; i++)
		if (k->fields[i].sort == o->sort)
			return o->sort;
	if (!k->computes)
		return PERFDIFF_SORT_DELTA_ABS;
	switch (o->compute) {
	case PERFDIFF_RATIO:
		return PERFDIFF_SORT_RATIO;
	case PERFDIFF_WDIFF:
		return PERFDIFF_SORT_WDIFF;
	default:
		return PERFDIFF_SORT_DELTA_ABS;
	}
}

/* Sort key of one row, compact so the sort stays in cache. */
struct skey {
	double v, tie[2];
	uint32_t idx;
	bool has;
};

static bool num_of(const struct perfdiff_val *x, double *v)
{
	if (x->type == PERFDIFF_NUM)
		*v = x->num;
	else if (x->type == PERFDIFF_INT || x->type == PERFDIFF_BOOL)
		*v = (double)x->i;
	else
		return false;
	return true;
}

static int cmp_names(const struct perfdiff_row *a, const struct perfdiff_row *b)
{
	int c = strcmp(a->dso, b->dso);

	return c ? c : strcmp(a->name, b->name);
}

static int cmp_keys(const void *pa, const void *pb, void *arg)
{
	const struct perfdiff_result *r = arg;
	const struct skey *a = pa, *b = pb;
	const struct perfdiff_row *ra = &r->rows[a->idx],
				  *rb = &r->rows[b->idx];
	int c, i;

	if (r->sort == PERFDIFF_SORT_DSO || r->sort == PERFDIFF_SORT_SYMBOL) {
		c = r->sort == PERFDIFF_SORT_DSO ? strcmp(ra->dso, rb->dso) :
						   strcmp(ra->name, rb->name);
		if (c)
			return c;
	} else {
		if (a->has != b->has)
			return a->has ? -1 : 1;
		if (a->has && a->v != b->v)
			return a->v > b->v ? -1 : 1;
	}
	/* ties: the kind's tie fields (the larger symbol first), then names */
	for (i = 0; i < 2; i++)
		if (a->tie[i] != b->tie[i])
			return a->tie[i] > b->tie[i] ? -1 : 1;
	return cmp_names(ra, rb);
}

/* The kind's fields a sort reads: the sort key's and the two ties. */
struct sort_fields {
	const struct perfdiff_field *key, *tie[2];
};

static void sort_fields(const struct perfdiff_result *r, struct sort_fields *sf)
{
	const struct perfdiff_kind *k = r->kind;
	size_t j;

	*sf = (struct sort_fields){ NULL };
	for (j = 0; j < k->nr_fields; j++) {
		const struct perfdiff_field *fl = &k->fields[j];

		if (fl->sort == r->sort)
			sf->key = fl;
		if (fl->tie == 1 || fl->tie == 2)
			sf->tie[fl->tie - 1] = fl;
	}
}

static bool field_num(const struct perfdiff_result *r,
		      const struct perfdiff_row *row,
		      const struct perfdiff_field *fl, double *v)
{
	struct perfdiff_val x = { .type = PERFDIFF_NONE };

	fl->get(r, row, fl->side == PERFDIFF_BASE ? 0 : r->opts.sort_idx, &x);
	return num_of(&x, v);
}

static void sort_key(const struct perfdiff_result *r,
		     const struct sort_fields *sf, size_t i, struct skey *k)
{
	const struct perfdiff_row *row = &r->rows[i];
	int t;

	*k = (struct skey){ .idx = i };
	if (sf->key)
		k->has = field_num(r, row, sf->key, &k->v);
	for (t = 0; t < 2; t++)
		if (sf->tie[t] && !field_num(r, row, sf->tie[t], &k->tie[t]))
			k->tie[t] = 0;
}

static int sort_rows(struct perfdiff_result *r)
{
	size_t i, n = r->nr_rows ? r->nr_rows : 1;
	struct skey *k = malloc(n * sizeof(*k));
	struct sort_fields sf;
	struct perfdiff_row *sorted = malloc(n * sizeof(*sorted));

	if (!k || !sorted) {
		free(k);
		free(sorted);
		return -1;
	}
	sort_fields(r, &sf);
	for (i = 0; i < r->nr_rows; i++)
		sort_key(r, &sf, i, &k[i]);
	qsort_r(k, r->nr_rows, sizeof(*k), cmp_keys, r);
	for (i = 0; i < r->nr_rows; i++)
		sorted[i] = r->rows[k[i].idx];
	free(r->rows);
	r->rows = sorted;
	free(k);
	return 0;
}

/* ---- top symbols ------------------------------------------------------- */

static int cmp_top_name(const void *pa, const void *pb)
{
	const struct perfdiff_top *a = pa, *b = pb;

	return strcmp(a->name, b->name);
}

static int cmp_top_value(const void *pa, const void *pb)
{
	const struct perfdiff_top *a = pa, *b = pb;
	double x = fmax(a->base, a->new), y = fmax(b->base, b->new);

	if (x != y)
		return x > y ? -1 : 1;
	/* ties: the larger baseline (the control's list came first) */
	if (a->base != b->base)
		return a->base > b->base ? -1 : 1;
	return strcmp(a->name, b->name);
}

size_t perfdiff_top(const struct perfdiff_result *r, size_t s,
		    struct perfdiff_top *out, size_t max)
{
	struct perfdiff_top *t = malloc((r->nr_rows + 1) * sizeof(*t));
	size_t i, n = 0;

	if (!t || s < 1 || s >= r->nr_sides) {
		free(t);
		return 0;
	}
	for (i = 0; i < r->nr_rows; i++) {
		const struct perfdiff_row *row = &r->rows[i];

		t[i] = (struct perfdiff_top){
			row->name, perfdiff_value(r, &row->cells[0], 0),
			perfdiff_value(r, &row->cells[s], 0)
		};
	}
	qsort(t, r->nr_rows, sizeof(*t), cmp_top_name);
	for (i = 0; i < r->nr_rows; i++) {
		if (n && !strcmp(t[n - 1].name, t[i].name)) {
			t[n - 1].base += t[i].base;
			t[n - 1].new += t[i].new;
		} else {
			t[n++] = t[i];
		}
	}
	qsort(t, n, sizeof(*t), cmp_top_value);
	n = n < max ? n : max;
	memcpy(out, t, n * sizeof(*t));
	free(t);
	return n;
}

/* ---- compute ------------------------------------------------------------ */

static bool opts_ok(const struct perfdiff_kind *k,
		    const struct perfdiff_opts *o, size_t nr_sides)
{
	return k->nr_figures >= 1 && k->nr_figures <= PERFDIFF_MAX_FIGURES &&
	       k->nr_counters >= 1 && k->nr_counters <= PERFDIFF_MAX_COUNTERS &&
	       o->sort_idx >= 1 && (size_t)o->sort_idx < nr_sides && o->w1 &&
	       o->w2 && o->tol_abs >= 0 && o->tol_rel >= 0;
}

/* Room for the symbols of every side's first run without rehashing. */
static int symtab_presize(struct symtab *t, const struct perfdiff_side *sides,
			  size_t nr_sides)
{
	size_t want = 0, s;

	for (s = 0; s < nr_sides; s++)
		if (sides[s].nr_runs)
			want += sides[s].runs[0].nr_syms;
	want = want > (1u << 24) ? 1u << 24 : want;
	return symtab_reserve(t, want);
}

static int add_sides(struct perfdiff_result *r, struct symtab *t,
		     const struct perfdiff_side *sides, char *err,
		     size_t errlen)
{
	int64_t stamp = 0;
	size_t s;

	for (s = 0; s < r->nr_sides; s++) {
		if (add_side(r, t, &sides[s], s, &stamp, err, errlen))
			return -1;
		side_stats(r, &sides[s], s);
		if (r->kind->exact)
			r->sides[s].unstable = unstable(
				&r->sides[s].per[r->kind->figures[0].total],
				sides[s].nr_runs, &r->opts);
	}
	return 0;
}

struct perfdiff_result *perfdiff_compute(const struct perfdiff_kind *kind,
					 const struct perfdiff_side *sides,
					 size_t nr_sides,
					 const struct perfdiff_opts *opts,
					 char *err, size_t errlen)
{
	struct perfdiff_result *r;
	struct symtab t;

	if (nr_sides < 2) {
		errf(err, errlen,
		     "perf diff needs a baseline and at least one other profile");
		return NULL;
	}
	if (!opts_ok(kind, opts, nr_sides)) {
		errf(err, errlen, "bad perf diff options");
		return NULL;
	}
	symtab_init(&t,
		    sizeof(struct acc) +
			    kind->nr_figures * sizeof(struct fig_acc),
		    nr_sides);
	r = calloc(1, sizeof(*r));
	if (!r)
		goto oom;
	r->kind = kind;
	r->opts = *opts;
	r->sort = effective_sort(kind, opts);
	r->nr_sides = nr_sides;
	r->sides = calloc(nr_sides, sizeof(*r->sides));
	if (!r->sides || symtab_presize(&t, sides, nr_sides))
		goto oom;
	r->event = sides[0].nr_runs && sides[0].runs[0].event ?
			   sides[0].runs[0].event :
			   "";
	if (add_sides(r, &t, sides, err, errlen))
		goto fail;
	if (build_rows(r, &t) || sort_rows(r))
		goto oom;
	if (opts->limit && opts->limit < r->nr_rows)
		r->nr_rows = opts->limit;
	symtab_free(&t);
	return r;
oom:
	errf(err, errlen, "out of memory");
fail:
	symtab_free(&t);
	perfdiff_free(r);
	return NULL;
}

void perfdiff_free(struct perfdiff_result *r)
{
	if (!r)
		return;
	free(r->sides);
	free(r->rows);
	free(r->store);
	free(r);
}
