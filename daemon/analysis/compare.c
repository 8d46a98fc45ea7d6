// SPDX-License-Identifier: MIT
/*
 * Comparing imported benchmark logs without runs in the lab; see
 * compare.h, formats in logimport.h.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/analysis/compare.h"
#include "daemon/analysis/logimport.h"

#define CMP_MAX_LOGS COMPARE_MAX_LOGS
#define CMP_MAX_GROUPS 16
#define CMP_TOP_SYMS 10

struct cgroup {
	char name[128];
	const char *format;
	struct verdict_run *runs;
	size_t n;
	struct verdict_sym *syms;
	size_t nsyms;
	double prof_total;
};

static struct cgroup *group_get(struct cgroup *g, size_t *ng, const char *name)
{
	for (size_t i = 0; i < *ng; i++)
		if (!strcmp(g[i].name, name))
			return &g[i];
	if (*ng == CMP_MAX_GROUPS)
		return NULL;
	memset(&g[*ng], 0, sizeof(g[*ng]));
	snprintf(g[*ng].name, sizeof(g[*ng].name), "%s", name);
	return &g[(*ng)++];
}

static int group_add_run(struct cgroup *g, const struct li_run *run,
			 const char *format)
{
	struct verdict_run *r = realloc(g->runs, (g->n + 1) * sizeof(*r));

	if (!r)
		return -1;
	g->runs = r;
	logimport_verdict_run(run, &g->runs[g->n++]);
	g->format = format;
	if (!(run->prof_total > 0))
		return 0;
	g->prof_total += run->prof_total;
	for (size_t i = 0; i < run->nsyms; i++) {
		size_t k;

		for (k = 0; k < g->nsyms; k++)
			if (!strcmp(g->syms[k].name, run->syms[i].name))
				break;
		if (k == g->nsyms) {
			struct verdict_sym *s = realloc(g->syms, (k + 1) * sizeof(*s));

			if (!s)
				return -1;
			g->syms = s;
			g->syms[k] = (struct verdict_sym){ run->syms[i].name, 0 };
			g->nsyms++;
		}
		g->syms[k].samples += run->syms[i].samples;
	}
	return 0;
}

static json_t *rows_json(const struct verdict_row *rows, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_pack("{s:s, s:f, s:f, s:f, s:f, s:f, s:s}",
			"metric", rows[i].name, "base", rows[i].base,
			"base_sd_pct", rows[i].has_sd ? rows[i].base_sd_pct : 0.0,
			"new", rows[i].new,
			"new_sd_pct", rows[i].has_sd ? rows[i].new_sd_pct : 0.0,
			"change", rows[i].change,
			"change_unit", rows[i].points ? "points" : "%"));
	return a;
}

static json_t *compare_pair(const struct cgroup *c, const struct cgroup *v,
			    const struct verdict_opts *o, char *err,
			    size_t errlen)
{
	struct verdict_row rows[3 + CMP_TOP_SYMS];
	struct verdict_opts oo = *o;
	struct verdict_result r;
	size_t nrows;
	json_t *j;
	char *text;
	int ret;

	/* Imported logs: one boot a side may compare seconds (never alerts). */
	oo.allow_per_second = 1;
	ret = verdict_compare_runs(c->runs, c->n, v->runs, v->n, &oo, &r);
	if (ret) {
		snprintf(err, errlen, "%s vs %s: %s", v->name, c->name,
			 ret == -EINVAL ? "fewer than 2 runs a side and no per-second samples after the warm-up (fio JSON has none by default: give at least two fio runs per variant, or write them with --status-interval=1)" :
					  strerror(-ret));
		return NULL;
	}
	nrows = verdict_rows(c->runs, c->n, v->runs, v->n, rows, 3);
	nrows += verdict_symbol_rows(c->syms, c->nsyms, c->prof_total, v->syms,
				     v->nsyms, v->prof_total, rows + nrows,
				     CMP_TOP_SYMS);
	text = verdict_text(&r, c->name, v->name, rows, nrows);
	j = verdict_json(&r);
	if (!j || !text) {
		free(text);
		json_decref(j);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	json_object_set_new(j, "variant", json_string(v->name));
	json_object_set_new(j, "control", json_string(c->name));
	json_object_set_new(j, "rows", rows_json(rows, nrows));
	json_object_set_new(j, "text", json_string(text));
	free(text);
	return j;
}

static json_t *compare_groups(struct cgroup *g, size_t ng,
			      const struct verdict_opts *o, char *err,
			      size_t errlen)
{
	json_t *out, *vars = json_array(), *cmps = json_array();
	char *all = NULL;
	size_t alllen = 0;
	FILE *f;

	out = json_pack("{s:s, s:o, s:o}", "control", g[0].name, "variants",
			vars, "comparisons", cmps);
	if (!out)
		return NULL;
	for (size_t i = 0; i < ng; i++)
		json_array_append_new(vars, json_pack("{s:s, s:I, s:s}",
			"name", g[i].name, "runs", (json_int_t)g[i].n,
			"format", g[i].format));
	f = open_memstream(&all, &alllen);
	if (!f)
		goto fail;
	for (size_t i = 1; i < ng; i++) {
		json_t *c = compare_pair(&g[0], &g[i], o, err, errlen);

		if (!c) {
			fclose(f);
			free(all);
			goto fail;
		}
		fprintf(f, "%s%s", i > 1 ? "\n" : "",
			json_string_value(json_object_get(c, "text")));
		json_array_append_new(cmps, c);
	}
	fclose(f);
	json_object_set_new(out, "text", json_string(all));
	free(all);
	return out;
fail:
	json_decref(out);
	return NULL;
}

json_t *compare_logs(const struct compare_log *logs, size_t n, int warmup,
		     const struct verdict_opts *o, char *err, size_t errlen)
{
	struct li_log parsed[CMP_MAX_LOGS];
	struct cgroup g[CMP_MAX_GROUPS];
	size_t np = 0, ng = 0, runno = 0;
	json_t *out = NULL;

	if (!n || n > CMP_MAX_LOGS) {
		snprintf(err, errlen, "need 1 to %d logs", CMP_MAX_LOGS);
		return NULL;
	}
	for (; np < n; np++) {
		char e[200];
		/* One log alone, or unnamed: its blocks name themselves. */
		int by_label = n == 1 || !logs[np].name || !*logs[np].name;

		if (logimport_parse(logs[np].text, logs[np].len, warmup,
				    &parsed[np], e, sizeof(e))) {
			snprintf(err, errlen, "log %zu%s%s: %s", np + 1,
				 logs[np].name ? " " : "",
				 logs[np].name ? logs[np].name : "", e);
			goto out;
		}
		for (size_t r = 0; r < parsed[np].nruns; r++) {
			const struct li_run *run = &parsed[np].runs[r];
			char auto_name[32];
			const char *name = logs[np].name;
			struct cgroup *grp;

			runno++;
			if (by_label) {
				snprintf(auto_name, sizeof(auto_name), "run%zu", runno);
				name = run->label[0] ? run->label : auto_name;
			}
			grp = group_get(g, &ng, name);
			if (!grp || group_add_run(grp, run,
					logimport_format_str(parsed[np].format))) {
				snprintf(err, errlen, "too many variants (max %d)",
					 CMP_MAX_GROUPS);
				np++;
				goto out;
			}
		}
	}
	if (ng < 2) {
		snprintf(err, errlen,
			 "need at least two variants to compare, got only \"%s\" (%zu run%s)",
			 ng ? g[0].name : "", ng ? g[0].n : 0,
			 ng && g[0].n == 1 ? "" : "s");
		goto out;
	}
	out = compare_groups(g, ng, o, err, errlen);
out:
	for (size_t i = 0; i < ng; i++) {
		free(g[i].runs);
		free(g[i].syms);
	}
	for (size_t i = 0; i < np; i++)
		logimport_free(&parsed[i]);
	return out;
}
