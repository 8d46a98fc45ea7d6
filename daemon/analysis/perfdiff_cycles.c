// SPDX-License-Identifier: MIT
/*
 * perfdiff_cycles - the cache model's kind: estimated cycles per IO per
 * symbol (qemu-icount with "cache": true; lab/exact_cache.h), next to
 * the instructions and the L1 and LL misses of the same symbol, so a
 * reader sees whether a patch costs more than its instruction count says.
 *
 * Figures: [0] estimated cycles, [1] instructions, [2] L1 misses (I + D),
 * [3] LL misses. Counters: [0] IOs (the norm), then the window's totals
 * of the four figures. Like the instructions kind the counts are exact:
 * values are means over the runs of count / ios, and a side whose runs
 * spread by more than tol_abs + tol_rel * |mean| in estimated cycles is
 * flagged.
 */
#include <inttypes.h>
#include <math.h>

#include "daemon/analysis/perfdiff.h"
#include "daemon/analysis/perfdiff_runcols.h"

enum { IOS, EST, INSNS, L1, LL, NR_COUNTERS };
enum { F_EST, F_INSNS, F_L1, F_LL, NR_FIGURES };

#define CELL(side) (&row->cells[(side)])

static void set_num(struct perfdiff_val *v, double x)
{
	v->type = PERFDIFF_NUM;
	v->num = x;
}

#define FIGURE_GETTERS(f, name)                                  \
	PERFDIFF_GETTER(get_##name)                              \
	{                                                        \
		set_num(v, CELL(s)->v[f].run.mean);              \
	}                                                        \
	PERFDIFF_GETTER(get_##name##_delta)                      \
	{                                                        \
		set_num(v, CELL(s)->v[f].delta);                 \
	}

FIGURE_GETTERS(F_EST, est)
FIGURE_GETTERS(F_INSNS, insns)
FIGURE_GETTERS(F_L1, l1)
FIGURE_GETTERS(F_LL, ll)

PERFDIFF_GETTER(get_share)
{
	set_num(v, CELL(s)->v[F_EST].share);
}

#define B PERFDIFF_BASE
#define N PERFDIFF_NEW

static const struct perfdiff_field fields[] = {
	{ "base_per_io", B, get_est, PERFDIFF_SORT_BASELINE, 0 },
	{ "base_insns_per_io", B, get_insns, 0, 0 },
	{ "base_l1_misses_per_io", B, get_l1, 0, 0 },
	{ "base_ll_misses_per_io", B, get_ll, 0, 0 },
	{ "new_per_io", N, get_est, PERFDIFF_SORT_NEW, 0 },
	{ "new_insns_per_io", N, get_insns, 0, 0 },
	{ "new_l1_misses_per_io", N, get_l1, 0, 0 },
	{ "new_ll_misses_per_io", N, get_ll, 0, 0 },
	{ "new_share", N, get_share, 0, 0 },
	{ "delta_per_io", N, get_est_delta, PERFDIFF_SORT_DELTA, 0 },
	{ "delta_insns_per_io", N, get_insns_delta, 0, 0 },
	{ "delta_l1_misses_per_io", N, get_l1_delta, 0, 0 },
	{ "delta_ll_misses_per_io", N, get_ll_delta, 0, 0 },
	{ "spread_per_io", N, perfdiff_run_spread_pair, 0, 0 },
	{ "unstable", N, perfdiff_run_pair_unstable, 0, 0 },
	{ NULL, N, perfdiff_run_ratio, PERFDIFF_SORT_RATIO, 0 },
	{ NULL, N, perfdiff_run_max_spread, PERFDIFF_SORT_STDDEV, 0 },
	{ NULL, N, perfdiff_run_both, PERFDIFF_SORT_SAMPLES, 1 },
	{ NULL, N, perfdiff_run_delta_abs, PERFDIFF_SORT_DELTA_ABS, 0 },
};

static const struct perfdiff_text_col text[] = {
	{ "Cyc/IO", B, 9, "%.1f", get_est, PERFDIFF_NO_SUFFIX, NULL },
	{ "Insn/IO", B, 9, "%.1f", get_insns, PERFDIFF_NO_SUFFIX, NULL },
	{ "New Cyc", N, 9, "%.1f", get_est, 0, NULL },
	{ "dCyc/IO", N, 9, "%+.2f", get_est_delta, 0, NULL },
	{ "dInsn/IO", N, 9, "%+.2f", get_insns_delta, 0, NULL },
	{ "dL1m/IO", N, 8, "%+.3f", get_l1_delta, 0, NULL },
	{ "dLLm/IO", N, 8, "%+.3f", get_ll_delta, 0, NULL },
	{ "Spread", N, 8, "%.2f", perfdiff_run_spread_pair, 0, NULL },
};

static const struct perfdiff_web_col web[] = {
	{ "Cyc/IO", "estimated cycles per IO of the control", "f3",
	  .base = "base_per_io", .sort = "baseline", .brief = true },
	{ "New Cyc/IO", "estimated cycles per IO of the variant", "f3",
	  .new = "new_per_io", .sort = "new", .brief = true },
	{ "ΔCyc/IO", "New − Base, estimated cycles per IO", "s3",
	  .new = "delta_per_io", .sort = "delta", .brief = true },
	{ "ΔInsn/IO", "New − Base, instructions per IO", "s3",
	  .new = "delta_insns_per_io", .brief = true },
	{ "ΔL1 miss/IO", "New − Base, L1I + L1D misses per IO", "s3",
	  .new = "delta_l1_misses_per_io", .brief = true },
	{ "ΔLL miss/IO", "New − Base, last-level misses per IO", "s3",
	  .new = "delta_ll_misses_per_io" },
	{ "Spread",
	  "max − min of the per-run estimated cycles per IO (larger of the two)",
	  "f3", .new = "spread_per_io", .mark = "unstable", .sort = "spread" },
};

static int preamble(const struct perfdiff_result *r, FILE *f)
{
	const struct perfdiff_side_info *b = &r->sides[0];

	fprintf(f, "# Estimated cycles (cache model, %s): L1 hit 1, LL hit 5, "
		   "RAM 35 per the stored weights; per IO\n#\n", r->event);
	for (size_t s = 0; s < r->nr_sides; s++) {
		const struct perfdiff_side_info *si = &r->sides[s];

		fprintf(f, "#  [%zu] %s: %zu run%s, %.1f cycles/IO, %.1f "
			   "instr/IO, %.3f L1 misses/IO, %.3f LL misses/IO%s\n",
			s, si->name, si->nr_runs, si->nr_runs == 1 ? "" : "s",
			si->per[EST].mean, si->per[INSNS].mean,
			si->per[L1].mean, si->per[LL].mean,
			s ? "" : " (Baseline)");
	}
	for (size_t s = 1; s < r->nr_sides; s++) {
		const struct perfdiff_side_info *n = &r->sides[s];
		double dc = n->per[EST].mean - b->per[EST].mean;
		double di = n->per[INSNS].mean - b->per[INSNS].mean;

		fprintf(f, "# Total/IO [%zu] %s: cycles %+.2f (%+.3f%%), "
			   "instructions %+.2f (%+.3f%%)\n", s, n->name, dc,
			b->per[EST].mean > 0 ? dc * 100 / b->per[EST].mean : 0.0,
			di, b->per[INSNS].mean > 0 ?
			di * 100 / b->per[INSNS].mean : 0.0);
	}
	fprintf(f, "#\n# An estimate of a simple model (docs/methodology.md), "
		   "not any CPU's cycles\n#\n");
	return ferror(f) ? -1 : 0;
}

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static int side_json(const struct perfdiff_result *r, size_t s, json_t *o)
{
	const struct perfdiff_side_info *si = &r->sides[s];
	json_t *x = json_pack("{s:I, s:o, s:o, s:o, s:o}", "ios",
			      (json_int_t)si->counter[IOS], "est_cycles_per_io",
			      num(si->per[EST].mean), "insns_per_io",
			      num(si->per[INSNS].mean), "l1_misses_per_io",
			      num(si->per[L1].mean), "ll_misses_per_io",
			      num(si->per[LL].mean));
	int rc;

	if (!x)
		return -1;
	rc = json_object_update(o, x);
	json_decref(x);
	return rc;
}

static const struct perfdiff_figure figures[] = {
	{ "estimated cycles", EST, -1 },
	{ "instructions", INSNS, -1 },
	{ "L1 misses", L1, -1 },
	{ "LL misses", LL, -1 },
};

const struct perfdiff_kind perfdiff_cycles = {
	.name = "cycles",
	.runs = "runs with the cache model",
	.empty = "no IOs counted",
	.event_key = "source",
	.unit = "estimated cycles per IO",
	.scale = 1,
	.exact = true,
	.nr_figures = NR_FIGURES,
	.nr_counters = NR_COUNTERS,
	.figures = figures,
	PERFDIFF_COLUMNS(fields, text, web),
	.preamble = preamble,
	.side_json = side_json,
};
