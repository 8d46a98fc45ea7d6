// SPDX-License-Identifier: MIT
/*
 * The reply in a series' thread; see watch_reply.h.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/analysis/watch_reply.h"

static void pct(char *out, size_t len, const char *fmt, double v)
{
	if (isnan(v))
		snprintf(out, len, "-");
	else
		snprintf(out, len, fmt, v);
}

static void numbers(FILE *f, const struct watch_reply_row *r)
{
	char d[32], lo[32], hi[32], mde[32], who[32];

	pct(d, sizeof(d), "%+.2f%%", r->delta_pct);
	pct(lo, sizeof(lo), "%+.2f%%", r->ci_lo);
	pct(hi, sizeof(hi), "%+.2f%%", r->ci_hi);
	pct(mde, sizeof(mde), "%.2f%%", r->mde_pct);
	if (r->npatches == 1)
		snprintf(who, sizeof(who), "patch 1");
	else
		snprintf(who, sizeof(who), "patches 1-%d", r->npatches);
	fprintf(f, "  %-12s %s  %s [%s, %s] (95%% CI)  MDE %s  %d runs\n", who,
		r->verdict ? r->verdict : "-", d, lo, hi, mde, r->runs);
}

char *watch_reply_text(const struct watch_reply *r)
{
	char *buf = NULL, d[32];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	bool bad = false;

	if (!f)
		return NULL;
	for (int i = 0; i < r->nrows; i++)
		bad |= r->rows[i].verdict && !strcmp(r->rows[i].verdict, "regression");
	fprintf(f, "Hi%s%s,\n\n", r->author_name && *r->author_name ? " " : "",
		r->author_name ? r->author_name : "");
	if (r->nrows > 1)
		fprintf(f, "perflab ran your series through its peak IOPS test, each\n"
			"patch on top of the ones before it, against the base:\n\n");
	else
		fprintf(f, "perflab ran your series through its peak IOPS test (the\n"
			"whole series applied, %d patch%s, against the base):\n\n",
			r->npatches, r->npatches == 1 ? "" : "es");
	fprintf(f, "  %s\n\n", r->subject);
	if (!strcmp(r->base_how, "base-commit"))
		fprintf(f, "base: %s@%.12s (the series' base-commit)\n\n", r->base,
			r->commit);
	else
		fprintf(f, "base: %s@%.12s (the head of %s: the series names no\n"
			"base-commit in its history)\n\n", r->base, r->commit,
			r->ref && *r->ref ? r->ref : "the watched ref");
	fprintf(f, "verdict (%s, against the base):\n", r->metric);
	for (int i = 0; i < r->nrows; i++)
		numbers(f, &r->rows[i]);
	if (r->prev_version) {
		pct(d, sizeof(d), "%+.2f%%", r->prev_delta_pct);
		fprintf(f, "\nv%d against v%d: v%d measured %s (%s) on the same test.\n",
			r->version, r->prev_version, r->prev_version, d,
			r->prev_verdict ? r->prev_verdict : "-");
	}
	if (r->lkp && *r->lkp)
		fprintf(f, "\n%s%s", r->lkp, r->lkp[strlen(r->lkp) - 1] == '\n' ? "" : "\n");
	fprintf(f, "\ndetails, runs and the perf diff:\n  %s/#/experiments/%lld\n",
		r->lab_url ? r->lab_url : "", (long long)r->experiment_id);
	if (bad)
		fprintf(f, "\nIf you fix the issue in a separate patch/commit (i.e. not just"
			" a new\nversion of the same patch/commit), kindly add following"
			" tags\n| Reported-by: perflab <%s>\n| Closes: %s/#/experiments/%lld\n",
			r->from ? r->from : "perflab@localhost", r->lab_url ? r->lab_url : "",
			(long long)r->experiment_id);
	fprintf(f, "\n-- \nperflab, the storage performance lab\n");
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

char *watch_reply_note_text(const char *author_name, const char *subject,
			    const char *base_used, const char *reason)
{
	const char *at = strchr(base_used ? base_used : "", '@');
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	fprintf(f, "Hi%s%s,\n\nperflab could not test your series:\n\n  %s\n\n",
		author_name && *author_name ? " " : "", author_name ? author_name : "",
		subject);
	fprintf(f, "It does not apply on %.*s@%.12s:\n\n  %s\n\n",
		at ? (int)(at - base_used) : 0, base_used ? base_used : "",
		at ? at + 1 : "-", reason ? reason : "-");
	fprintf(f, "Nothing was measured. A version that applies is tested when it"
		" is\nposted.\n\n-- \nperflab, the storage performance lab\n");
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}
