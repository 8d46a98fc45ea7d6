// SPDX-License-Identifier: MIT
/*
 * lkp_report - "kernel test robot" text of a bisection culprit; see
 * lkp_report.h for the layout rules.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/analysis/lkp_report.h"
#include "daemon/analysis/perfdiff.h"

#define SHORT_SHA 12

static const char *str(const char *s)
{
	return s ? s : "";
}

/* "%+.2f%%" (or "%.2f%%" when !sign), "-" for NAN. */
static const char *pct(char *buf, size_t n, double v, int sign)
{
	if (isnan(v))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, sign ? "%+.2f%%" : "%.2f%%", v);
	return buf;
}

/*
 * An MDE below what two decimals show: exact tiers (qemu-icount) resolve
 * far less than 0.01 %, and "0.00%" would claim no resolution at all.
 */
static const char *mde_pct(char *buf, size_t n, double v)
{
	if (!isnan(v) && v > 0 && v < 0.005)
		snprintf(buf, n, "<0.01%%");
	else if (!isnan(v) && v == 0)
		snprintf(buf, n, "exact");
	else
		pct(buf, n, v, 0);
	return buf;
}

static const char *num2(char *buf, size_t n, double v, const char *fmt)
{
	if (isnan(v))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, fmt, v);
	return buf;
}

/*
 * Write @text (control characters shown as spaces) word-wrapped at
 * LKP_WIDTH, every line starting with @indent; a word longer than a line
 * is broken.
 */
static void wrap(FILE *f, const char *indent, const char *text)
{
	size_t ind = strlen(indent), room = LKP_WIDTH - ind, col = 0;
	const char *p = text;

	while (*p) {
		size_t w = 0;

		while (*p && (*p == ' ' || (unsigned char)*p < 0x20 || *p == 0x7f))
			p++;
		if (!*p)
			break;
		while (p[w] && p[w] != ' ' && (unsigned char)p[w] >= 0x20 &&
		       p[w] != 0x7f)
			w++;
		if (col && col + 1 + w > room) {
			fputc('\n', f);
			col = 0;
		}
		while (w > room) {
			if (col)
				fputc('\n', f);
			fprintf(f, "%s%.*s\n", indent, (int)room, p);
			p += room;
			w -= room;
			col = 0;
		}
		fprintf(f, "%s%.*s", col ? " " : indent, (int)w, p);
		col += (col ? 1 : 0) + w;
		p += w;
	}
	if (col)
		fputc('\n', f);
}

static void header(FILE *f, const struct lkp_report *r)
{
	char line[512];

	fputs("Greeting,\n\n", f);
	snprintf(line, sizeof(line),
		 "FYI, we noticed a %+.1f%% %s of perflab.%s due to commit:",
		 r->delta_pct, str(r->direction), str(r->metric));
	wrap(f, "", line);
	fprintf(f, "\ncommit: %s\n", str(r->commit));
	snprintf(line, sizeof(line), "(\"%s\")", str(r->subject));
	wrap(f, "        ", line);
	snprintf(line, sizeof(line), "author: %s <%s>", str(r->author),
		 str(r->email));
	wrap(f, "", line);
	snprintf(line, sizeof(line), "in: %s %s (%s)", str(r->base),
		 str(r->ref), str(r->url));
	wrap(f, "", line);
	fputc('\n', f);
	if (r->in_reply_to && *r->in_reply_to) {
		snprintf(line, sizeof(line),
			 "This commit came from the patch %s submitted to "
			 "perflab; this report is a reply to it.",
			 r->in_reply_to);
		wrap(f, "", line);
		fputc('\n', f);
	}
	snprintf(line, sizeof(line), "in testcase: perflab %s on %s",
		 str(r->label), r->backend && *r->backend ? r->backend : "any backend");
	wrap(f, "", line);
	fputs("with following parameters:\n\n", f);
	for (size_t i = 0; i < r->nr_params; i++) {
		snprintf(line, sizeof(line), "%s: %s", str(r->params[i].key),
			 str(r->params[i].value));
		wrap(f, "        ", line);
	}
	fputs("\nIf you fix the issue, kindly add following tag\n"
	      "Reported-by: perflab kernel test robot\n", f);
	if (r->lab_url && *r->lab_url) {
		snprintf(line, sizeof(line), "Link: %s/#/bisections/%lld",
			 r->lab_url, (long long)r->bisection_id);
		wrap(f, "", line);
	}
}

static void numbers(FILE *f, const struct lkp_report *r)
{
	char d[32], lo[32], hi[32], mde[32], step[32];

	fputs("\nDetails are as below:\n"
	      "------------------------------------------------------------"
	      "------------------>\n\n", f);
	fprintf(f, "commit:\n  %.*s (good)\n  %.*s (culprit)\n\n",
		SHORT_SHA, str(r->good), SHORT_SHA, str(r->commit));
	fprintf(f, "%s %s: %s, %d runs a side, interleaved\n", str(r->metric),
		"delta", pct(d, sizeof(d), r->delta_pct, 1), r->runs);
	fprintf(f, "95%% CI: [%s, %s]\n", pct(lo, sizeof(lo), r->ci_lo, 1),
		pct(hi, sizeof(hi), r->ci_hi, 1));
	fprintf(f, "MDE: %s\n", mde_pct(mde, sizeof(mde), r->mde_pct));
	fprintf(f, "verdict: %s\n", r->verdict ? r->verdict : "-");
	fprintf(f, "step bisected: %s between %.*s (good) and %.*s (bad)\n",
		pct(step, sizeof(step), r->step_pct, 1), SHORT_SHA, str(r->good),
		SHORT_SHA, str(r->bad));
}

static const char *step_mark(const struct lkp_step *s)
{
	if (s->state && !strcmp(s->state, "skipped"))
		return "skip";
	return s->bad > 0 ? "bad" : s->bad == 0 ? "good" : "-";
}

static void steps(FILE *f, const struct lkp_report *r)
{
	char d[32], lo[32], hi[32], mde[32];

	fprintf(f, "\nbisection log (%zu steps; each an experiment against the"
		" good end):\n\n", r->nr_steps);
	fprintf(f, "  #  %-12s  %4s  %8s  %19s  %6s  %-12s  %-4s  %s\n",
		"commit", "runs", "delta", "95% CI", "MDE", "verdict", "mark",
		"subject");
	for (size_t i = 0; i < r->nr_steps; i++) {
		const struct lkp_step *s = &r->steps[i];
		char ci[80];

		if (isnan(s->ci_lo) || isnan(s->ci_hi))
			snprintf(ci, sizeof(ci), "-");
		else
			snprintf(ci, sizeof(ci), "[%s, %s]",
				 pct(lo, sizeof(lo), s->ci_lo, 1),
				 pct(hi, sizeof(hi), s->ci_hi, 1));
		fprintf(f, "%3zu  %-12.12s  %4d  %8s  %19s  %6s  %-12s  %-4s  ",
			i + 1, str(s->commit), s->runs,
			pct(d, sizeof(d), s->delta_pct, 1), ci,
			mde_pct(mde, sizeof(mde), s->mde_pct),
			s->verdict ? s->verdict : "-", step_mark(s));
		/* one line per step whatever the subject holds */
		for (const char *p = str(s->subject); *p; p++)
			fputc((unsigned char)*p < 0x20 || *p == 0x7f ? ' ' : *p, f);
		fputc('\n', f);
	}
}

static void perf_diff(FILE *f, const struct lkp_report *r)
{
	char b[32], n[32], d[32], s[32];
	int dso_w = 13;

	if (!r->nr_rows)
		return;
	for (size_t i = 0; i < r->nr_rows; i++) {
		int len = (int)strlen(str(r->rows[i].dso));

		dso_w = len > dso_w ? len : dso_w;
	}
	fprintf(f, "\n# Exact perf diff, instructions per IO:"
		" %.*s vs %.*s\n#\n", SHORT_SHA, str(r->good), SHORT_SHA,
		str(r->commit));
	fprintf(f, "# %10s  %10s  %10s  %7s  %-*s  %s\n", "Baseline", "New",
		"Delta", "Share", dso_w, "Shared Object", "Symbol");
	fprintf(f, "# ..........  ..........  ..........  .......  ");
	for (int i = 0; i < dso_w; i++)
		fputc('.', f);
	fputs("  ......\n#\n", f);
	for (size_t i = 0; i < r->nr_rows; i++) {
		const struct lkp_pd_row *p = &r->rows[i];

		fprintf(f, "  %10s  %10s  %10s  %7s  %-*s  [%c] %s\n",
			num2(b, sizeof(b), p->base, "%.2f"),
			num2(n, sizeof(n), p->new_, "%.2f"),
			num2(d, sizeof(d), p->delta, "%+.2f"),
			pct(s, sizeof(s), p->share, 0), dso_w, str(p->dso),
			perfdiff_sym_level(str(p->dso)), str(p->sym));
	}
	if (r->lab_url && *r->lab_url && r->experiment_id) {
		char line[512];

		snprintf(line, sizeof(line),
			 "full diff: %s/#/experiments/%lld/perf-diff",
			 r->lab_url, (long long)r->experiment_id);
		fputc('\n', f);
		wrap(f, "", line);
	}
}

/* @s as one shell word: bare when it is safe, else in single quotes. */
static void quote(char *out, size_t n, const char *s)
{
	size_t o = 0;

	if (*s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			 "0123456789._-+/:@=,") == strlen(s)) {
		snprintf(out, n, "%s", s);
		return;
	}
	if (n < 3) {
		*out = '\0';
		return;
	}
	out[o++] = '\'';
	for (; *s && o + 5 < n; s++) {
		if (*s == '\'') {
			memcpy(out + o, "'\\''", 4);
			o += 4;
		} else {
			out[o++] = (unsigned char)*s < 0x20 ? ' ' : *s;
		}
	}
	out[o++] = '\'';
	out[o] = '\0';
}

static void reproduce(FILE *f, const struct lkp_report *r)
{
	char line[1024], q[256];

	fputs("\nTo reproduce:\n\n", f);
	snprintf(line, sizeof(line), "git clone %s linux", str(r->url));
	wrap(f, "        ", line);
	fputs("        cd linux\n", f);
	snprintf(line, sizeof(line),
		 "git format-patch -1 --stdout %.*s > culprit.patch",
		 SHORT_SHA, str(r->commit));
	wrap(f, "        ", line);
	fputs("        perflab submit culprit.patch \\\n", f);
	snprintf(line, sizeof(line), "--base %s@%.*s --backend %s \\",
		 str(r->base), SHORT_SHA, str(r->parent), str(r->backend));
	wrap(f, "                ", line);
	quote(q, sizeof(q), str(r->label));
	snprintf(line, sizeof(line), "--runs %d --label %s", r->runs, q);
	wrap(f, "                ", line);
	if (r->experiment_id) {
		snprintf(line, sizeof(line),
			 "perflab perf-diff %lld --kind instructions",
			 (long long)r->experiment_id);
		wrap(f, "        ", line);
	}
	snprintf(line, sizeof(line), "perflab bisect show %lld",
		 (long long)r->bisection_id);
	wrap(f, "        ", line);
	fputs("\nThanks,\nperflab (kernel test robot style report)\n", f);
}

char *lkp_report_text(const struct lkp_report *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	header(f, r);
	numbers(f, r);
	steps(f, r);
	perf_diff(f, r);
	reproduce(f, r);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}
