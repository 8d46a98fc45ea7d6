// SPDX-License-Identifier: MIT
/*
 * Description: a kind of profile is data for the perf-diff core: a kind
 * defined here (two figures per symbol, instructions and cache misses, per
 * IO; the shape of the coming cycles kind) gets its per-run means, shares
 * of its own totals, deltas, runs-disagree flags, refusals, sorting, perf
 * diff text layout (N-way headers) and JSON from its column tables alone,
 * with values worked out by hand; and the columns of the real kinds
 * (samples, instructions) name only fields their JSON rows have.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/analysis/perfdiff.h"
#include "unit/check.h"

#define K "[kernel.kallsyms]"
#define NEAR(a, b)                                                  \
	CHECK(fabs((a) - (b)) < 1e-9, "%s = %.12g, want %.12g", #a, \
	      (double)(a), (double)(b))

enum { IOS, INSNS, MISSES };

PERFDIFF_GETTER(get_insns)
{
	v->type = PERFDIFF_NUM;
	v->num = row->cells[s].v[0].run.mean;
}

PERFDIFF_GETTER(get_misses)
{
	v->type = PERFDIFF_NUM;
	v->num = row->cells[s].v[1].run.mean;
}

PERFDIFF_GETTER(get_delta)
{
	v->type = PERFDIFF_NUM;
	v->num = row->cells[s].v[1].delta;
}

PERFDIFF_GETTER(get_abs_delta)
{
	v->type = PERFDIFF_NUM;
	v->num = fabs(row->cells[s].v[1].delta);
}

PERFDIFF_GETTER(get_share)
{
	v->type = PERFDIFF_NUM;
	v->num = row->cells[s].v[1].share;
}

#define B PERFDIFF_BASE
#define N PERFDIFF_NEW

static const struct perfdiff_field fields[] = {
	{ "base_misses", B, get_misses, PERFDIFF_SORT_BASELINE, 1 },
	{ "new_misses", N, get_misses, PERFDIFF_SORT_NEW, 2 },
	{ "new_insns", N, get_insns, 0, 0 },
	{ "delta_misses", N, get_delta, PERFDIFF_SORT_DELTA, 0 },
	{ "miss_share", N, get_share, 0, 0 },
	{ NULL, N, get_abs_delta, PERFDIFF_SORT_DELTA_ABS, 0 },
};

static const struct perfdiff_text_col text[] = {
	{ "Miss/IO", B, 8, "%.2f", get_misses, PERFDIFF_NO_SUFFIX, NULL },
	{ "Miss/IO", N, 8, "%.2f", get_misses, 0, NULL },
	{ "Delta", N, 8, "%+.2f", get_delta, 0, NULL },
	{ "Insn/IO", N, 8, "%.1f", get_insns, 0, NULL },
};

static const struct perfdiff_web_col web[] = {
	{ "Miss/IO", "misses per IO", "f3", .base = "base_misses",
	  .sort = "baseline", .brief = true },
	{ "Delta", "new - base", "s3", .new = "delta_misses", .sort = "delta" },
};

static const struct perfdiff_figure figures[] = {
	{ "instructions", INSNS, -1 },
	{ "misses", MISSES, -1 },
};

static const struct perfdiff_kind misses = {
	.name = "misses",
	.runs = "runs with miss counts",
	.empty = "no IOs counted",
	.event_key = "source",
	.unit = "misses per IO",
	.scale = 1,
	.exact = true,
	.fit_symbol = true,
	.nr_figures = 2,
	.nr_counters = 3,
	.figures = figures,
	PERFDIFF_COLUMNS(fields, text, web),
};

/*
 * base: r0 10 IOs, r1 20 IOs; f 10 insns/IO and 2 misses/IO in both; g 20
 * insns/IO, misses 1/IO then 0 (the runs disagree); 5 misses/IO in all.
 * new: one run of 10 IOs, f 5 misses/IO, h 0.6; 8 misses/IO in all.
 */
static const struct perfdiff_sym b0[] = { { K, "f", { 100, 20 } },
					  { K, "g", { 200, 10 } } };
static const struct perfdiff_sym b1[] = { { K, "f", { 200, 40 } },
					  { K, "g", { 400, 0 } } };
static const struct perfdiff_sym n0[] = { { K, "f", { 100, 50 } },
					  { K, "h", { 50, 6 } } };
static const struct perfdiff_run base[] = {
	{ "cache-model", { 10, 1000, 50 }, 2, b0 },
	{ "cache-model", { 20, 2000, 100 }, 2, b1 },
};
static const struct perfdiff_run new[] = {
	{ "cache-model", { 10, 1500, 80 }, 2, n0 },
};

static const struct perfdiff_row *row(const struct perfdiff_result *r,
				      const char *n)
{
	for (size_t i = 0; i < r->nr_rows; i++)
		if (!strcmp(r->rows[i].name, n))
			return &r->rows[i];
	return NULL;
}

static struct perfdiff_result *diff(const struct perfdiff_side *s, size_t n,
				    enum perfdiff_sort sort, char *err)
{
	struct perfdiff_opts o;

	perfdiff_default_opts(&o);
	o.sort = sort;
	return perfdiff_compute(&misses, s, n, &o, err, 256);
}

static void check_values(void)
{
	struct perfdiff_side s[2] = { { "base", 2, base }, { "new", 1, new } };
	const struct perfdiff_row *x;
	struct perfdiff_result *r;
	char err[256];

	r = diff(s, 2, PERFDIFF_SORT_DEFAULT, err);
	CHECK(r, "%s", err);
	if (!r)
		return;
	/* by |delta misses|: f +3, h +0.6, g -0.5 */
	CHECK(r->nr_rows == 3 && !strcmp(r->rows[0].name, "f") &&
	      !strcmp(r->rows[1].name, "h") && !strcmp(r->rows[2].name, "g"));
	CHECK(r->sort == PERFDIFF_SORT_DELTA_ABS);
	x = row(r, "f");
	NEAR(x->cells[0].v[0].run.mean, 10);
	NEAR(x->cells[0].v[1].run.mean, 2);
	NEAR(x->cells[1].v[1].delta, 3);
	NEAR(x->cells[0].v[1].share, 40); /* 2 of 5 misses per IO */
	NEAR(x->cells[1].v[1].share, 62.5); /* 5 of 8 */
	NEAR(x->cells[1].v[0].delta, 0);
	CHECK(x->cells[0].unstable == 0 && x->cells[1].unstable == -1);
	x = row(r, "g"); /* misses 1 and 0 per IO: mean 0.5, sd sqrt(0.5) */
	NEAR(x->cells[0].v[1].run.mean, 0.5);
	NEAR(x->cells[0].v[1].run.sd, sqrt(0.5));
	NEAR(x->cells[0].v[1].run.max - x->cells[0].v[1].run.min, 1);
	CHECK(x->cells[0].unstable == 1 && r->sides[0].nr_unstable == 1);
	NEAR(x->cells[1].v[1].delta, -0.5);
	x = row(r, "h");
	CHECK(!x->cells[0].present && x->cells[1].present);
	NEAR(x->cells[1].v[1].delta, 0.6);
	NEAR(r->sides[0].per[MISSES].mean, 5);
	CHECK(r->sides[0].counter[IOS] == 30 && r->sides[0].unstable == 0);
	perfdiff_free(r);

	r = diff(s, 2, PERFDIFF_SORT_BASELINE, err);
	CHECK(r && !strcmp(r->rows[0].name, "f") &&
	      !strcmp(r->rows[1].name, "g") && !strcmp(r->rows[2].name, "h"));
	perfdiff_free(r);
	/* a sort key the kind has no field for: its default */
	r = diff(s, 2, PERFDIFF_SORT_WDIFF, err);
	CHECK(r && r->sort == PERFDIFF_SORT_DELTA_ABS &&
	      !strcmp(r->rows[0].name, "f"));
	perfdiff_free(r);
}

static void check_refused(void)
{
	struct perfdiff_run bad[2] = { base[0], base[1] };
	struct perfdiff_side s[2] = { { "base", 2, bad }, { "new", 1, new } };
	struct perfdiff_result *r;
	char err[256] = "";

	bad[1].counter[MISSES] = 39; /* f and g: 40 misses */
	r = diff(s, 2, PERFDIFF_SORT_DEFAULT, err);
	CHECK(!r && strstr(err,
			   "base: run 1: symbol misses (40) exceed the total (39)"),
	      "%s", err);
	bad[1] = base[1];
	bad[1].counter[IOS] = 0;
	r = diff(s, 2, PERFDIFF_SORT_DEFAULT, err);
	CHECK(!r && strstr(err, "base: run 1: no IOs counted"), "%s", err);
	bad[1] = base[1];
	bad[1].event = "valgrind";
	r = diff(s, 2, PERFDIFF_SORT_DEFAULT, err);
	CHECK(!r && strstr(err, "source 'valgrind' is not the baseline's"),
	      "%s", err);
	bad[1] = base[1];
	s[1].nr_runs = 0;
	r = diff(s, 2, PERFDIFF_SORT_DEFAULT, err);
	CHECK(!r && strstr(err, "new: no runs with miss counts"), "%s", err);
}

static void check_text(void)
{
	struct perfdiff_side s[3] = { { "base", 2, base },
				      { "new", 1, new },
				      { "again", 2, base } };
	struct perfdiff_result *r;
	char err[256], *t;

	r = diff(s, 2, PERFDIFF_SORT_DEFAULT, err);
	t = r ? perfdiff_text(r, NULL) : NULL;
	/* no preamble: the header first; Symbol as wide as "[k] f" (6) */
	CHECK(t && !strcmp(t,
			   "#  Miss/IO   Miss/IO     Delta   Insn/IO  Shared Object      Symbol\n"
			   "# ........  ........  ........  ........  .................  ......\n"
			   "#\n"
			   "      2.00      5.00     +3.00      10.0  [kernel.kallsyms]  [k] f\n"
			   "      0.00      0.60     +0.60       5.0  [kernel.kallsyms]  [k] h\n"
			   "      0.50      0.00     -0.50       0.0  [kernel.kallsyms]  [k] g\n"),
	      "%s", t ? t : err);
	free(t);
	perfdiff_free(r);
	/* three sides: "/N" on the compared columns only */
	r = diff(s, 3, PERFDIFF_SORT_DEFAULT, err);
	t = r ? perfdiff_text(r, NULL) : NULL;
	CHECK(t && strstr(t,
			  "#  Miss/IO  Miss/IO/1   Delta/1  Insn/IO/1  Miss/IO/2"),
	      "%s", t ? t : err);
	free(t);
	perfdiff_free(r);
}

static void check_json(void)
{
	struct perfdiff_side s[2] = { { "base", 2, base }, { "new", 1, new } };
	struct perfdiff_result *r;
	json_t *j, *row0, *col;
	char err[256];

	r = diff(s, 2, PERFDIFF_SORT_DEFAULT, err);
	j = r ? perfdiff_json(r) : NULL;
	CHECK(j);
	if (!j) {
		perfdiff_free(r);
		return;
	}
	CHECK(!strcmp(json_string_value(json_object_get(j, "kind")), "misses"));
	CHECK(!strcmp(json_string_value(json_object_get(j, "source")),
		      "cache-model"));
	CHECK(!strcmp(json_string_value(json_object_get(j, "sort")),
		      "delta-abs"));
	CHECK(!json_object_get(j, "compute") &&
	      !json_object_get(j, "noise_rule"));
	CHECK(json_object_get(j, "tolerance"));
	row0 = json_array_get(json_object_get(j, "rows"), 0);
	CHECK(!strcmp(json_string_value(json_object_get(row0, "symbol")), "f"));
	NEAR(json_real_value(json_object_get(row0, "delta_misses")), 3);
	NEAR(json_real_value(json_object_get(row0, "miss_share")), 62.5);
	CHECK(json_object_size(row0) == 2 + 5 &&
	      !json_object_get(row0, "diffs"));
	col = json_array_get(json_object_get(j, "columns"), 1);
	CHECK(!strcmp(json_string_value(json_object_get(col, "new")),
		      "delta_misses") &&
	      json_is_null(json_object_get(col, "base")) &&
	      json_is_false(json_object_get(col, "brief")));
	json_decref(j);
	perfdiff_free(r);
}

static bool has_field(const struct perfdiff_kind *k, const char *key,
		      unsigned side)
{
	for (size_t i = 0; i < k->nr_fields; i++)
		if (k->fields[i].key && !strcmp(k->fields[i].key, key) &&
		    k->fields[i].side == side)
			return true;
	return false;
}

/* Every web column reads keys the kind's JSON rows have. */
static void check_columns(const struct perfdiff_kind *k)
{
	for (size_t i = 0; i < k->nr_web; i++) {
		const struct perfdiff_web_col *w = &k->web[i];

		CHECK(w->base || w->new, "%s %s", k->name, w->label);
		CHECK(!w->base || has_field(k, w->base, PERFDIFF_BASE), "%s %s",
		      k->name, w->base);
		CHECK(!w->new || has_field(k, w->new, PERFDIFF_NEW), "%s %s",
		      k->name, w->new);
		CHECK(!w->hint ||
			      has_field(k, w->hint,
					w->base ? PERFDIFF_BASE : PERFDIFF_NEW),
		      "%s %s", k->name, w->hint);
		CHECK(!w->mark || has_field(k, w->mark, PERFDIFF_NEW), "%s %s",
		      k->name, w->mark);
	}
	for (size_t i = 0; i < k->nr_fields; i++)
		for (size_t j = 0; j < i; j++)
			CHECK(!k->fields[i].sort ||
				      k->fields[i].sort != k->fields[j].sort,
			      "%s: sort %d twice", k->name, k->fields[i].sort);
}

int main(void)
{
	check_values();
	check_refused();
	check_text();
	check_json();
	check_columns(&misses);
	check_columns(&perfdiff_samples);
	check_columns(&perfdiff_instructions);
	check_columns(&perfdiff_cycles);
	if (fails) {
		fprintf(stderr, "%d checks failed\n", fails);
		return 1;
	}
	return 0;
}
