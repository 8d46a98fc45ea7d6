/* SPDX-License-Identifier: MIT */
/*
 * Stored change points against a new detection: the decision part of
 * the series code (lab/series.c), as a pure function so that benches and
 * tests run exactly what the daemon runs.
 *
 * After every new point the series code detects and merges on the series
 * without its last point (@prev) and with it (@cur), then reconciles the
 * stored rows:
 *   - live rows (candidate, confirmed) first, oldest first, each takes the
 *     nearest unclaimed current change point within min_size points; a
 *     retracted row may take one no live row took (it comes back);
 *   - a row that found one moves to its index (the stored location is the
 *     current detection's, not the first candidate's) and is confirmed
 *     when it was, or when @prev has it too; else it is a candidate again;
 *   - a row that found none is retracted;
 *   - current change points no row took are new rows: confirmed when
 *     @prev has them, else candidates.
 */
#ifndef PERFLAB_CP_TRACK_H
#define PERFLAB_CP_TRACK_H

#include <stdbool.h>
#include <stddef.h>

#include "daemon/analysis/changepoint.h"

struct cp_row {
	size_t index;		/* in: stored location; out: current one */
	enum cp_state state;	/* in: stored state; out: the new one */
	long match;		/* out: index into cur, or -1 */
	bool promoted;		/* out: became confirmed in this call */
};

/*
 * Reconcile @rows[0..nrows) with @cur[0..ncur) and @prev[0..nprev).
 * @fresh[0..ncur) (out): 0 taken by a row, else the state + 1 of a new
 * row (CP_CANDIDATE + 1 or CP_CONFIRMED + 1). Returns the number of rows
 * promoted plus new confirmed rows.
 */
int cp_track_reconcile(struct cp_row *rows, size_t nrows, const struct cp *cur,
		       size_t ncur, const struct cp *prev, size_t nprev,
		       size_t min_size, unsigned char *fresh);

#endif
