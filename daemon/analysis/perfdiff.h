/* SPDX-License-Identifier: MIT */
/*
 * perf diff of aggregated profiles: pure computation and the text layout.
 *
 * Side 0 is the baseline, sides 1..n-1 are compared with it, exactly like
 * `perf diff BASE NEW1 NEW2`. A side is one or more runs (profiles); its
 * samples and totals are summed over the runs. Symbols are matched by
 * (dso, name). Per compared side, as tools/perf/builtin-diff.c defines:
 *
 *	percent = samples * 100 / total			(total of the side)
 *	delta   = new percent - baseline percent
 *	ratio   = new samples / (baseline samples ?: 1)
 *	wdiff   = new samples * W2 - baseline samples * W1
 *
 * A symbol with no samples in a compared side has no pair there: delta,
 * ratio and wdiff are undefined (blank in the text, null in JSON). A symbol
 * only in a compared side has no baseline ("dummy" entry in perf): blank
 * baseline, delta = new percent, ratio and wdiff "N/A".
 *
 * Noise: with >= 2 runs on both sides, stddev is the sample standard
 * deviation of the symbol's per-run percent (0 in a run without it),
 * p_value that of Welch's t test of the delta (se = sqrt(sd_b^2/n_b +
 * sd_n^2/n_n), Welch-Satterthwaite degrees of freedom), and a delta is
 * within noise unless the Benjamini-Hochberg procedure over the symbols
 * of the compared side declares it a discovery at a false-discovery rate
 * of 5 % (perfdiff_noise.h).
 */
#ifndef PERFLAB_PERFDIFF_H
#define PERFLAB_PERFDIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Input: one run's profile. Strings must outlive the result. */
struct pd_sym {
	const char *dso;
	const char *name;
	uint64_t samples;
};

struct pd_profile {
	const char *event;
	uint64_t total; /* all samples of the run (>= sum of syms) */
	uint64_t lost;
	size_t nr_syms;
	const struct pd_sym *syms;
};

struct pd_side {
	const char *name; /* variant name, shown in the header */
	size_t nr_runs;
	const struct pd_profile *runs;
};

enum pd_compute {
	PD_DELTA,
	PD_DELTA_ABS,
	PD_RATIO,
	PD_WDIFF,
};

enum pd_sort {
	PD_SORT_DEFAULT, /* delta/delta-abs: |delta|; else the compute column */
	PD_SORT_BASELINE,
	PD_SORT_NEW, /* new percent */
	PD_SORT_DELTA,
	PD_SORT_DELTA_ABS,
	PD_SORT_RATIO,
	PD_SORT_WDIFF,
	PD_SORT_STDDEV, /* larger of the two sides' stddev */
	PD_SORT_SAMPLES, /* baseline samples + new samples */
	PD_SORT_DSO,
	PD_SORT_SYMBOL,
};

struct pd_opts {
	enum pd_compute compute;
	int64_t w1, w2; /* wdiff weights (baseline, new), non-zero */
	enum pd_sort sort;
	int sort_idx; /* compared side the sort uses, 1.. (perf -o) */
	size_t limit; /* 0: all rows */
};

/* Per symbol and side. */
struct pd_cell {
	bool present; /* samples > 0 on this side */
	uint64_t samples; /* summed over the side's runs */
	double percent;
	double stddev; /* NAN when the side has < 2 runs */
	/* Compared sides only; valid when has_pair. */
	bool has_pair; /* present here (perf: pair entry exists) */
	double delta;
	double ratio; /* valid when the baseline is present */
	int64_t wdiff; /* valid when the baseline is present */
	double p_value; /* Welch's test; NAN when a side has < 2 runs */
	int noise; /* 1 within noise, 0 not (real), -1 unknown */
};

struct pd_row {
	const char *dso;
	const char *name;
	struct pd_cell *cells; /* [nr_sides] */
};

struct pd_side_info {
	const char *name;
	size_t nr_runs;
	uint64_t total;
	uint64_t lost;
};

struct pd_result {
	const char *event;
	struct pd_opts opts;
	size_t nr_sides;
	struct pd_side_info *sides;
	size_t nr_rows; /* after the limit */
	size_t nr_symbols; /* before the limit */
	struct pd_row *rows;
	struct pd_cell *cell_store;
};

/* Parse "delta", "delta-abs", "ratio", "wdiff:W1,W2"; 0 or -1. */
int perfdiff_parse_compute(const char *s, struct pd_opts *o);
/* Parse a sort key name; 0 or -1. */
int perfdiff_parse_sort(const char *s, enum pd_sort *out);
void perfdiff_default_opts(struct pd_opts *o);

/*
 * Diff @nr_sides (>= 2) sides. Returns NULL on bad input (no runs on a
 * side, zero total, bad options) with the reason in @err, or when out of
 * memory.
 */
struct pd_result *perfdiff_compute(const struct pd_side *sides, size_t nr_sides,
				   const struct pd_opts *opts, char *err,
				   size_t errlen);
void perfdiff_free(struct pd_result *r);

/* perf diff text layout. 0 or -1 on write error. */
int perfdiff_fprint(const struct pd_result *r, FILE *f);
/* The same into a malloc'ed NUL-terminated buffer; NULL when out of memory. */
char *perfdiff_text(const struct pd_result *r, size_t *len);

/* Names of the options as parsed ("wdiff:W1,W2" is written into @buf). */
const char *perfdiff_compute_name(const struct pd_opts *o, char *buf,
				  size_t size);
const char *perfdiff_sort_name(const struct pd_opts *o);

#endif
