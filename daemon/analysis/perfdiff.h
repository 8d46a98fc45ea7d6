/* SPDX-License-Identifier: MIT */
/*
 * perfdiff - the perf diff of profiles of one kind, and its text (perf
 * diff's layout) and JSON forms.
 *
 * Side 0 is the baseline, sides 1..n-1 are compared with it, exactly like
 * `perf diff BASE NEW1 NEW2`. A side is one or more runs; a run counts,
 * per symbol (dso, name), the kind's figures (samples; instructions; ...)
 * and, per run, the kind's counters, counter[0] being the norm the figures
 * are per (the run's samples, its IOs). Per symbol, side and figure:
 *
 *	count	summed over the side's runs
 *	pooled	count * scale / the side's summed norm (perf's percent)
 *	run	mean, min, max, sd of count * scale / norm of each run (0 in
 *		a run without the symbol); sd NAN with fewer than 2 runs
 *	share	value * 100 / the side's value of the figure's total counter
 *	delta	compared sides: value - the baseline's value
 *
 * where the value is pooled (sampled kinds) or run.mean (counting kinds).
 * Per compared cell, for figure 0 as tools/perf/builtin-diff.c defines:
 * ratio = count / (baseline count ?: 1), wdiff = count * W2 - baseline
 * count * W1. Sampled kinds (noise) get Welch's t test of the delta and
 * Benjamini-Hochberg noise marks over the symbols of a compared side at a
 * false-discovery rate of 5 % (perfdiff_noise.h); counting kinds (exact)
 * flag a cell whose runs disagree by more than tol_abs + tol_rel * |mean|.
 *
 * A kind (perfdiff_samples.c, perfdiff_instructions.c) is data: its
 * figures and counters, and three column tables, the JSON fields, the
 * text layout's columns and the web table's columns, over getters that
 * read the cells. The compute, sort, text and JSON code is kind-blind: a
 * new kind is a perfdiff_<kind>.c, its extern below and its loader entry
 * (two SELECTs) in lab/profiles.c; the API, the CLI and the web table
 * then serve it as they are.
 */
#ifndef PERFLAB_PERFDIFF_H
#define PERFLAB_PERFDIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <jansson.h>

#define PERFDIFF_MAX_FIGURES 6
#define PERFDIFF_MAX_COUNTERS 8

/* ---- input: one run's profile; strings must outlive the result -------- */

struct perfdiff_sym {
	const char *dso;
	const char *name;
	uint64_t count[PERFDIFF_MAX_FIGURES]; /* the kind's figures */
};

struct perfdiff_run {
	const char *event; /* sampled event or counting source: all agree */
	uint64_t counter[PERFDIFF_MAX_COUNTERS]; /* [0]: the norm, > 0 */
	size_t nr_syms;
	const struct perfdiff_sym *syms;
};

struct perfdiff_side {
	const char *name; /* variant name, shown in the header */
	size_t nr_runs;
	const struct perfdiff_run *runs;
};

/* ---- options ------------------------------------------------------------ */

enum perfdiff_compute {
	PERFDIFF_DELTA,
	PERFDIFF_DELTA_ABS,
	PERFDIFF_RATIO,
	PERFDIFF_WDIFF,
};

/* perf diff's sort keys; a kind without the key sorts by its default. */
enum perfdiff_sort {
	PERFDIFF_SORT_DEFAULT, /* by the computed column (|delta| for delta) */
	PERFDIFF_SORT_BASELINE,
	PERFDIFF_SORT_NEW,
	PERFDIFF_SORT_DELTA,
	PERFDIFF_SORT_DELTA_ABS,
	PERFDIFF_SORT_RATIO,
	PERFDIFF_SORT_WDIFF,
	PERFDIFF_SORT_STDDEV, /* the larger spread of the two sides */
	PERFDIFF_SORT_SAMPLES, /* baseline + new */
	PERFDIFF_SORT_DSO,
	PERFDIFF_SORT_SYMBOL,
};

/* Default tolerance of the "runs of one kernel agree" check. */
#define PERFDIFF_TOL_ABS 0.01 /* per norm (instructions per IO) */
#define PERFDIFF_TOL_REL 1e-4 /* of the symbol's mean (0.01 %) */

struct perfdiff_opts {
	enum perfdiff_compute compute; /* kinds that compute (perf -c) */
	int64_t w1, w2; /* wdiff weights (baseline, new), non-zero */
	enum perfdiff_sort sort;
	int sort_idx; /* compared side the sort uses, 1.. (perf -o) */
	size_t limit; /* 0: all rows */
	double tol_abs, tol_rel; /* exact kinds */
};

/* ---- result ------------------------------------------------------------- */

struct perfdiff_stat {
	double mean, min, max, sd; /* over a side's runs; sd NAN with < 2 */
};

/* One figure of one symbol on one side (see the top of this file). */
struct perfdiff_value {
	uint64_t count;
	double pooled;
	struct perfdiff_stat run;
	double share;
	double delta;
};

struct perfdiff_cell {
	bool present; /* counted on this side */
	bool has_pair; /* compared side: present here (perf's pair entry) */
	double ratio; /* figure 0; valid with has_pair */
	int64_t wdiff; /* figure 0; valid with has_pair */
	double p_value; /* noise kinds; NAN when a side has < 2 runs */
	int noise; /* 1 within noise, 0 real, -1 unknown */
	int unstable; /* exact kinds: 1 runs disagree, 0 agree, -1 one run */
	struct perfdiff_value *v; /* [kind->nr_figures] */
};

struct perfdiff_row {
	const char *dso;
	const char *name;
	struct perfdiff_cell *cells; /* [nr_sides] */
};

struct perfdiff_side_info {
	const char *name;
	size_t nr_runs;
	uint64_t counter[PERFDIFF_MAX_COUNTERS]; /* summed over the runs */
	/* counter * scale / norm of each run: the totals per IO */
	struct perfdiff_stat per[PERFDIFF_MAX_COUNTERS];
	int unstable; /* exact kinds: figure 0's total, as for a cell */
	size_t nr_unstable; /* cells flagged on this side */
};

struct perfdiff_kind;

struct perfdiff_result {
	const struct perfdiff_kind *kind;
	const char *event;
	struct perfdiff_opts opts;
	enum perfdiff_sort sort; /* the sort applied */
	size_t nr_sides;
	struct perfdiff_side_info *sides;
	size_t nr_rows; /* after the limit */
	size_t nr_symbols; /* before the limit */
	struct perfdiff_row *rows;
	void *store; /* the rows' cells and values */
};

/* ---- kinds: figures, counters and column tables ---------------------- */

/* What a getter reads from a cell; NONE prints blank, NA "N/A". */
struct perfdiff_val {
	enum {
		PERFDIFF_NONE,
		PERFDIFF_NA,
		PERFDIFF_NUM,
		PERFDIFF_INT,
		PERFDIFF_BOOL
	} type;
	double num;
	int64_t i; /* INT; BOOL 0 or 1 */
	char mark; /* text: a character after the number, or 0 */
};

/* Value of @row on @side (0 the baseline) for a column. */
typedef void perfdiff_get_fn(const struct perfdiff_result *r,
			     const struct perfdiff_row *row, size_t side,
			     struct perfdiff_val *v);

/* Defines a getter @name of a kind's columns (all its arguments named). */
#define PERFDIFF_GETTER(name)                                      \
	static void name(const struct perfdiff_result *r           \
			 __attribute__((unused)),                  \
			 const struct perfdiff_row *row, size_t s, \
			 struct perfdiff_val *v)

/* Which side a column is of: the baseline, or each compared side. */
#define PERFDIFF_BASE 1u
#define PERFDIFF_NEW 2u

/*
 * A field of the JSON rows (key) or a sort key (sort; key NULL: sort
 * only). Baseline fields go in the row, compared ones in the row for the
 * first compared side and in its "diffs" entry for each. tie ranks the
 * fields that order rows of equal sort value (1 first; descending).
 */
struct perfdiff_field {
	const char *key;
	unsigned side;
	perfdiff_get_fn *get;
	enum perfdiff_sort sort;
	int tie;
};

/* Text layout: blank when the symbol is absent / the value 0; no "/N". */
#define PERFDIFF_BLANK_ABSENT 1u
#define PERFDIFF_BLANK_ZERO 2u
#define PERFDIFF_NO_SUFFIX 4u

/*
 * A column of the text layout: the baseline's columns, then each compared
 * side's, then Shared Object and Symbol. fmt prints the number (a double,
 * or an int64_t for INT values), or is the word of a true BOOL.
 */
struct perfdiff_text_col {
	const char *header;
	unsigned side; /* PERFDIFF_BASE and/or PERFDIFF_NEW */
	int width; /* at least */
	const char *fmt;
	perfdiff_get_fn *get;
	unsigned flags;
	bool (*shown)(const struct perfdiff_result *r, size_t side);
};

/*
 * A column of the web table (JSON "columns"): the row's @base key and/or
 * the compared entry's @new key (both: "base → new"), shown as @format
 * (web/js/widgets.js), with the compared entry's @mark ("noise",
 * "unstable") and @hint (shown on hover); @sort names it for sorting,
 * @brief keeps it in the short tables.
 */
struct perfdiff_web_col {
	const char *label, *title, *format;
	const char *base, *new, *hint, *mark, *sort;
	bool brief;
};

struct perfdiff_figure {
	const char *name; /* "samples", "instructions" (messages) */
	int total; /* counter its symbol counts add up to at most, -1 none */
	int outside; /* counter counted outside any symbol, -1 none */
};

struct perfdiff_kind {
	const char *name; /* ?kind= and the JSON's "kind" */
	const char *runs; /* what a side has none of: "profiled runs" */
	const char *empty; /* why a run with counter[0] 0 is refused */
	const char *event_key; /* JSON key of the runs' event: "event" */
	const char *unit; /* JSON "unit", or NULL */
	double scale; /* per-run value = count * scale / counter[0] */
	bool pooled; /* value = pooled (perf's shares), else run.mean */
	bool computes; /* ?compute= picks the compared text column */
	bool noise; /* Welch + Benjamini-Hochberg noise marks */
	bool exact; /* runs of one kernel must agree (unstable) */
	bool fit_symbol; /* text Symbol column as wide as the names */
	size_t nr_figures, nr_counters;
	const struct perfdiff_figure *figures;
	const struct perfdiff_field *fields;
	size_t nr_fields;
	const struct perfdiff_text_col *text;
	size_t nr_text;
	const struct perfdiff_web_col *web;
	size_t nr_web;
	/* the text's lines above the table (optional); 0 or -1 */
	int (*preamble)(const struct perfdiff_result *r, FILE *f);
	/* the kind's fields of JSON side @s, its fields after "sides" (optional) */
	int (*side_json)(const struct perfdiff_result *r, size_t s, json_t *o);
	int (*tail_json)(const struct perfdiff_result *r, json_t *o);
};

/* A kind's three column tables (arrays) in its struct perfdiff_kind. */
#define PERFDIFF_COLUMNS(f, t, w)                                            \
	.fields = (f), .nr_fields = sizeof(f) / sizeof((f)[0]), .text = (t), \
	.nr_text = sizeof(t) / sizeof((t)[0]), .web = (w),                   \
	.nr_web = sizeof(w) / sizeof((w)[0])

extern const struct perfdiff_kind perfdiff_samples; /* perf record */
extern const struct perfdiff_kind perfdiff_instructions; /* exact counts */
extern const struct perfdiff_kind perfdiff_cycles; /* cache model */

/* ---- API ---------------------------------------------------------------- */

void perfdiff_default_opts(struct perfdiff_opts *o);
/* Parse "delta", "delta-abs", "ratio", "wdiff:W1,W2"; 0 or -1. */
int perfdiff_parse_compute(const char *s, struct perfdiff_opts *o);
/* Parse a sort key name; 0 or -1. */
int perfdiff_parse_sort(const char *s, enum perfdiff_sort *out);
/* Names of the options as applied ("wdiff:W1,W2" is written into @buf). */
const char *perfdiff_compute_name(const struct perfdiff_opts *o, char *buf,
				  size_t size);
const char *perfdiff_sort_name(enum perfdiff_sort s);

/*
 * Diff @nr_sides (>= 2) sides of profiles of @kind. NULL on bad input (a
 * side without runs, a norm of 0, symbols above a total, mixed events,
 * bad options) with the reason in @err, or when out of memory ("out of
 * memory" in @err).
 */
struct perfdiff_result *perfdiff_compute(const struct perfdiff_kind *kind,
					 const struct perfdiff_side *sides,
					 size_t nr_sides,
					 const struct perfdiff_opts *opts,
					 char *err, size_t errlen);
void perfdiff_free(struct perfdiff_result *r);

/* The value a kind diffs of figure @f of @c (pooled or the runs' mean). */
double perfdiff_value(const struct perfdiff_result *r,
		      const struct perfdiff_cell *c, size_t f);

/* One symbol of perfdiff_top(): its name and figure 0's two values. */
struct perfdiff_top {
	const char *name;
	double base, new;
};

/*
 * The @max symbols of @r with the largest value of figure 0 on the
 * baseline or on side @s, larger first (the LKP table's perf-profile
 * rows): symbols of one name in several dsos are one, their values
 * summed, as LKP names symbols. The number written to @out; 0 when out
 * of memory.
 */
size_t perfdiff_top(const struct perfdiff_result *r, size_t s,
		    struct perfdiff_top *out, size_t max);

/* perf diff text layout. 0 or -1 on write error. */
int perfdiff_fprint(const struct perfdiff_result *r, FILE *f);
/* The same into a malloc'ed NUL-terminated buffer; NULL when out of memory. */
char *perfdiff_text(const struct perfdiff_result *r, size_t *len);
/* perf's privilege level of a dso: 'k' kernel and modules, '.' user. */
char perfdiff_sym_level(const char *dso);

/* The JSON form (docs/api.md, perf-diff); NULL when out of memory. */
json_t *perfdiff_json(const struct perfdiff_result *r);

#endif
