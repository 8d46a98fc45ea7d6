// SPDX-License-Identifier: MIT
/*
 * perfdiff_text - the perf diff text layout of any kind, over its text
 * columns (perfdiff.h), as tools/perf/builtin-diff.c and ui/stdio/hist.c
 * print it: "# " and the headers, a line of dots as wide as each column,
 * then a row per symbol, columns two spaces apart, numbers right-aligned,
 * Shared Object and "[k] symbol" last.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/analysis/perfdiff.h"

#define MAX_COLS 64

struct col {
	const struct perfdiff_text_col *c; /* NULL: Shared Object, Symbol */
	size_t side;
	int width;
	char hdr[32];
};

static void add_col(struct col *cols, int *n, const struct perfdiff_result *r,
		    const struct perfdiff_text_col *c, size_t side,
		    const char *name, int width)
{
	struct col *x = &cols[(*n)++];
	int len;

	x->c = c;
	x->side = side;
	if (c && r->nr_sides > 2 && !(c->flags & PERFDIFF_NO_SUFFIX))
		snprintf(x->hdr, sizeof(x->hdr), "%s/%zu", name, side);
	else
		snprintf(x->hdr, sizeof(x->hdr), "%s", name);
	len = strlen(x->hdr);
	x->width = width > len ? width : len;
}

/* The kind's columns of @side (a bit of PERFDIFF_BASE/NEW) shown there. */
static void side_cols(struct col *cols, int *n, const struct perfdiff_result *r,
		      unsigned bit, size_t side)
{
	const struct perfdiff_kind *k = r->kind;
	size_t i;

	for (i = 0; i < k->nr_text && *n < MAX_COLS - 2; i++) {
		const struct perfdiff_text_col *c = &k->text[i];

		if ((c->side & bit) && (!c->shown || c->shown(r, side)))
			add_col(cols, n, r, c, side, c->header, c->width);
	}
}

static int make_cols(const struct perfdiff_result *r, struct col *cols,
		     int *sym_col)
{
	int n = 0, dso_w = 13, sym_w = 6, len;
	size_t s, i;

	side_cols(cols, &n, r, PERFDIFF_BASE, 0);
	for (s = 1; s < r->nr_sides; s++)
		side_cols(cols, &n, r, PERFDIFF_NEW, s);
	for (i = 0; i < r->nr_rows; i++) {
		len = strlen(r->rows[i].dso);
		dso_w = len > dso_w ? len : dso_w;
		len = strlen(r->rows[i].name) + 4; /* "[k] " */
		if (r->kind->fit_symbol)
			sym_w = len > sym_w ? len : sym_w;
	}
	add_col(cols, &n, r, NULL, 0, "Shared Object", dso_w);
	*sym_col = n;
	add_col(cols, &n, r, NULL, 0, "Symbol", sym_w);
	return n;
}

char perfdiff_sym_level(const char *dso)
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

static void cell_text(const struct perfdiff_result *r,
		      const struct perfdiff_row *row, const struct col *x,
		      char *buf, size_t size)
{
	const struct perfdiff_text_col *c = x->c;
	struct perfdiff_val v = { .type = PERFDIFF_NONE };
	int len = 0;

	snprintf(buf, size, " ");
	if ((c->flags & PERFDIFF_BLANK_ABSENT) && !row->cells[x->side].present)
		return;
	c->get(r, row, x->side, &v);
	switch (v.type) {
	case PERFDIFF_NA:
		len = snprintf(buf, size, "N/A");
		break;
	case PERFDIFF_NUM:
		if ((c->flags & PERFDIFF_BLANK_ZERO) && v.num == 0)
			return;
		len = snprintf(buf, size, c->fmt, v.num);
		break;
	case PERFDIFF_INT:
		if ((c->flags & PERFDIFF_BLANK_ZERO) && v.i == 0)
			return;
		len = snprintf(buf, size, c->fmt, v.i);
		break;
	case PERFDIFF_BOOL:
		if (v.i)
			len = snprintf(buf, size, "%s", c->fmt);
		break;
	default:
		return;
	}
	if (v.mark && len > 0 && (size_t)len + 1 < size) {
		buf[len] = v.mark;
		buf[len + 1] = '\0';
	}
}

/*
 * A row: the first column right-aligned in its width and the two spaces
 * that stand before every other column (perf prints "  " first).
 */
static void print_row(FILE *f, const struct perfdiff_result *r,
		      const struct perfdiff_row *row, const struct col *cols,
		      int n, int sym_col)
{
	char buf[64];
	int i;

	for (i = 0; i < n; i++) {
		const struct col *x = &cols[i];
		int w = i ? x->width : x->width + 2;

		if (i)
			fputs("  ", f);
		if (i == sym_col)
			fprintf(f, "[%c] %s", perfdiff_sym_level(row->dso),
				row->name);
		else if (!x->c)
			fprintf(f, "%-*.*s", w, w, row->dso);
		else {
			cell_text(r, row, x, buf, sizeof(buf));
			fprintf(f, "%*s", w, buf);
		}
	}
	fputc('\n', f);
}

static void print_header(FILE *f, const struct col *cols, int n)
{
	int i, j;

	fputs("# ", f);
	for (i = 0; i < n; i++) {
		const struct col *x = &cols[i];

		if (i)
			fputs("  ", f);
		if (!x->c)
			fprintf(f, "%-*.*s", x->width, x->width, x->hdr);
		else
			fprintf(f, "%*s", x->width, x->hdr);
	}
	fputs("\n# ", f);
	for (i = 0; i < n; i++) {
		if (i)
			fputs("  ", f);
		for (j = 0; j < cols[i].width; j++)
			fputc('.', f);
	}
	fputs("\n#\n", f);
}

int perfdiff_fprint(const struct perfdiff_result *r, FILE *f)
{
	struct col cols[MAX_COLS];
	int n, sym_col;
	size_t k;

	n = make_cols(r, cols, &sym_col);
	if (r->kind->preamble && r->kind->preamble(r, f))
		return -1;
	print_header(f, cols, n);
	for (k = 0; k < r->nr_rows; k++)
		print_row(f, r, &r->rows[k], cols, n, sym_col);
	return ferror(f) ? -1 : 0;
}

char *perfdiff_text(const struct perfdiff_result *r, size_t *len)
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
