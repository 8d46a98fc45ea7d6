// SPDX-License-Identifier: MIT
/*
 * perfdiff_samples - the sampled profile kind (perf record): one figure,
 * the samples of a symbol, a share of the run's samples in percent;
 * perf diff's columns (Baseline, Delta / Delta Abs / Ratio / Weighted
 * diff by ?compute=, Stddev and Noise with several runs a side).
 *
 * Counters: [0] the run's samples (total, the norm), [1] lost samples.
 */
#include <inttypes.h>
#include <math.h>

#include "daemon/analysis/perfdiff.h"

#define CELL(side) (&row->cells[(side)])

static void set_num(struct perfdiff_val *v, double x)
{
	v->type = PERFDIFF_NUM;
	v->num = x;
}

/* The share of the side's samples, %; none for a baseline without it. */
PERFDIFF_GETTER(get_share)
{
	if (s || CELL(s)->present)
		set_num(v, CELL(s)->v[0].pooled);
}

PERFDIFF_GETTER(get_samples)
{
	v->type = PERFDIFF_INT;
	v->i = (int64_t)CELL(s)->v[0].count;
}

/* Spread of the symbol's per-run share; none with one run. */
PERFDIFF_GETTER(get_stddev)
{
	if (!isnan(CELL(s)->v[0].run.sd))
		set_num(v, CELL(s)->v[0].run.sd);
}

PERFDIFF_GETTER(get_delta)
{
	if (CELL(s)->has_pair)
		set_num(v, CELL(s)->v[0].delta);
}

/* perf's "N/A" for a symbol only on the compared side (no baseline). */
static bool paired(const struct perfdiff_row *row, size_t s,
		   struct perfdiff_val *v)
{
	if (!CELL(s)->has_pair)
		return false;
	if (!CELL(0)->present) {
		v->type = PERFDIFF_NA;
		return false;
	}
	return true;
}

PERFDIFF_GETTER(get_ratio)
{
	if (paired(row, s, v))
		set_num(v, CELL(s)->ratio);
}

PERFDIFF_GETTER(get_wdiff)
{
	if (paired(row, s, v)) {
		v->type = PERFDIFF_INT;
		v->i = CELL(s)->wdiff;
	}
}

PERFDIFF_GETTER(get_p_value)
{
	set_num(v, CELL(s)->p_value);
}

PERFDIFF_GETTER(get_noise)
{
	if (CELL(s)->noise >= 0) {
		v->type = PERFDIFF_BOOL;
		v->i = CELL(s)->noise;
	}
}

/* ---- sort keys ---------------------------------------------------------- */

PERFDIFF_GETTER(get_delta_abs)
{
	if (CELL(s)->has_pair)
		set_num(v, fabs(CELL(s)->v[0].delta));
}

static double sd0(double sd)
{
	return isnan(sd) ? 0 : sd;
}

PERFDIFF_GETTER(get_max_stddev)
{
	set_num(v, fmax(sd0(CELL(0)->v[0].run.sd), sd0(CELL(s)->v[0].run.sd)));
}

PERFDIFF_GETTER(get_both_samples)
{
	set_num(v, (double)(CELL(0)->v[0].count + CELL(s)->v[0].count));
}

/* ---- columns ------------------------------------------------------------ */

#define B PERFDIFF_BASE
#define N PERFDIFF_NEW

static const struct perfdiff_field fields[] = {
	{ "baseline", B, get_share, PERFDIFF_SORT_BASELINE, 0 },
	{ "baseline_samples", B, get_samples, 0, 1 },
	{ "baseline_stddev", B, get_stddev, 0, 0 },
	{ "new", N, get_share, PERFDIFF_SORT_NEW, 0 },
	{ "new_samples", N, get_samples, 0, 2 },
	{ "new_stddev", N, get_stddev, 0, 0 },
	{ "delta", N, get_delta, PERFDIFF_SORT_DELTA, 0 },
	{ "ratio", N, get_ratio, PERFDIFF_SORT_RATIO, 0 },
	{ "wdiff", N, get_wdiff, PERFDIFF_SORT_WDIFF, 0 },
	{ "p_value", N, get_p_value, 0, 0 },
	{ "noise", N, get_noise, 0, 0 },
	{ NULL, N, get_delta_abs, PERFDIFF_SORT_DELTA_ABS, 0 },
	{ NULL, N, get_max_stddev, PERFDIFF_SORT_STDDEV, 0 },
	{ NULL, N, get_both_samples, PERFDIFF_SORT_SAMPLES, 0 },
};

static bool compute_delta(const struct perfdiff_result *r, size_t s)
{
	(void)s;
	return r->opts.compute == PERFDIFF_DELTA;
}

static bool compute_delta_abs(const struct perfdiff_result *r, size_t s)
{
	(void)s;
	return r->opts.compute == PERFDIFF_DELTA_ABS;
}

static bool compute_ratio(const struct perfdiff_result *r, size_t s)
{
	(void)s;
	return r->opts.compute == PERFDIFF_RATIO;
}

static bool compute_wdiff(const struct perfdiff_result *r, size_t s)
{
	(void)s;
	return r->opts.compute == PERFDIFF_WDIFF;
}

static bool runs2(const struct perfdiff_result *r, size_t s)
{
	return r->sides[s].nr_runs >= 2;
}

static bool both_runs2(const struct perfdiff_result *r, size_t s)
{
	return runs2(r, 0) && runs2(r, s);
}

static const struct perfdiff_text_col text[] = {
	{ "Baseline", B, 0, "%6.2f%%", get_share, 0, NULL },
	{ "Delta", N, 7, "%+4.2F%%", get_delta, 0, compute_delta },
	{ "Delta Abs", N, 7, "%+4.2F%%", get_delta, 0, compute_delta_abs },
	{ "Ratio", N, 14, "%14.6F", get_ratio, 0, compute_ratio },
	{ "Weighted diff", N, 14, "%14" PRId64, get_wdiff, PERFDIFF_BLANK_ZERO,
	  compute_wdiff },
	{ "Stddev", B | N, 7, "%6.2f%%", get_stddev, PERFDIFF_BLANK_ABSENT,
	  runs2 },
	{ "Noise", N, 5, "noise", get_noise, 0, both_runs2 },
};

static const struct perfdiff_web_col web[] = {
	{ "Baseline", "share of the control’s samples, %", "pct",
	  .base = "baseline", .hint = "baseline_stddev", .sort = "baseline",
	  .brief = true },
	{ "New", "share of the variant’s samples, %", "pct", .new = "new",
	  .hint = "new_stddev", .sort = "new" },
	{ "Delta", "new % − baseline % (percentage points)", "spct",
	  .new = "delta", .mark = "noise", .sort = "delta", .brief = true },
	{ "Ratio", "new samples / baseline samples", "ratio", .new = "ratio",
	  .sort = "ratio" },
	{ "Wdiff", "new samples × W2 − baseline samples × W1", "int",
	  .new = "wdiff", .sort = "wdiff" },
	{ "Samples", "baseline + new samples", "count",
	  .base = "baseline_samples", .new = "new_samples", .sort = "samples" },
};

/* ---- the lines around the table ----------------------------------------- */

static int preamble(const struct perfdiff_result *r, FILE *f)
{
	bool noise = false;
	size_t s;

	fprintf(f, "# Event '%s'\n#\n# Data files:\n", r->event);
	for (s = 0; s < r->nr_sides; s++) {
		const struct perfdiff_side_info *si = &r->sides[s];

		fprintf(f,
			"#  [%zu] %s: %zu run%s, %" PRIu64 " samples, %" PRIu64
			" lost%s\n",
			s, si->name, si->nr_runs, si->nr_runs == 1 ? "" : "s",
			si->counter[0], si->counter[1], s ? "" : " (Baseline)");
		noise |= runs2(r, s);
	}
	fprintf(f, "#\n");
	if (noise)
		fprintf(f,
			"# Stddev: spread of the symbol's per-run share; Noise: not a discovery of Welch's t test\n"
			"# with Benjamini-Hochberg over the symbols at a false-discovery rate of 5%%\n#\n");
	return ferror(f) ? -1 : 0;
}

static int side_json(const struct perfdiff_result *r, size_t s, json_t *o)
{
	const struct perfdiff_side_info *si = &r->sides[s];

	return json_object_set_new(o, "total",
				   json_integer((json_int_t)si->counter[0])) ||
	       json_object_set_new(o, "lost",
				   json_integer((json_int_t)si->counter[1]));
}

static const struct perfdiff_figure figures[] = {
	{ "samples", 0, -1 },
};

const struct perfdiff_kind perfdiff_samples = {
	.name = "samples",
	.runs = "profiled runs",
	.empty = "empty profile",
	.event_key = "event",
	.scale = 100,
	.pooled = true,
	.computes = true,
	.noise = true,
	.fit_symbol = true,
	.nr_figures = 1,
	.nr_counters = 2,
	.figures = figures,
	PERFDIFF_COLUMNS(fields, text, web),
	.preamble = preamble,
	.side_json = side_json,
};
