// SPDX-License-Identifier: MIT
/*
 * The LKP comparison table of runs; see lkp_table.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/analysis/lkp_table.h"

#define CELL 18		/* "mean ±sd%" right-aligned */

struct stat {
	double mean, sd_pct;
	int n;
};

static struct stat side_stat(const struct lkp_table_side *s, size_t m)
{
	struct stat st = { 0, 0, 0 };
	double sum = 0, ss = 0;

	for (size_t r = 0; r < s->nruns; r++) {
		double v = s->value[m * s->nruns + r];

		if (isfinite(v)) {
			sum += v;
			st.n++;
		}
	}
	if (!st.n)
		return st;
	st.mean = sum / st.n;
	for (size_t r = 0; r < s->nruns; r++) {
		double v = s->value[m * s->nruns + r];

		if (isfinite(v))
			ss += (v - st.mean) * (v - st.mean);
	}
	if (st.n > 1 && st.mean != 0)
		st.sd_pct = 100 * sqrt(ss / (st.n - 1)) / fabs(st.mean);
	return st;
}

static void cell(FILE *f, const struct stat *s)
{
	char num[48], c[80];

	if (!s->n) {
		/* U+2013 is three bytes wide in the buffer, one column on screen. */
		fprintf(f, "%*s\xe2\x80\x93", CELL - 1, "");
		return;
	}
	if (fabs(s->mean) >= 1e4)
		snprintf(num, sizeof(num), "%.0f", round(s->mean));
	else
		snprintf(num, sizeof(num), "%.2f", s->mean);
	/* "±" is two bytes: pad one more. */
	snprintf(c, sizeof(c), "%s \xc2\xb1%4.1f%%", num, s->sd_pct);
	fprintf(f, "%*s", CELL + 1, c);
}

static void header(FILE *f, const struct lkp_table_side *ctl,
		   const struct lkp_table_side *others, size_t no)
{
	fprintf(f, "%*s%18s", CELL, ctl->name, "");
	for (size_t i = 0; i < no; i++)
		fprintf(f, "%s%s", i ? " / " : "", others[i].name);
	fprintf(f, "\n---------------- ");
	for (size_t i = 0; i < (no ? no : 1); i++)
		fprintf(f, " --------------------------- ");
	fprintf(f, "\n");
}

char *lkp_table_text(const char *const *metrics, size_t nm,
		     const struct lkp_table_side *ctl,
		     const struct lkp_table_side *others, size_t no)
{
	char *buf = NULL, ch[32];
	size_t len = 0;
	FILE *f;

	if (!ctl || !ctl->nruns)
		return NULL;
	f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	header(f, ctl, others, no);
	for (size_t m = 0; m < nm; m++) {
		struct stat b = side_stat(ctl, m);

		if (!b.n)
			continue;
		cell(f, &b);
		for (size_t i = 0; i < no; i++) {
			struct stat n = side_stat(&others[i], m);

			ch[0] = '\0';
			if (n.n && b.mean != 0)
				snprintf(ch, sizeof(ch), "%+.1f%%",
					 100 * (n.mean - b.mean) / b.mean);
			fprintf(f, "  %7s ", ch);
			cell(f, &n);
		}
		fprintf(f, "  %s\n", metrics[m]);
	}
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}
