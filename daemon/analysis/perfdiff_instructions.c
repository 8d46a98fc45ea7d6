// SPDX-License-Identifier: MIT
/*
 * perfdiff_instructions - the exact profile kind: instructions executed
 * per IO per symbol, counted by the QEMU TCG plugin (lab/exact_profile.h).
 *
 * Every instruction of the measured window is counted, so there is no
 * sampling noise: runs of one kernel repeat to about 0.0005 % of the
 * total. Per symbol and side the value is the mean over the runs of
 * insns / ios (0 in a run without the symbol), its share of the side's
 * mean total per IO, the delta against the baseline, and the spread
 * (max - min) of the runs; a side whose runs spread by more than tol_abs
 * + tol_rel * |mean| is flagged (its delta is not exact either).
 *
 * Counters: [0] IOs (the norm), [1] all instructions, [2] kernel, [3]
 * user, [4] unattributed (outside any symbol).
 */
#include <inttypes.h>
#include <math.h>

#include "daemon/analysis/perfdiff.h"
#include "daemon/analysis/perfdiff_runcols.h"

enum { IOS, TOTAL, KERNEL, USER, UNATTRIBUTED, NR_COUNTERS };

#define CELL(side) (&row->cells[(side)])

static void set_num(struct perfdiff_val *v, double x)
{
	v->type = PERFDIFF_NUM;
	v->num = x;
}

static void set_flag(struct perfdiff_val *v, int flag)
{
	if (flag >= 0) {
		v->type = PERFDIFF_BOOL;
		v->i = flag;
	}
}

static double spread(const struct perfdiff_cell *c)
{
	return c->v[0].run.max - c->v[0].run.min;
}

PERFDIFF_GETTER(get_per_io)
{
	set_num(v, CELL(s)->v[0].run.mean);
}

PERFDIFF_GETTER(get_min)
{
	set_num(v, CELL(s)->v[0].run.min);
}

PERFDIFF_GETTER(get_max)
{
	set_num(v, CELL(s)->v[0].run.max);
}

PERFDIFF_GETTER(get_sd)
{
	set_num(v, CELL(s)->v[0].run.sd);
}

/* The runs' spread; none with one run. */
PERFDIFF_GETTER(get_spread)
{
	if (CELL(s)->unstable >= 0)
		set_num(v, spread(CELL(s)));
}

PERFDIFF_GETTER(get_share)
{
	set_num(v, CELL(s)->v[0].share);
}

PERFDIFF_GETTER(get_unstable)
{
	set_flag(v, CELL(s)->unstable);
}

PERFDIFF_GETTER(get_delta)
{
	set_num(v, CELL(s)->v[0].delta);
}

/* ---- columns ------------------------------------------------------------ */

#define B PERFDIFF_BASE
#define N PERFDIFF_NEW

static const struct perfdiff_field fields[] = {
	{ "base_per_io", B, get_per_io, PERFDIFF_SORT_BASELINE, 0 },
	{ "base_min", B, get_min, 0, 0 },
	{ "base_max", B, get_max, 0, 0 },
	{ "base_sd", B, get_sd, 0, 0 },
	{ "base_spread", B, get_spread, 0, 0 },
	{ "base_share", B, get_share, 0, 0 },
	{ "base_unstable", B, get_unstable, 0, 0 },
	{ "new_per_io", N, get_per_io, PERFDIFF_SORT_NEW, 0 },
	{ "new_min", N, get_min, 0, 0 },
	{ "new_max", N, get_max, 0, 0 },
	{ "new_sd", N, get_sd, 0, 0 },
	{ "new_spread", N, get_spread, 0, 0 },
	{ "new_share", N, get_share, 0, 0 },
	{ "new_unstable", N, get_unstable, 0, 0 },
	{ "delta_per_io", N, get_delta, PERFDIFF_SORT_DELTA, 0 },
	{ "spread_per_io", N, perfdiff_run_spread_pair, 0, 0 },
	{ "unstable", N, perfdiff_run_pair_unstable, 0, 0 },
	{ NULL, N, perfdiff_run_ratio, PERFDIFF_SORT_RATIO, 0 },
	{ NULL, N, perfdiff_run_max_spread, PERFDIFF_SORT_STDDEV, 0 },
	{ NULL, N, perfdiff_run_both, PERFDIFF_SORT_SAMPLES, 1 },
	{ NULL, N, perfdiff_run_delta_abs, PERFDIFF_SORT_DELTA_ABS, 0 },
};

static const struct perfdiff_text_col text[] = {
	{ "Base/IO", B, 8, "%.3f", get_per_io, PERFDIFF_NO_SUFFIX, NULL },
	{ "New/IO", N, 10, "%.3f", get_per_io, 0, NULL },
	{ "Delta/IO", N, 10, "%+.3f", get_delta, 0, NULL },
	{ "Share", N, 7, "%.2f%%", get_share, 0, NULL },
	{ "Spread", N, 9, "%.3f", perfdiff_run_spread_pair, 0, NULL },
};

static const struct perfdiff_web_col web[] = {
	{ "Base/IO", "instructions per IO of the control (mean over its runs)",
	  "f3", .base = "base_per_io", .hint = "base_sd", .sort = "baseline",
	  .brief = true },
	{ "New/IO", "instructions per IO of the variant", "f3",
	  .new = "new_per_io", .hint = "new_sd", .sort = "new", .brief = true },
	{ "Delta/IO", "New/IO − Base/IO", "s3", .new = "delta_per_io",
	  .sort = "delta", .brief = true },
	{ "Share", "share of the variant’s instructions, %", "pct",
	  .new = "new_share", .sort = "share", .brief = true },
	{ "Spread",
	  "max − min of the per-run instructions per IO (larger of the two variants)",
	  "f3", .new = "spread_per_io", .mark = "unstable", .sort = "spread",
	  .brief = true },
};

/* ---- the lines around the table ----------------------------------------- */

static int preamble(const struct perfdiff_result *r, FILE *f)
{
	const struct perfdiff_side_info *b = &r->sides[0];
	size_t s;

	fprintf(f,
		"# Event 'instructions' (exact count, %s): instructions per IO\n#\n# Data files:\n",
		r->event);
	for (s = 0; s < r->nr_sides; s++) {
		const struct perfdiff_side_info *si = &r->sides[s];

		fprintf(f,
			"#  [%zu] %s: %zu run%s, %" PRIu64
			" IOs, %.3f instr/IO (kernel %.3f, user %.3f)%s%s\n",
			s, si->name, si->nr_runs, si->nr_runs == 1 ? "" : "s",
			si->counter[IOS], si->per[TOTAL].mean,
			si->per[KERNEL].mean, si->per[USER].mean,
			s ? "" : " (Baseline)",
			si->unstable == 1 ? " (runs disagree on the total!)" :
					    "");
	}
	fprintf(f, "#\n");
	for (s = 1; s < r->nr_sides; s++) {
		const struct perfdiff_side_info *n = &r->sides[s];
		double d = n->per[TOTAL].mean - b->per[TOTAL].mean;

		fprintf(f,
			"# Total/IO [%zu] %s: %+.3f (%+.3f%%), kernel %+.3f, user %+.3f\n",
			s, n->name, d,
			b->per[TOTAL].mean > 0 ? d * 100 / b->per[TOTAL].mean :
						 0.0,
			n->per[KERNEL].mean - b->per[KERNEL].mean,
			n->per[USER].mean - b->per[USER].mean);
	}
	fprintf(f,
		"#\n# Share: of the variant's instructions; Spread: max - min of the per-run instr/IO\n"
		"# (larger of the two variants); '!': runs of one kernel differ by more than\n"
		"# %g instr/IO + %g%% of the mean\n#\n",
		r->opts.tol_abs, r->opts.tol_rel * 100);
	return ferror(f) ? -1 : 0;
}

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *stat_json(const struct perfdiff_stat *s)
{
	return json_pack("{s:o, s:o, s:o, s:o}", "mean", num(s->mean), "min",
			 num(s->min), "max", num(s->max), "sd", num(s->sd));
}

static int side_json(const struct perfdiff_result *r, size_t s, json_t *o)
{
	const struct perfdiff_side_info *si = &r->sides[s];
	json_t *x = json_pack("{s:I, s:o, s:o, s:o, s:o, s:o, s:I}", "ios",
			      (json_int_t)si->counter[IOS], "total_per_io",
			      stat_json(&si->per[TOTAL]), "kernel_per_io",
			      stat_json(&si->per[KERNEL]), "user_per_io",
			      stat_json(&si->per[USER]), "unattributed_per_io",
			      stat_json(&si->per[UNATTRIBUTED]), "runs_differ",
			      si->unstable < 0 ? json_null() :
						 json_boolean(si->unstable),
			      "unstable_symbols", (json_int_t)si->nr_unstable);
	int rc;

	if (!x)
		return -1;
	rc = json_object_update(o, x);
	json_decref(x);
	return rc;
}

/* Per compared side, the change of the totals per IO. */
static int tail_json(const struct perfdiff_result *r, json_t *o)
{
	const struct perfdiff_side_info *b = &r->sides[0];
	json_t *a = json_array();
	size_t s;

	if (json_object_set_new(o, "totals", a))
		return -1;
	for (s = 1; s < r->nr_sides; s++) {
		const struct perfdiff_side_info *n = &r->sides[s];
		double d = n->per[TOTAL].mean - b->per[TOTAL].mean;

		if (json_array_append_new(
			    a,
			    json_pack("{s:s, s:o, s:o, s:o, s:o}", "variant",
				      n->name, "total", num(d), "total_pct",
				      num(b->per[TOTAL].mean > 0 ?
						  d * 100 / b->per[TOTAL].mean :
						  NAN),
				      "kernel",
				      num(n->per[KERNEL].mean -
					  b->per[KERNEL].mean),
				      "user",
				      num(n->per[USER].mean -
					  b->per[USER].mean))))
			return -1;
	}
	return 0;
}

static const struct perfdiff_figure figures[] = {
	{ "instructions", TOTAL, UNATTRIBUTED },
};

const struct perfdiff_kind perfdiff_instructions = {
	.name = "instructions",
	.runs = "runs with exact profiles",
	.empty = "no IOs counted",
	.event_key = "source",
	.unit = "instructions per IO",
	.scale = 1,
	.exact = true,
	.nr_figures = 1,
	.nr_counters = NR_COUNTERS,
	.figures = figures,
	PERFDIFF_COLUMNS(fields, text, web),
	.preamble = preamble,
	.side_json = side_json,
	.tail_json = tail_json,
};
