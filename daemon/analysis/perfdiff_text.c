// SPDX-License-Identifier: MIT
/*
 * perf diff text layout of a sampled diff (perfdiff.h), as
 * tools/perf/builtin-diff.c and ui/stdio/hist.c print it.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/analysis/perfdiff.h"

/* ---- text layout (tools/perf/builtin-diff.c + ui/stdio/hist.c) --------- */

enum col_kind {
	COL_BASELINE,
	COL_STDDEV,
	COL_COMPUTE,
	COL_NOISE,
	COL_DSO,
	COL_SYM
};

struct col {
	enum col_kind kind;
	size_t side;
	int width;
	char hdr[32];
};

#define PD_MAX_COLS 64

static const struct {
	const char *name, *header;
	int width;
} computes[] = {
	[PD_DELTA] = { "delta", "Delta", 7 },
	[PD_DELTA_ABS] = { "delta-abs", "Delta Abs", 7 },
	[PD_RATIO] = { "ratio", "Ratio", 14 },
	[PD_WDIFF] = { "wdiff", "Weighted diff", 14 },
};

static bool side_has_sd(const struct pd_result *r, size_t s)
{
	return r->sides[s].nr_runs >= 2;
}

static void add_col(struct col *cols, int *n, const struct pd_result *r,
		    enum col_kind kind, size_t side, const char *name,
		    int width)
{
	struct col *c = &cols[(*n)++];
	int len;

	c->kind = kind;
	c->side = side;
	if (r->nr_sides > 2 && kind != COL_DSO && kind != COL_SYM)
		snprintf(c->hdr, sizeof(c->hdr), "%s/%zu", name, side);
	else
		snprintf(c->hdr, sizeof(c->hdr), "%s", name);
	len = strlen(c->hdr);
	c->width = width > len ? width : len;
}

static int make_cols(const struct pd_result *r, struct col *cols)
{
	int n = 0, dso_w = 13, sym_w = 6, len;
	size_t s, i;

	add_col(cols, &n, r, COL_BASELINE, 0, "Baseline", 0);
	if (side_has_sd(r, 0))
		add_col(cols, &n, r, COL_STDDEV, 0, "Stddev", 7);
	for (s = 1; s < r->nr_sides && n < PD_MAX_COLS - 5; s++) {
		add_col(cols, &n, r, COL_COMPUTE, s,
			computes[r->opts.compute].header,
			computes[r->opts.compute].width);
		if (side_has_sd(r, s))
			add_col(cols, &n, r, COL_STDDEV, s, "Stddev", 7);
		if (side_has_sd(r, 0) && side_has_sd(r, s))
			add_col(cols, &n, r, COL_NOISE, s, "Noise", 5);
	}
	for (i = 0; i < r->nr_rows; i++) {
		len = strlen(r->rows[i].dso);
		dso_w = len > dso_w ? len : dso_w;
		len = strlen(r->rows[i].name) + 4; /* "[k] " */
		sym_w = len > sym_w ? len : sym_w;
	}
	add_col(cols, &n, r, COL_DSO, 0, "Shared Object", dso_w);
	add_col(cols, &n, r, COL_SYM, 0, "Symbol", sym_w);
	return n;
}

/* perf's priv level: kernel and module dsos are "[name]". */
static char sym_level(const char *dso)
{
	static const char *const user[] = {
		"[vdso]",  "[vsyscall]", "[unknown]", "[heap]",
		"[stack]", "[anon]",	 "[vvar]",    NULL,
	};
	int i;

	if (dso[0] != '[')
		return '.';
	for (i = 0; user[i]; i++)
		if (!strcmp(dso, user[i]))
			return '.';
	return 'k';
}

static void cell_text(const struct pd_result *r, const struct pd_row *row,
		      const struct col *c, char *buf, size_t size)
{
	const struct pd_cell *b = &row->cells[0];
	const struct pd_cell *x = &row->cells[c->side];

	snprintf(buf, size, " ");
	switch (c->kind) {
	case COL_BASELINE:
		if (b->present)
			snprintf(buf, size, "%6.2f%%", b->percent);
		break;
	case COL_STDDEV:
		if (x->present && !isnan(x->stddev))
			snprintf(buf, size, "%6.2f%%", x->stddev);
		break;
	case COL_NOISE:
		if (x->noise == 1)
			snprintf(buf, size, "noise");
		break;
	case COL_COMPUTE:
		if (!x->has_pair)
			break;
		if (r->opts.compute == PD_DELTA ||
		    r->opts.compute == PD_DELTA_ABS)
			snprintf(buf, size, "%+4.2F%%", x->delta);
		else if (!b->present)
			snprintf(buf, size, "N/A");
		else if (r->opts.compute == PD_RATIO && x->ratio > 0.0)
			snprintf(buf, size, "%14.6F", x->ratio);
		else if (r->opts.compute == PD_WDIFF && x->wdiff != 0)
			snprintf(buf, size, "%14" PRId64, x->wdiff);
		break;
	default:
		break;
	}
}

static void print_row(FILE *f, const struct pd_result *r,
		      const struct pd_row *row, const struct col *cols, int n)
{
	char buf[64];
	int i;

	for (i = 0; i < n; i++) {
		const struct col *c = &cols[i];

		fputs("  ", f);
		if (c->kind == COL_DSO) {
			fprintf(f, "%-*.*s", c->width, c->width, row->dso);
		} else if (c->kind == COL_SYM) {
			fprintf(f, "[%c] %s", sym_level(row->dso), row->name);
		} else {
			cell_text(r, row, c, buf, sizeof(buf));
			fprintf(f, "%*s", c->width, buf);
		}
	}
	fputc('\n', f);
}

static void print_preamble(FILE *f, const struct pd_result *r, bool noise)
{
	size_t s;

	fprintf(f, "# Event '%s'\n#\n# Data files:\n", r->event);
	for (s = 0; s < r->nr_sides; s++)
		fprintf(f,
			"#  [%zu] %s: %zu run%s, %" PRIu64 " samples, %" PRIu64
			" lost%s\n",
			s, r->sides[s].name, r->sides[s].nr_runs,
			r->sides[s].nr_runs == 1 ? "" : "s", r->sides[s].total,
			r->sides[s].lost, s ? "" : " (Baseline)");
	fprintf(f, "#\n");
	if (noise)
		fprintf(f,
			"# Stddev: spread of the symbol's per-run share; Noise: not a discovery of Welch's t test\n"
			"# with Benjamini-Hochberg over the symbols at a false-discovery rate of 5%%\n#\n");
}

int perfdiff_fprint(const struct pd_result *r, FILE *f)
{
	struct col cols[PD_MAX_COLS];
	bool noise = false;
	int n, i, j;
	size_t k;

	n = make_cols(r, cols);
	for (i = 0; i < n; i++)
		noise |= cols[i].kind == COL_STDDEV;
	print_preamble(f, r, noise);
	fputs("# ", f);
	for (i = 0; i < n; i++) {
		const struct col *c = &cols[i];

		if (i)
			fputs("  ", f);
		if (c->kind == COL_DSO || c->kind == COL_SYM)
			fprintf(f, "%-*.*s", c->width, c->width, c->hdr);
		else
			fprintf(f, "%*s", c->width, c->hdr);
	}
	fputs("\n# ", f);
	for (i = 0; i < n; i++) {
		if (i)
			fputs("  ", f);
		for (j = 0; j < cols[i].width; j++)
			fputc('.', f);
	}
	fputs("\n#\n", f);
	for (k = 0; k < r->nr_rows; k++)
		print_row(f, r, &r->rows[k], cols, n);
	return ferror(f) ? -1 : 0;
}

char *perfdiff_text(const struct pd_result *r, size_t *len)
{
	char *buf = NULL;
	size_t sz = 0;
	FILE *f = open_memstream(&buf, &sz);
	int ret;

	if (!f)
		return NULL;
	ret = perfdiff_fprint(r, f);
	if (fclose(f) || ret) {
		free(buf);
		return NULL;
	}
	if (len)
		*len = sz;
	return buf;
}

const char *perfdiff_compute_name(const struct pd_opts *o, char *buf,
				  size_t size)
{
	if (o->compute != PD_WDIFF)
		return computes[o->compute].name;
	snprintf(buf, size, "wdiff:%" PRId64 ",%" PRId64, o->w1, o->w2);
	return buf;
}
