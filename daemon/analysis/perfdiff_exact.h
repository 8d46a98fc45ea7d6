/* SPDX-License-Identifier: MIT */
/*
 * perf diff of exact profiles: instructions per IO per symbol.
 *
 * An exact profile counts every instruction executed in the measured
 * window (daemon/exact_profile.h), so there is no sampling noise to
 * estimate: runs of one kernel should repeat to about 0.0005 % of the
 * total. What the diff shows per symbol and side instead:
 *
 *	per_io   = insns / ios of each run; mean, min, max, sd over the runs
 *		   (0 in a run without the symbol: it executed nothing)
 *	share    = mean per_io * 100 / the side's mean total per IO
 *	delta    = compared side's mean per_io - the baseline's
 *	spread   = max - min of the per-run per_io over one side's runs
 *	unstable = spread > tol_abs + tol_rel * |mean|: the runs of one
 *		   kernel disagree, so the delta is not exact either
 *
 * Side 0 is the baseline, as in perfdiff.h; the sort keys are those of
 * enum pd_sort (stddev sorts by the spread, samples by base + new per IO).
 */
#ifndef PERFLAB_PERFDIFF_EXACT_H
#define PERFLAB_PERFDIFF_EXACT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "daemon/analysis/perfdiff.h"

/* Default tolerance of the "runs of one kernel agree" check. */
#define PDX_TOL_ABS 0.01 /* instructions per IO */
#define PDX_TOL_REL 1e-4 /* of the symbol's mean per IO (0.01 %) */

struct pdx_sym {
	const char *dso;
	const char *name;
	uint64_t insns;
};

struct pdx_run {
	const char *source;
	uint64_t ios; /* > 0 */
	uint64_t total, kernel, user, unattributed;
	size_t nr_syms;
	const struct pdx_sym *syms;
};

struct pdx_side {
	const char *name;
	size_t nr_runs;
	const struct pdx_run *runs;
};

struct pdx_opts {
	enum pd_sort sort;
	int sort_idx; /* compared side the sort uses, 1.. */
	size_t limit; /* 0: all rows */
	double tol_abs, tol_rel;
};

/* Per-run values over one side's runs. sd is NAN with fewer than 2. */
struct pdx_stat {
	double mean, min, max, sd;
};

struct pdx_cell {
	struct pdx_stat per_io;
	double share;
	double delta; /* compared sides */
	int unstable; /* 1 runs disagree, 0 agree, -1 one run only */
};

struct pdx_row {
	const char *dso;
	const char *name;
	struct pdx_cell *cells; /* [nr_sides] */
};

struct pdx_side_info {
	const char *name;
	size_t nr_runs;
	uint64_t ios; /* summed over the runs */
	struct pdx_stat total, kernel, user, unattributed; /* per IO */
	int unstable; /* the total per IO, as for a cell */
	size_t nr_unstable; /* symbols flagged on this side */
};

struct pdx_result {
	const char *source;
	struct pdx_opts opts;
	size_t nr_sides;
	struct pdx_side_info *sides;
	size_t nr_rows; /* after the limit */
	size_t nr_symbols;
	struct pdx_row *rows;
	struct pdx_cell *cell_store;
};

void perfdiff_exact_default_opts(struct pdx_opts *o);

/*
 * Diff @nr_sides (>= 2) sides. NULL on bad input (a side without runs,
 * ios 0, symbols above the total, mixed sources) with the reason in
 * @err, or when out of memory ("out of memory" in @err).
 */
struct pdx_result *perfdiff_exact_compute(const struct pdx_side *sides,
					  size_t nr_sides,
					  const struct pdx_opts *opts,
					  char *err, size_t errlen);
void perfdiff_exact_free(struct pdx_result *r);

/* perf diff-like text layout; 0 or -1 on a write error. */
int perfdiff_exact_fprint(const struct pdx_result *r, FILE *f);
char *perfdiff_exact_text(const struct pdx_result *r, size_t *len);

#endif
