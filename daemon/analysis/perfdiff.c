// SPDX-License-Identifier: MIT
/*
 * perf diff of aggregated profiles (see perfdiff.h for the definitions).
 *
 * Symbols are interned in a symtab keyed by (dso, name); each distinct
 * symbol gets a row with one accumulator per side. A run's per-symbol share is linear in its samples, so duplicates
 * within a run add up before the share is squared for the stddev.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/analysis/perfdiff.h"
#include "daemon/analysis/perfdiff_noise.h"
#include "daemon/analysis/symtab.h"

struct acc {
	uint64_t samples;
	double sum; /* of per-run percent */
	double sumsq;
	double cur; /* percent in run @stamp, not yet squared */
	int64_t stamp;
};

/* Room for the symbols of every side's first run without rehashing. */
static int symtab_presize(struct symtab *t, const struct pd_side *sides,
			  size_t nr_sides)
{
	size_t want = 0, s;

	for (s = 0; s < nr_sides; s++)
		if (sides[s].nr_runs)
			want += sides[s].runs[0].nr_syms;
	want = want > (1u << 24) ? 1u << 24 : want;
	return symtab_reserve(t, want);
}

static void acc_flush(struct acc *a)
{
	a->sum += a->cur;
	a->sumsq += a->cur * a->cur;
	a->cur = 0;
}

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

static int check_run(const struct pd_profile *p, const char *event,
		     const char *side, size_t run, char *err, size_t errlen)
{
	uint64_t sum = 0;
	size_t i;

	/* like perf diff, only profiles of the same event compare */
	if (strcmp(p->event ? p->event : "", event))
		return errf(
			err, errlen,
			"%s: run %zu: event '%s' is not the baseline's '%s'",
			side, run, p->event ? p->event : "", event);
	if (p->total == 0)
		return errf(err, errlen, "%s: run %zu has an empty profile",
			    side, run);
	for (i = 0; i < p->nr_syms; i++) {
		if (!p->syms[i].dso || !p->syms[i].name)
			return errf(err, errlen,
				    "%s: run %zu: symbol without name", side,
				    run);
		sum += p->syms[i].samples;
	}
	if (sum > p->total)
		return errf(err, errlen,
			    "%s: run %zu: symbol samples (%" PRIu64
			    ") exceed the total (%" PRIu64 ")",
			    side, run, sum, p->total);
	return 0;
}

/* Add the runs of side @s to the table. */
static int add_side(struct symtab *t, const struct pd_side *side, size_t s,
		    const char *event, struct pd_side_info *info,
		    int64_t *stamp, char *err, size_t errlen)
{
	size_t r, i;

	info->name = side->name ? side->name : "";
	info->nr_runs = side->nr_runs;
	if (!side->nr_runs)
		return errf(err, errlen, "%s: no profiled runs", info->name);
	for (r = 0; r < side->nr_runs; r++) {
		const struct pd_profile *p = &side->runs[r];
		double scale;

		if (check_run(p, event, info->name, r, err, errlen))
			return -1;
		scale = 100.0 / (double)p->total;
		info->total += p->total;
		info->lost += p->lost;
		++*stamp;
		for (i = 0; i < p->nr_syms; i++) {
			const struct pd_sym *y = &p->syms[i];
			struct acc *a;
			long row;

			if (!y->samples)
				continue;
			row = symtab_get(t, y->dso, y->name);
			if (row < 0)
				return errf(err, errlen, "out of memory");
			a = symtab_acc(t, row, s);
			if (a->stamp != *stamp) {
				acc_flush(a);
				a->stamp = *stamp;
			}
			a->samples += y->samples;
			a->cur += (double)y->samples * scale;
		}
	}
	return 0;
}

static void fill_cell(struct pd_cell *c, struct acc *a,
		      const struct pd_side_info *si)
{
	double n = (double)si->nr_runs, var;

	acc_flush(a);
	c->present = a->samples > 0;
	c->samples = a->samples;
	c->percent = (double)a->samples * 100.0 / (double)si->total;
	c->stddev = NAN;
	c->noise = -1;
	c->p_value = NAN;
	if (si->nr_runs >= 2) {
		var = (a->sumsq - a->sum * a->sum / n) / (n - 1);
		c->stddev = var > 0 ? sqrt(var) : 0.0;
	}
}

static void compare_cell(struct pd_cell *c, const struct pd_cell *b,
			 const struct pd_result *r, size_t s)
{
	c->has_pair = c->present;
	if (!c->has_pair)
		return;
	/* builtin-diff.c compute_delta/ratio/wdiff */
	c->delta = c->percent - b->percent;
	c->ratio = (double)c->samples / (double)(b->samples ? b->samples : 1);
	c->wdiff = (int64_t)c->samples * r->opts.w2 -
		   (int64_t)b->samples * r->opts.w1;
	/* Welch's test of the mean per-run share; noise set by mark_noise() */
	c->p_value = pd_welch_p(c->delta, b->stddev * b->stddev,
				r->sides[0].nr_runs, c->stddev * c->stddev,
				r->sides[s].nr_runs);
}

/*
 * Benjamini-Hochberg across the symbols of each compared side: a delta is
 * real when its p-value is among the discoveries at PD_NOISE_FDR, noise
 * otherwise. Testing thousands of symbols one by one at 5 % would mark
 * dozens of noise deltas real in every A/A diff.
 */
static int mark_noise(struct pd_result *r, size_t nr)
{
	unsigned char *real = malloc(nr ? nr : 1);
	double *p = malloc((nr ? nr : 1) * sizeof(*p));
	size_t s, i;
	int rc = -1;

	if (!real || !p)
		goto out;
	for (s = 1; s < r->nr_sides; s++) {
		for (i = 0; i < nr; i++)
			p[i] = r->rows[i].cells[s].has_pair ?
				       r->rows[i].cells[s].p_value :
				       NAN;
		if (pd_bh(p, nr, PD_NOISE_FDR, real))
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

/* ---- sorting --------------------------------------------------------- */

/* Sort value of @row; false when the row has none (sorted last). */
static bool sort_value(const struct pd_result *r, const struct pd_row *row,
		       enum pd_sort key, double *v)
{
	const struct pd_cell *b = &row->cells[0];
	const struct pd_cell *c = &row->cells[r->opts.sort_idx];

	switch (key) {
	case PD_SORT_BASELINE:
		*v = b->percent;
		return b->present;
	case PD_SORT_NEW:
		*v = c->percent;
		return true;
	case PD_SORT_DELTA:
		*v = c->delta;
		return c->has_pair;
	case PD_SORT_DELTA_ABS:
		*v = fabs(c->delta);
		return c->has_pair;
	case PD_SORT_RATIO:
		*v = c->ratio;
		return c->has_pair && b->present;
	case PD_SORT_WDIFF:
		*v = (double)c->wdiff;
		return c->has_pair && b->present;
	case PD_SORT_STDDEV:
		*v = fmax(isnan(b->stddev) ? 0 : b->stddev,
			  isnan(c->stddev) ? 0 : c->stddev);
		return true;
	case PD_SORT_SAMPLES:
		*v = (double)(b->samples + c->samples);
		return true;
	default:
		return false;
	}
}

static enum pd_sort effective_sort(const struct pd_opts *o)
{
	if (o->sort != PD_SORT_DEFAULT)
		return o->sort;
	switch (o->compute) {
	case PD_RATIO:
		return PD_SORT_RATIO;
	case PD_WDIFF:
		return PD_SORT_WDIFF;
	default:
		return PD_SORT_DELTA_ABS;
	}
}

/* Sort key of one row, compact so the sort stays in cache. */
struct skey {
	double v;
	uint64_t bs, ns; /* baseline and sorted-side samples */
	uint32_t idx;
	bool has;
};

static int cmp_names(const struct pd_row *a, const struct pd_row *b)
{
	int c = strcmp(a->dso, b->dso);

	return c ? c : strcmp(a->name, b->name);
}

static int cmp_keys(const void *pa, const void *pb, void *arg)
{
	const struct pd_result *r = arg;
	const struct skey *a = pa, *b = pb;
	const struct pd_row *ra = &r->rows[a->idx], *rb = &r->rows[b->idx];
	enum pd_sort key = effective_sort(&r->opts);
	int c;

	if (key == PD_SORT_DSO || key == PD_SORT_SYMBOL) {
		c = key == PD_SORT_DSO ? strcmp(ra->dso, rb->dso) :
					 strcmp(ra->name, rb->name);
		if (c)
			return c;
	} else {
		if (a->has != b->has)
			return a->has ? -1 : 1;
		if (a->has && a->v != b->v)
			return a->v > b->v ? -1 : 1;
	}
	/* ties: baseline samples, new samples, then names */
	if (a->bs != b->bs)
		return a->bs > b->bs ? -1 : 1;
	if (a->ns != b->ns)
		return a->ns > b->ns ? -1 : 1;
	return cmp_names(ra, rb);
}

static int sort_rows(struct pd_result *r)
{
	enum pd_sort key = effective_sort(&r->opts);
	struct skey *k = malloc((r->nr_rows ? r->nr_rows : 1) * sizeof(*k));
	struct pd_row *sorted;
	size_t i;

	if (!k)
		return -1;
	for (i = 0; i < r->nr_rows; i++) {
		const struct pd_row *row = &r->rows[i];

		k[i].idx = i;
		k[i].v = 0;
		k[i].has = sort_value(r, row, key, &k[i].v);
		k[i].bs = row->cells[0].samples;
		k[i].ns = row->cells[r->opts.sort_idx].samples;
	}
	qsort_r(k, r->nr_rows, sizeof(*k), cmp_keys, r);
	sorted = malloc((r->nr_rows ? r->nr_rows : 1) * sizeof(*sorted));
	if (!sorted) {
		free(k);
		return -1;
	}
	for (i = 0; i < r->nr_rows; i++)
		sorted[i] = r->rows[k[i].idx];
	free(r->rows);
	r->rows = sorted;
	free(k);
	return 0;
}

/* ---- options ----------------------------------------------------------- */

void perfdiff_default_opts(struct pd_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->compute = PD_DELTA;
	o->w1 = 1;
	o->w2 = 1;
	o->sort = PD_SORT_DEFAULT;
	o->sort_idx = 1;
}

static int parse_weight(const char *s, char **end, int64_t *w)
{
	long long v;

	errno = 0;
	v = strtoll(s, end, 10);
	if (errno || *end == s || v == 0 || v > 1000000 || v < -1000000)
		return -1;
	*w = v;
	return 0;
}

int perfdiff_parse_compute(const char *s, struct pd_opts *o)
{
	char *end;

	if (!strcmp(s, "delta"))
		o->compute = PD_DELTA;
	else if (!strcmp(s, "delta-abs"))
		o->compute = PD_DELTA_ABS;
	else if (!strcmp(s, "ratio"))
		o->compute = PD_RATIO;
	else if (!strncmp(s, "wdiff:", 6)) {
		if (parse_weight(s + 6, &end, &o->w1) || *end != ',' ||
		    parse_weight(end + 1, &end, &o->w2) || *end)
			return -1;
		o->compute = PD_WDIFF;
	} else {
		return -1;
	}
	return 0;
}

static const char *const sort_names[] = {
	[PD_SORT_DEFAULT] = "default",
	[PD_SORT_BASELINE] = "baseline",
	[PD_SORT_NEW] = "new",
	[PD_SORT_DELTA] = "delta",
	[PD_SORT_DELTA_ABS] = "delta-abs",
	[PD_SORT_RATIO] = "ratio",
	[PD_SORT_WDIFF] = "wdiff",
	[PD_SORT_STDDEV] = "stddev",
	[PD_SORT_SAMPLES] = "samples",
	[PD_SORT_DSO] = "dso",
	[PD_SORT_SYMBOL] = "symbol",
};

const char *perfdiff_sort_name(const struct pd_opts *o)
{
	return sort_names[effective_sort(o)];
}

int perfdiff_parse_sort(const char *s, enum pd_sort *out)
{
	size_t i;

	for (i = 0; i < sizeof(sort_names) / sizeof(sort_names[0]); i++) {
		if (!strcmp(s, sort_names[i])) {
			*out = i;
			return 0;
		}
	}
	return -1;
}

/* ---- compute ----------------------------------------------------------- */

static int build_rows(struct pd_result *r, struct symtab *t)
{
	size_t i, s, n = r->nr_sides;

	r->cell_store = calloc(t->nr ? t->nr * n : 1, sizeof(*r->cell_store));
	r->rows = calloc(t->nr ? t->nr : 1, sizeof(*r->rows));
	if (!r->cell_store || !r->rows)
		return -1;
	for (i = 0; i < t->nr; i++) {
		struct pd_row *row = &r->rows[i];

		row->dso = t->dso[i];
		row->name = t->name[i];
		row->cells = &r->cell_store[i * n];
		for (s = 0; s < n; s++)
			fill_cell(&row->cells[s], symtab_acc(t, i, s),
				  &r->sides[s]);
		for (s = 1; s < n; s++)
			compare_cell(&row->cells[s], &row->cells[0], r, s);
	}
	r->nr_symbols = t->nr;
	r->nr_rows = t->nr;
	return mark_noise(r, t->nr);
}

struct pd_result *perfdiff_compute(const struct pd_side *sides, size_t nr_sides,
				   const struct pd_opts *opts, char *err,
				   size_t errlen)
{
	struct pd_result *r;
	struct symtab t;
	int64_t stamp = 0;
	size_t s;

	if (nr_sides < 2) {
		errf(err, errlen,
		     "perf diff needs a baseline and at least one other profile");
		return NULL;
	}
	if (opts->sort_idx < 1 || (size_t)opts->sort_idx >= nr_sides ||
	    !opts->w1 || !opts->w2) {
		errf(err, errlen, "bad perf diff options");
		return NULL;
	}
	symtab_init(&t, sizeof(struct acc), nr_sides);
	r = calloc(1, sizeof(*r));
	if (!r)
		goto oom;
	r->opts = *opts;
	r->nr_sides = nr_sides;
	r->sides = calloc(nr_sides, sizeof(*r->sides));
	if (!r->sides || symtab_presize(&t, sides, nr_sides))
		goto oom;
	r->event = sides[0].nr_runs && sides[0].runs[0].event ?
			   sides[0].runs[0].event :
			   "";
	for (s = 0; s < nr_sides; s++) {
		if (add_side(&t, &sides[s], s, r->event, &r->sides[s], &stamp,
			     err, errlen))
			goto fail;
	}
	if (build_rows(r, &t))
		goto oom;
	if (sort_rows(r))
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

void perfdiff_free(struct pd_result *r)
{
	if (!r)
		return;
	free(r->sides);
	free(r->rows);
	free(r->cell_store);
	free(r);
}
