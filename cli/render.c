// SPDX-License-Identifier: MIT
/*
 * render - human-readable output of API answers.
 */
#include <math.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>

#include "cli/render.h"
#include "common/metric_defs.h"

json_t *render_get(json_t *o, const char *paths)
{
	char buf[256], *alt, *save = NULL, *seg, *save2;
	json_t *v;

	if (!o || strlen(paths) >= sizeof(buf))
		return NULL;
	strcpy(buf, paths);
	for (alt = strtok_r(buf, "|", &save); alt;
	     alt = strtok_r(NULL, "|", &save)) {
		v = o;
		for (seg = strtok_r(alt, ".", &save2); seg && v;
		     seg = strtok_r(NULL, ".", &save2))
			v = json_object_get(v, seg);
		if (v && !json_is_null(v))
			return v;
	}
	return NULL;
}

double render_num(json_t *o, const char *paths)
{
	json_t *v = render_get(o, paths);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

const char *render_str(json_t *o, const char *paths, const char *def)
{
	json_t *v = render_get(o, paths);

	return json_is_string(v) ? json_string_value(v) : def;
}

void render_submitted(FILE *f, const char *server, json_t *doc, bool quiet)
{
	double id = render_num(doc, "id|experiment_id|experiment.id");
	const char *url = render_str(doc, "web_url|url", "");
	size_t sl;

	if (quiet) {
		fprintf(f, "%.0f\n", id);
		return;
	}
	sl = *url == '/' ? strlen(server) : 0;
	while (sl && server[sl - 1] == '/')
		sl--;
	fprintf(f, "experiment %.0f submitted%s%.*s%s\n", id,
		*url ? ": " : "", (int)sl, server, url);
	fprintf(f, "follow it with: perflab watch %.0f\n", id);
}

static void fmt_num(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (fabs(v) >= 1000)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.4g", v);
}

static void fmt_when(char *buf, size_t len, json_t *o, const char *paths)
{
	double t = render_num(o, paths);
	time_t tt = (time_t)t;
	struct tm tm;

	if (isnan(t) || t <= 0 || !gmtime_r(&tt, &tm))
		snprintf(buf, len, "-");
	else
		strftime(buf, len, "%Y-%m-%d %H:%M:%SZ", &tm);
}

json_t *render_comparisons(json_t *doc)
{
	json_t *v = render_get(doc, "comparison|comparisons|verdicts");

	if (json_is_object(v))
		v = render_get(v, "variants|comparisons");
	return json_is_array(v) ? v : NULL;
}

bool render_has_regression(json_t *doc)
{
	json_t *arr = render_comparisons(doc), *c;
	size_t i;

	if (!arr && !strcmp(render_str(doc, "verdict", ""), "regression"))
		return true;
	json_array_foreach(arr, i, c)
		if (!strcmp(render_str(c, "verdict", ""), "regression"))
			return true;
	return false;
}

/* One LKP row: base mean ±%stddev | %change | new mean ±%stddev | metric. */
static void lkp_row(FILE *f, double bm, double bsd, double chg, double nm,
		    double nsd, const char *metric)
{
	char b[32], n[32], bs[16] = "", ns[16] = "", c[16] = "";

	fmt_num(b, sizeof(b), bm);
	fmt_num(n, sizeof(n), nm);
	if (!isnan(bsd))
		snprintf(bs, sizeof(bs), "±%5.2f%%", bsd);
	if (!isnan(nsd))
		snprintf(ns, sizeof(ns), "±%5.2f%%", nsd);
	if (!isnan(chg))
		snprintf(c, sizeof(c), "%+.2f%%", chg);
	fprintf(f, "%14s %-8s %10s %14s %-8s  %s\n", b, bs, c, n, ns, metric);
}

static void lkp_header(FILE *f, const char *base, const char *name)
{
	fprintf(f, "%23s %34s\n", base, name);
	fprintf(f, "----------------------- ----------------------------------\n");
	fprintf(f, "%23s %10s %23s\n", "%stddev", "%change", "%stddev");
	fprintf(f, "%23s %10s %23s\n", "\\", "|", "\\");
}

static void verdict_line(FILE *f, json_t *c, const char *name)
{
	double lo = render_num(c, "ci_low|ci.0|ci_lo");
	double hi = render_num(c, "ci_high|ci.1|ci_hi");
	double p = render_num(c, "p_value|p|mwu_p");
	double mde = render_num(c, "mde_pct|mde");
	double runs = render_num(c, "runs|n|runs_new");
	double d = render_num(c, "delta_pct|delta|change_pct");

	fprintf(f, "%s: %s", name, render_str(c, "verdict", "?"));
	if (!isnan(d))
		fprintf(f, "  %+.3f%%", d);
	if (!isnan(lo) && !isnan(hi))
		fprintf(f, "  95%% CI [%+.3f%%, %+.3f%%]", lo, hi);
	if (!isnan(p))
		fprintf(f, "  p=%.3g", p);
	if (json_is_true(render_get(c, "no_noise_estimate|result.no_noise_estimate"))) {
		/* Identical runs, no calibration: no MDE can be claimed. */
		fprintf(f, "  (no noise estimate)");
	} else if (!isnan(mde)) {
		fprintf(f, "  (MDE %.2f%%", mde);
		if (!isnan(runs))
			fprintf(f, " at %.0f runs", runs);
		fputc(')', f);
	}
	fputc('\n', f);
}

static void metric_rows(FILE *f, json_t *c)
{
	json_t *metrics = render_get(c, "rows|result.rows|metrics"), *m;
	const char *name;
	size_t i;

	if (json_is_array(metrics)) {
		json_array_foreach(metrics, i, m)
			lkp_row(f, render_num(m, "base|base_mean"),
				render_num(m, "base_sd_pct|base_stddev_pct"),
				render_num(m, "change|change_pct"),
				render_num(m, "new|new_mean"),
				render_num(m, "new_sd_pct|new_stddev_pct"),
				render_str(m, "metric|name", "?"));
		return;
	}
	if (json_is_object(metrics)) {
		json_object_foreach(metrics, name, m)
			lkp_row(f, render_num(m, "base|base_mean"),
				render_num(m, "base_sd_pct|base_stddev_pct"),
				render_num(m, "change|change_pct"),
				render_num(m, "new|new_mean"),
				render_num(m, "new_sd_pct|new_stddev_pct"),
				name);
		return;
	}
	lkp_row(f, render_num(c, "base_mean|control.mean|control_median"),
		render_num(c, "base_stddev_pct|control.stddev_pct"),
		render_num(c, "delta_pct|change_pct"),
		render_num(c, "new_mean|variant.mean|variant_median"),
		render_num(c, "new_stddev_pct|variant.stddev_pct"),
		render_str(c, "metric", "iops"));
}

void render_verdicts(FILE *f, json_t *exp)
{
	json_t *arr = render_comparisons(exp), *c;
	const char *text = render_str(exp, "comparison_text|text", NULL);
	size_t i;

	if (text) {
		fputs(text, f);
		if (*text && text[strlen(text) - 1] != '\n')
			fputc('\n', f);
		return;
	}
	if (!arr || !json_array_size(arr)) {
		fprintf(f, "%s\n", !strcmp(render_str(exp, "state", ""), "done") ?
			"no verdict: no variant was compared with the control" :
			"no verdict yet");
		return;
	}
	json_array_foreach(arr, i, c) {
		const char *name = render_str(c, "variant|variant_name|name", "?");
		const char *base = render_str(c, "control|control_name|base", "base");
		const char *t = render_str(c, "text|result.text", NULL);

		if (i)
			fputc('\n', f);
		if (t) {
			/* the daemon's own LKP text includes the verdict */
			fputs(t, f);
			if (*t && t[strlen(t) - 1] != '\n')
				fputc('\n', f);
			continue;
		}
		lkp_header(f, base, name);
		metric_rows(f, c);
		verdict_line(f, c, name);
	}
}

/* The last @max lines of @log, indented (e.g. git apply's complaint). */
static json_t *failure_table;

void render_set_failure_reasons(json_t *doc)
{
	failure_table = doc;
}

/* "failed: build (the kernel does not build ...: fix ...)" */
static void print_failure(FILE *f, const char *reason)
{
	json_t *r;
	size_t i;

	json_array_foreach(render_get(failure_table, "reasons"), i, r)
		if (!strcmp(render_str(r, "name", ""), reason)) {
			fprintf(f, "      failed: %s (%s: %s)\n", reason,
				render_str(r, "meaning", ""),
				render_str(r, "advice", ""));
			return;
		}
	fprintf(f, "      failed: %s\n", reason);
}

void render_failure_reasons(FILE *f, json_t *doc)
{
	json_t *arr = render_get(doc, "reasons"), *r, *who;
	size_t i, k;

	fprintf(f, "%-15s %-9s %-7s %-23s %s\n", "reason", "retryable",
		"bisect", "reported by", "meaning");
	json_array_foreach(arr, i, r) {
		char by[64] = "";

		json_array_foreach(render_get(r, "reported_by"), k, who)
			snprintf(by + strlen(by), sizeof(by) - strlen(by), "%s%s",
				 k ? "," : "", json_string_value(who) ?
				 json_string_value(who) : "?");
		fprintf(f, "%-15s %-9s %-7s %-23s %s\n", render_str(r, "name", "?"),
			json_is_true(render_get(r, "retryable")) ? "yes" : "no",
			render_str(r, "bisect", "?"), by,
			render_str(r, "meaning", ""));
	}
}

static void print_log(FILE *f, const char *log, int max)
{
	const char *p, *start;
	int n = 0;

	if (!log || !*log)
		return;
	p = log + strlen(log);
	while (p > log && p[-1] == '\n')
		p--;
	start = p;
	while (start > log && n < max)
		if (*--start == '\n' && ++n == max)
			start++;
	if (start > log)
		fprintf(f, "        ...\n");
	while (start < p) {
		const char *nl = memchr(start, '\n', p - start);
		int len = nl ? (int)(nl - start) : (int)(p - start);

		fprintf(f, "        | %.*s\n", len, start);
		start += len + (nl ? 1 : 0);
	}
}

static void render_variants(FILE *f, json_t *exp)
{
	json_t *vars = render_get(exp, "variants"), *v, *p;
	size_t i, j;

	if (!json_is_array(vars))
		return;
	fprintf(f, "\nvariants:\n");
	json_array_foreach(vars, i, v) {
		json_t *patches = render_get(v, "patches");

		fprintf(f, "  %-16s %-7s %zu patch%s%s%s\n",
			render_str(v, "name", "?"),
			json_is_true(render_get(v, "is_control")) ? "control" : "",
			json_array_size(patches),
			json_array_size(patches) == 1 ? "" : "es",
			strcmp(render_str(v, "state", "active"), "active") ?
				"  " : "",
			strcmp(render_str(v, "state", "active"), "active") ?
				render_str(v, "state", "") : "");
		json_array_foreach(patches, j, p)
			fprintf(f, "      %s\n",
				render_str(p, "subject", "(no subject)"));
		if (render_str(v, "failure_reason", NULL))
			print_failure(f, render_str(v, "failure_reason", ""));
		print_log(f, render_str(v, "failure_log", NULL), 20);
	}
}

/* @m's value of run @r, formatted; "-" when absent or 0 (not measured). */
static void fmt_metric(char *buf, size_t len, json_t *r, const struct metric_def *m)
{
	double v = render_num(r, m->path);

	if (!(v != 0) || isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, m->format, v);
}

/*
 * One line per run: the metrics a verdict can rest on, in table order,
 * the first (IOPS) with its per-second spread.
 */
static void render_runs(FILE *f, json_t *exp)
{
	const struct metric_def *sd = metric_def_find("iops_stddev");
	json_t *runs = render_get(exp, "runs"), *r;
	bool boots = false;
	size_t i, k;

	if (!json_is_array(runs) || !json_array_size(runs))
		return;
	/* Toggle experiments: several runs a boot; say which boot. */
	json_array_foreach(runs, i, r)
		boots |= render_str(r, "boot_id", NULL) != NULL;
	fprintf(f, "\nruns:\n  %-5s %-16s %5s", "run", "variant", "index");
	for (k = 0; k < metric_defs_count; k++) {
		if (!metric_defs[k].verdict)
			continue;
		fprintf(f, " %14s", metric_defs[k].label);
		if (k == METRIC_IOPS && sd)
			fprintf(f, " %9s", "±%stddev");
	}
	fprintf(f, "%s\n", boots ? "  boot" : "");
	json_array_foreach(runs, i, r) {
		fprintf(f, "  %-5.0f %-16s %5.0f", render_num(r, "id|run_id"),
			render_str(r, "variant|variant_name", "?"),
			render_num(r, "run_index"));
		for (k = 0; k < metric_defs_count; k++) {
			double mean = render_num(r, metric_defs[k].path);
			char v[32], pct[32] = "-";

			if (!metric_defs[k].verdict)
				continue;
			fmt_metric(v, sizeof(v), r, &metric_defs[k]);
			fprintf(f, " %14s", v);
			if (k != METRIC_IOPS || !sd)
				continue;
			if (!isnan(render_num(r, sd->path)) && mean > 0)
				snprintf(pct, sizeof(pct), "%.2f%%",
					 100 * render_num(r, sd->path) / mean);
			fprintf(f, " %9s", pct);
		}
		if (boots)
			fprintf(f, "  %.8s #%.0f", render_str(r, "boot_id", "-"),
				render_num(r, "boot_pos"));
		fputc('\n', f);
	}
}

void render_experiment(FILE *f, json_t *exp)
{
	char created[32], finished[32];

	fmt_when(created, sizeof(created), exp, "created_at");
	fmt_when(finished, sizeof(finished), exp, "finished_at");
	fprintf(f, "experiment %.0f  %s\n", render_num(exp, "id"),
		render_str(exp, "title", ""));
	fprintf(f, "state      %s", render_str(exp, "state", "?"));
	if (render_str(exp, "failure_reason", NULL))
		fprintf(f, " (%s)", render_str(exp, "failure_reason", ""));
	fprintf(f, "\nbase       %s\n",
		render_str(exp, "base.name|base", "-"));
	fprintf(f, "label      %s   backend %s   host %s\n",
		render_str(exp, "label", "any"),
		render_str(exp, "backend", "any"),
		render_str(exp, "host.name|host", "-"));
	fprintf(f, "runs       %.0f per variant\n",
		render_num(exp, "runs_planned|runs_per_variant"));
	fprintf(f, "created    %s   finished %s\n", created, finished);
	render_variants(f, exp);
	render_runs(f, exp);
	fputc('\n', f);
	render_verdicts(f, exp);
}

void render_compare(FILE *f, json_t *doc)
{
	if (render_comparisons(doc) || render_str(doc, "text", NULL)) {
		render_verdicts(f, doc);
		return;
	}
	json_dumpf(doc, f, JSON_INDENT(2));
	fputc('\n', f);
}

static json_t *list_of(json_t *doc, const char *key)
{
	json_t *v = json_is_array(doc) ? doc : render_get(doc, key);

	return json_is_array(v) ? v : NULL;
}

void render_alerts(FILE *f, json_t *doc)
{
	json_t *arr = list_of(doc, "alerts|items"), *a;
	size_t i;

	if (!arr || !json_array_size(arr)) {
		fprintf(f, "no alerts\n");
		return;
	}
	fprintf(f, "%-5s %-14s %-13s %9s %-20s %s\n", "id", "state", "kind",
		"change", "created", "title");
	json_array_foreach(arr, i, a) {
		double d = render_num(a, "delta_pct");
		char when[32], chg[16] = "-";

		fmt_when(when, sizeof(when), a, "created_at");
		if (!isnan(d))
			snprintf(chg, sizeof(chg), "%+.2f%%", d);
		fprintf(f, "%-5.0f %-14s %-13s %9s %-20s %s\n",
			render_num(a, "id"), render_str(a, "state", "?"),
			render_str(a, "kind", "?"), chg, when,
			render_str(a, "title", ""));
	}
}

static void join_labels(char *buf, size_t len, json_t *labels)
{
	json_t *l;
	size_t i, n = 0;

	buf[0] = '\0';
	json_array_foreach(labels, i, l) {
		if (!json_is_string(l))
			continue;
		n += snprintf(buf + n, n < len ? len - n : 0, "%s%s",
			      i ? "," : "", json_string_value(l));
		if (n >= len)
			break;
	}
	if (!buf[0])
		snprintf(buf, len, "-");
}

void render_hosts(FILE *f, json_t *doc)
{
	json_t *arr = list_of(doc, "hosts|items"), *h;
	size_t i;

	if (!arr || !json_array_size(arr)) {
		fprintf(f, "no hosts\n");
		return;
	}
	fprintf(f, "%-20s %-12s %-8s %-20s %-20s %s\n", "name", "backend",
		"state", "labels", "last seen", "cpu");
	json_array_foreach(arr, i, h) {
		char when[32], labels[128];

		fmt_when(when, sizeof(when), h, "last_seen");
		join_labels(labels, sizeof(labels), render_get(h, "labels"));
		fprintf(f, "%-20s %-12s %-8s %-20s %-20s %s\n",
			render_str(h, "name", "?"),
			render_str(h, "backend", "?"),
			render_str(h, "state|status", "-"), labels, when,
			render_str(h, "facts.cpu_model|cpu_model", "-"));
	}
}
