// SPDX-License-Identifier: MIT
/*
 * perf diff of exact profiles (see perfdiff_exact.h for the definitions).
 *
 * Symbols are interned in a symtab keyed by (dso, name); each row has
 * one accumulator per side. A symbol named twice in one run
 * adds up before the run's value is taken, and runs without the symbol
 * count as 0 instructions when the side is closed (exact counting: it did
 * not execute).
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/analysis/perfdiff_exact.h"
#include "daemon/analysis/symtab.h"

struct xacc {
	int64_t stamp; /* run the pending count belongs to */
	uint64_t cur, cur_ios; /* pending count of that run */
	size_t n; /* runs with the symbol */
	double mean, m2, min, max; /* Welford over those runs */
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

static void welford(struct xacc *a, double x)
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

static void xacc_flush(struct xacc *a)
{
	if (a->cur_ios)
		welford(a, (double)a->cur / (double)a->cur_ios);
	a->cur = 0;
	a->cur_ios = 0;
}

/* Close @a over @runs runs: the runs without the symbol count as 0. */
static void xacc_close(struct xacc *a, size_t runs, struct pdx_stat *s)
{
	size_t n0;
	double d;

	xacc_flush(a);
	n0 = runs - a->n;
	if (n0) {
		d = a->mean;
		a->m2 += d * d * (double)a->n * (double)n0 / (double)runs;
		a->mean = a->mean * (double)a->n / (double)runs;
		a->min = a->n ? fmin(a->min, 0) : 0;
		a->max = a->n ? fmax(a->max, 0) : 0;
	}
	s->mean = a->mean;
	s->min = a->min;
	s->max = a->max;
	s->sd = runs >= 2 ? sqrt(fmax(a->m2, 0) / (double)(runs - 1)) : NAN;
}

static int check_run(const struct pdx_run *p, const char *source,
		     const char *side, size_t run, char *err, size_t errlen)
{
	uint64_t sum = p->unattributed;
	size_t i;

	if (strcmp(p->source ? p->source : "", source))
		return errf(
			err, errlen,
			"%s: run %zu: source '%s' is not the baseline's '%s'",
			side, run, p->source ? p->source : "", source);
	if (!p->ios)
		return errf(err, errlen, "%s: run %zu: no IOs counted", side,
			    run);
	for (i = 0; i < p->nr_syms; i++) {
		if (!p->syms[i].dso || !p->syms[i].name)
			return errf(err, errlen,
				    "%s: run %zu: symbol without name", side,
				    run);
		sum += p->syms[i].insns;
		if (sum < p->syms[i].insns || sum > p->total)
			return errf(
				err, errlen,
				"%s: run %zu: symbol instructions exceed the total (%" PRIu64
				")",
				side, run, p->total);
	}
	return 0;
}

/* Per-IO stat of one field of the side's runs. */
static void side_stat(const struct pdx_side *side, size_t off,
		      struct pdx_stat *s)
{
	struct xacc a = { .n = 0 };
	size_t r;

	for (r = 0; r < side->nr_runs; r++) {
		const struct pdx_run *p = &side->runs[r];
		uint64_t v = *(const uint64_t *)((const char *)p + off);

		welford(&a, (double)v / (double)p->ios);
	}
	xacc_close(&a, side->nr_runs, s);
}

static int unstable(const struct pdx_stat *s, size_t runs,
		    const struct pdx_opts *o)
{
	if (runs < 2)
		return -1;
	return s->max - s->min > o->tol_abs + o->tol_rel * fabs(s->mean);
}

static int add_side(struct symtab *t, const struct pdx_side *side, size_t s,
		    const char *source, struct pdx_side_info *info,
		    int64_t *stamp, char *err, size_t errlen)
{
	size_t r, i;

	info->name = side->name ? side->name : "";
	info->nr_runs = side->nr_runs;
	if (!side->nr_runs)
		return errf(err, errlen, "%s: no runs with exact profiles",
			    info->name);
	for (r = 0; r < side->nr_runs; r++) {
		const struct pdx_run *p = &side->runs[r];

		if (check_run(p, source, info->name, r, err, errlen))
			return -1;
		info->ios += p->ios;
		++*stamp;
		for (i = 0; i < p->nr_syms; i++) {
			long row =
				symtab_get(t, p->syms[i].dso, p->syms[i].name);
			struct xacc *a;

			if (row < 0)
				return errf(err, errlen, "out of memory");
			a = symtab_acc(t, row, s);
			if (a->stamp != *stamp) {
				xacc_flush(a);
				a->stamp = *stamp;
			}
			a->cur += p->syms[i].insns;
			a->cur_ios = p->ios;
		}
	}
	side_stat(side, offsetof(struct pdx_run, total), &info->total);
	side_stat(side, offsetof(struct pdx_run, kernel), &info->kernel);
	side_stat(side, offsetof(struct pdx_run, user), &info->user);
	side_stat(side, offsetof(struct pdx_run, unattributed),
		  &info->unattributed);
	return 0;
}

static int build_rows(struct pdx_result *r, struct symtab *t)
{
	size_t i, s, n = r->nr_sides;

	r->cell_store = calloc(t->nr ? t->nr * n : 1, sizeof(*r->cell_store));
	r->rows = calloc(t->nr ? t->nr : 1, sizeof(*r->rows));
	if (!r->cell_store || !r->rows)
		return -1;
	for (i = 0; i < t->nr; i++) {
		struct pdx_row *row = &r->rows[i];

		row->dso = t->dso[i];
		row->name = t->name[i];
		row->cells = &r->cell_store[i * n];
		for (s = 0; s < n; s++) {
			struct pdx_cell *c = &row->cells[s];
			struct pdx_side_info *si = &r->sides[s];

			xacc_close(symtab_acc(t, i, s), si->nr_runs,
				   &c->per_io);
			c->share = si->total.mean > 0 ? c->per_io.mean * 100 /
								si->total.mean :
							0;
			c->delta = c->per_io.mean - row->cells[0].per_io.mean;
			c->unstable =
				unstable(&c->per_io, si->nr_runs, &r->opts);
			si->nr_unstable += c->unstable == 1;
		}
	}
	r->nr_symbols = r->nr_rows = t->nr;
	return 0;
}

/* ---- sorting ------------------------------------------------------------ */

static double spread(const struct pdx_cell *c)
{
	return c->per_io.max - c->per_io.min;
}

static double sort_value(const struct pdx_result *r, const struct pdx_row *row)
{
	const struct pdx_cell *b = &row->cells[0];
	const struct pdx_cell *c = &row->cells[r->opts.sort_idx];

	switch (r->opts.sort) {
	case PD_SORT_BASELINE:
		return b->per_io.mean;
	case PD_SORT_NEW:
		return c->per_io.mean;
	case PD_SORT_DELTA:
		return c->delta;
	case PD_SORT_RATIO:
		return b->per_io.mean > 0 ? c->per_io.mean / b->per_io.mean :
					    INFINITY;
	case PD_SORT_STDDEV:
		return fmax(spread(b), spread(c));
	case PD_SORT_SAMPLES:
		return b->per_io.mean + c->per_io.mean;
	default:
		return fabs(c->delta);
	}
}

static int cmp_rows(const void *pa, const void *pb, void *arg)
{
	const struct pdx_result *r = arg;
	const struct pdx_row *a = pa, *b = pb;
	double va, vb;
	int c = 0;

	if (r->opts.sort == PD_SORT_DSO)
		c = strcmp(a->dso, b->dso);
	else if (r->opts.sort == PD_SORT_SYMBOL)
		c = strcmp(a->name, b->name);
	if (c)
		return c;
	if (r->opts.sort != PD_SORT_DSO && r->opts.sort != PD_SORT_SYMBOL) {
		va = sort_value(r, a);
		vb = sort_value(r, b);
		if (va != vb)
			return va > vb ? -1 : 1;
	}
	/* ties: the larger symbol first, then by name */
	va = a->cells[0].per_io.mean + a->cells[r->opts.sort_idx].per_io.mean;
	vb = b->cells[0].per_io.mean + b->cells[r->opts.sort_idx].per_io.mean;
	if (va != vb)
		return va > vb ? -1 : 1;
	c = strcmp(a->dso, b->dso);
	return c ? c : strcmp(a->name, b->name);
}

/* ---- compute ------------------------------------------------------------ */

void perfdiff_exact_default_opts(struct pdx_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->sort = PD_SORT_DEFAULT;
	o->sort_idx = 1;
	o->tol_abs = PDX_TOL_ABS;
	o->tol_rel = PDX_TOL_REL;
}

struct pdx_result *perfdiff_exact_compute(const struct pdx_side *sides,
					  size_t nr_sides,
					  const struct pdx_opts *opts,
					  char *err, size_t errlen)
{
	struct pdx_result *r = NULL;
	struct symtab t;
	int64_t stamp = 0;
	size_t s;

	if (nr_sides < 2 || opts->sort_idx < 1 ||
	    (size_t)opts->sort_idx >= nr_sides || !(opts->tol_abs >= 0) ||
	    !(opts->tol_rel >= 0)) {
		errf(err, errlen, "bad exact perf diff options");
		return NULL;
	}
	symtab_init(&t, sizeof(struct xacc), nr_sides);
	r = calloc(1, sizeof(*r));
	if (!r)
		goto oom;
	r->opts = *opts;
	r->nr_sides = nr_sides;
	r->sides = calloc(nr_sides, sizeof(*r->sides));
	if (!r->sides)
		goto oom;
	r->source = sides[0].nr_runs && sides[0].runs[0].source ?
			    sides[0].runs[0].source :
			    "";
	for (s = 0; s < nr_sides; s++)
		if (add_side(&t, &sides[s], s, r->source, &r->sides[s], &stamp,
			     err, errlen))
			goto fail;
	for (s = 0; s < nr_sides; s++)
		r->sides[s].unstable =
			unstable(&r->sides[s].total, r->sides[s].nr_runs, opts);
	if (build_rows(r, &t))
		goto oom;
	qsort_r(r->rows, r->nr_rows, sizeof(*r->rows), cmp_rows, r);
	if (opts->limit && opts->limit < r->nr_rows)
		r->nr_rows = opts->limit;
	symtab_free(&t);
	return r;
oom:
	errf(err, errlen, "out of memory");
fail:
	symtab_free(&t);
	perfdiff_exact_free(r);
	return NULL;
}

void perfdiff_exact_free(struct pdx_result *r)
{
	if (!r)
		return;
	free(r->sides);
	free(r->rows);
	free(r->cell_store);
	free(r);
}

/* ---- text layout (perf diff's, columns per IO) ---------------------------- */

#define W_NUM 10
#define W_SHARE 7
#define W_SPREAD 9

/* perf's priv level: kernel and module dsos are "[name]". */
static char sym_level(const char *dso)
{
	static const char *const user[] = { "[vdso]", "[vsyscall]", "[unknown]",
					    "[heap]", "[stack]",    "[anon]",
					    "[vvar]", NULL };
	int i;

	if (dso[0] != '[')
		return '.';
	for (i = 0; user[i]; i++)
		if (!strcmp(dso, user[i]))
			return '.';
	return 'k';
}

static void print_sides(FILE *f, const struct pdx_result *r)
{
	size_t s;

	fprintf(f,
		"# Event 'instructions' (exact count, %s): instructions per IO\n#\n# Data files:\n",
		r->source);
	for (s = 0; s < r->nr_sides; s++) {
		const struct pdx_side_info *si = &r->sides[s];

		fprintf(f,
			"#  [%zu] %s: %zu run%s, %" PRIu64
			" IOs, %.3f instr/IO (kernel %.3f, user %.3f)%s%s\n",
			s, si->name, si->nr_runs, si->nr_runs == 1 ? "" : "s",
			si->ios, si->total.mean, si->kernel.mean, si->user.mean,
			s ? "" : " (Baseline)",
			si->unstable == 1 ? " (runs disagree on the total!)" :
					    "");
	}
	fprintf(f, "#\n");
	for (s = 1; s < r->nr_sides; s++) {
		const struct pdx_side_info *b = &r->sides[0], *n = &r->sides[s];
		double d = n->total.mean - b->total.mean;

		fprintf(f,
			"# Total/IO [%zu] %s: %+.3f (%+.3f%%), kernel %+.3f, user %+.3f\n",
			s, n->name, d,
			b->total.mean > 0 ? d * 100 / b->total.mean : 0.0,
			n->kernel.mean - b->kernel.mean,
			n->user.mean - b->user.mean);
	}
	fprintf(f,
		"#\n# Share: of the variant's instructions; Spread: max - min of the per-run instr/IO\n"
		"# (larger of the two variants); '!': runs of one kernel differ by more than\n"
		"# %g instr/IO + %g%% of the mean\n#\n",
		r->opts.tol_abs, r->opts.tol_rel * 100);
}

static void hdr(FILE *f, const struct pdx_result *r, const char *name, size_t s,
		int w, bool last)
{
	char buf[32];

	if (r->nr_sides > 2 && s)
		snprintf(buf, sizeof(buf), "%s/%zu", name, s);
	else
		snprintf(buf, sizeof(buf), "%s", name);
	fprintf(f, "%*s%s", w, buf, last ? "" : "  ");
}

static void print_header(FILE *f, const struct pdx_result *r, int dso_w)
{
	size_t s, k, cols = 1 + 4 * (r->nr_sides - 1);
	const int widths[] = { W_NUM, W_NUM, W_SHARE, W_SPREAD };
	int j;

	fputs("# ", f);
	hdr(f, r, "Base/IO", 0, W_NUM - 2, false);
	for (s = 1; s < r->nr_sides; s++) {
		hdr(f, r, "New/IO", s, W_NUM, false);
		hdr(f, r, "Delta/IO", s, W_NUM, false);
		hdr(f, r, "Share", s, W_SHARE, false);
		hdr(f, r, "Spread", s, W_SPREAD, false);
	}
	fprintf(f, "%-*s  Symbol\n# ", dso_w, "Shared Object");
	for (k = 0; k < cols; k++) {
		int w = k ? widths[(k - 1) % 4] : W_NUM - 2;

		for (j = 0; j < w; j++)
			fputc('.', f);
		fputs("  ", f);
	}
	for (j = 0; j < dso_w; j++)
		fputc('.', f);
	fputs("  ......\n#\n", f);
}

static void print_row(FILE *f, const struct pdx_result *r,
		      const struct pdx_row *row, int dso_w)
{
	const struct pdx_cell *b = &row->cells[0];
	char buf[48];
	size_t s;

	fprintf(f, "%*.3f  ", W_NUM, b->per_io.mean);
	for (s = 1; s < r->nr_sides; s++) {
		const struct pdx_cell *c = &row->cells[s];
		bool flag = b->unstable == 1 || c->unstable == 1;

		fprintf(f, "%*.3f  %+*.3f  %*.2f%%  ", W_NUM, c->per_io.mean,
			W_NUM, c->delta, W_SHARE - 1, c->share);
		if (b->unstable < 0 && c->unstable < 0)
			snprintf(buf, sizeof(buf), " ");
		else
			snprintf(buf, sizeof(buf), "%.3f%s",
				 fmax(spread(b), spread(c)), flag ? "!" : " ");
		fprintf(f, "%*s  ", W_SPREAD, buf);
	}
	fprintf(f, "%-*s  [%c] %s\n", dso_w, row->dso, sym_level(row->dso),
		row->name);
}

int perfdiff_exact_fprint(const struct pdx_result *r, FILE *f)
{
	int dso_w = 13, len;
	size_t i;

	for (i = 0; i < r->nr_rows; i++) {
		len = strlen(r->rows[i].dso);
		dso_w = len > dso_w ? len : dso_w;
	}
	print_sides(f, r);
	print_header(f, r, dso_w);
	for (i = 0; i < r->nr_rows; i++)
		print_row(f, r, &r->rows[i], dso_w);
	return ferror(f) ? -1 : 0;
}

char *perfdiff_exact_text(const struct pdx_result *r, size_t *len)
{
	char *buf = NULL;
	size_t sz = 0;
	FILE *f = open_memstream(&buf, &sz);
	int ret;

	if (!f)
		return NULL;
	ret = perfdiff_exact_fprint(r, f);
	if (fclose(f) || ret) {
		free(buf);
		return NULL;
	}
	if (len)
		*len = sz;
	return buf;
}
