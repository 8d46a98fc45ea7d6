/* SPDX-License-Identifier: MIT */
/*
 * perfdiff_runcols: the getters the exact kinds (instructions, cycles)
 * share. Both keep their headline figure first (cell->v[0]) with its run
 * statistics; these read the pair of sides and the sort keys from it.
 */
#ifndef PERFLAB_PERFDIFF_RUNCOLS_H
#define PERFLAB_PERFDIFF_RUNCOLS_H

#include "daemon/analysis/perfdiff.h"

/* The larger run spread of the two sides, '!' when either disagrees. */
perfdiff_get_fn perfdiff_run_spread_pair;
/* Whether either side disagrees (absent when neither side knows). */
perfdiff_get_fn perfdiff_run_pair_unstable;
/* Sort keys: new / base, the larger spread, base + new, |delta|. */
perfdiff_get_fn perfdiff_run_ratio;
perfdiff_get_fn perfdiff_run_max_spread;
perfdiff_get_fn perfdiff_run_both;
perfdiff_get_fn perfdiff_run_delta_abs;

#endif
