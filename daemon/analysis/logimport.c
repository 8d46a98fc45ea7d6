// SPDX-License-Identifier: MIT
/*
 * Benchmark output importer; formats and their meaning in logimport.h.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "daemon/analysis/logimport.h"

#define LI_MAX_RUNS 1000
#define LI_MAX_SAMPLES 1000000

const char *logimport_format_str(enum li_format f)
{
	switch (f) {
	case LI_TEXT:
		return "text";
	case LI_BENCH_JSON:
		return "perflab-bench-json";
	case LI_FIO_JSON:
		return "fio-json";
	default:
		return "unknown";
	}
}

static void run_free(struct li_run *r)
{
	free(r->iops);
	for (size_t i = 0; i < r->nsyms; i++)
		free(r->syms[i].name);
	free(r->syms);
}

void logimport_free(struct li_log *log)
{
	for (size_t i = 0; i < log->nruns; i++)
		run_free(&log->runs[i]);
	free(log->runs);
	memset(log, 0, sizeof(*log));
}

static struct li_run *new_run(struct li_log *log)
{
	struct li_run *r;

	if (log->nruns >= LI_MAX_RUNS)
		return NULL;
	r = realloc(log->runs, (log->nruns + 1) * sizeof(*r));
	if (!r)
		return NULL;
	log->runs = r;
	r = &log->runs[log->nruns++];
	memset(r, 0, sizeof(*r));
	return r;
}

static int add_sample(struct li_run *r, double v)
{
	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 64;
		double *p;

		if (cap > LI_MAX_SAMPLES)
			return -1;
		p = realloc(r->iops, cap * sizeof(*p));
		if (!p)
			return -1;
		r->iops = p;
		r->cap = cap;
	}
	r->iops[r->n++] = v;
	return 0;
}

int logimport_iops_value(const char *s, double *out, const char **end)
{
	char *e;
	double v;

	errno = 0;
	v = strtod(s, &e);
	if (e == s || errno || !isfinite(v) || v < 0)
		return -1;
	switch (*e) {
	case 'K':
	case 'k':
		v *= 1e3;
		e++;
		break;
	case 'M':
		v *= 1e6;
		e++;
		break;
	case 'G':
		v *= 1e9;
		e++;
		break;
	}
	if (*e && *e != ',' && !isspace((unsigned char)*e))
		return -1;
	*out = v;
	if (end)
		*end = e;
	return 0;
}

/* ---- text ----------------------------------------------------------------- */

/* Remember a non-blank line (trimmed, without a trailing ':') as label. */
static void set_label(char *label, size_t size, const char *q,
		      const char *eol)
{
	size_t l;

	while (eol > q && isspace((unsigned char)eol[-1]))
		eol--;
	if (eol > q && eol[-1] == ':')
		eol--;
	l = eol - q;
	if (!l)
		return;
	if (l >= size)
		l = size - 1;
	memcpy(label, q, l);
	label[l] = '\0';
	for (size_t i = 0; i < l; i++)
		if (!isprint((unsigned char)label[i]))
			label[i] = '?';
}

static int parse_text(const char *text, size_t len, int warmup,
		      struct li_log *log, char *err, size_t errlen)
{
	const char *p = text, *end = text + len;
	struct li_run *cur = NULL;
	size_t lineno = 0;
	char label[64] = "";

	log->format = LI_TEXT;
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p), *q = p;
		const char *eol = nl ? nl : end;
		char buf[256];
		double v;
		size_t l;

		lineno++;
		while (q < eol && (*q == ' ' || *q == '\t' || *q == '>'))
			q++;
		l = eol - q;
		if (l >= 5 && !strncmp(q, "IOPS=", 5) && l < sizeof(buf)) {
			memcpy(buf, q + 5, l - 5);
			buf[l - 5] = '\0';
			if (logimport_iops_value(buf, &v, NULL)) {
				snprintf(err, errlen, "line %zu: bad IOPS value",
					 lineno);
				return -1;
			}
			if (!cur) {
				cur = new_run(log);
				if (!cur)
					goto nomem;
				cur->warmup = warmup;
				memcpy(cur->label, label, sizeof(label));
			}
			if (add_sample(cur, v))
				goto nomem;
		} else {
			cur = NULL;	/* any other line ends the run */
			set_label(label, sizeof(label), q, eol);
		}
		p = nl ? nl + 1 : end;
	}
	if (!log->nruns) {
		snprintf(err, errlen,
			 "no IOPS= lines found (t/io_uring or perflab-bench output expected)");
		return -1;
	}
	return 0;
nomem:
	snprintf(err, errlen, "too many runs or samples");
	return -1;
}

/* ---- perflab-bench JSON ------------------------------------------------------ */

static double jnum(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	return json_is_number(v) ? json_number_value(v) : 0;
}

static int bench_profile(json_t *prof, struct li_run *r)
{
	json_t *syms = json_object_get(prof, "symbols"), *s;
	size_t i;

	r->prof_total = jnum(prof, "total");
	if (!json_is_array(syms))
		return 0;
	r->syms = calloc(json_array_size(syms) + 1, sizeof(*r->syms));
	if (!r->syms)
		return -1;
	json_array_foreach(syms, i, s) {
		const char *name = json_string_value(json_object_get(s, "sym"));

		if (!name)
			continue;
		r->syms[r->nsyms].name = strdup(name);
		if (!r->syms[r->nsyms].name)
			return -1;
		r->syms[r->nsyms++].samples = jnum(s, "samples");
	}
	return 0;
}

static int parse_bench(json_t *o, struct li_log *log, char *err, size_t errlen)
{
	json_t *samples = json_object_get(o, "samples"), *s, *sum, *cpu, *prof;
	struct li_run *r = new_run(log);
	size_t i;

	if (!r)
		goto nomem;
	sum = json_object_get(o, "summary");
	cpu = json_object_get(o, "cpu");
	prof = json_object_get(o, "profile");
	r->warmup = (int)jnum(sum, "warmup");
	if (r->warmup < 0)
		r->warmup = 0;
	r->ns_per_io = jnum(sum, "ns_per_io");
	if (json_is_object(cpu))
		r->cpu_ns_per_io = jnum(cpu, "user_ns_per_io") +
				   jnum(cpu, "sys_ns_per_io");
	json_array_foreach(samples, i, s) {
		json_t *v = json_object_get(s, "iops");

		if (!json_is_number(v) || json_number_value(v) < 0) {
			snprintf(err, errlen, "samples[%zu].iops is not a number", i);
			return -1;
		}
		if (add_sample(r, json_number_value(v)))
			goto nomem;
	}
	if (!r->n && !(r->ns_per_io > 0)) {
		snprintf(err, errlen, "perflab-bench JSON without samples");
		return -1;
	}
	if (json_is_object(prof) && bench_profile(prof, r))
		goto nomem;
	return 0;
nomem:
	snprintf(err, errlen, "too many runs or samples");
	return -1;
}

/* ---- fio JSON ------------------------------------------------------------------ */

/* Summed IOPS and cumulative IO count of every job of one fio document. */
static void fio_totals(json_t *o, double *iops, double *ios)
{
	json_t *jobs = json_object_get(o, "jobs"), *j;
	size_t i;

	*iops = *ios = 0;
	json_array_foreach(jobs, i, j) {
		static const char *const dirs[] = { "read", "write", "trim" };

		for (int d = 0; d < 3; d++) {
			json_t *x = json_object_get(j, dirs[d]);

			*iops += jnum(x, "iops");
			*ios += jnum(x, "total_ios");
		}
	}
}

static int parse_fio(json_t **docs, size_t ndocs, struct li_log *log,
		     char *err, size_t errlen)
{
	struct li_run *r = new_run(log);
	double iops, ios, prev_ios = 0, prev_t = 0;

	log->format = LI_FIO_JSON;
	if (!r)
		goto nomem;
	if (ndocs == 1) {
		fio_totals(docs[0], &iops, &ios);
		if (!(iops > 0)) {
			snprintf(err, errlen, "fio JSON reports no IOPS");
			return -1;
		}
		r->mean = iops;
		return 0;
	}
	for (size_t k = 0; k < ndocs; k++) {
		double t = jnum(docs[k], "timestamp_ms");

		fio_totals(docs[k], &iops, &ios);
		if (k && t > prev_t && ios >= prev_ios &&
		    add_sample(r, (ios - prev_ios) / ((t - prev_t) / 1000)))
			goto nomem;
		prev_ios = ios;
		prev_t = t;
	}
	if (r->n < 1) {
		snprintf(err, errlen,
			 "fio status snapshots without increasing timestamp_ms/total_ios");
		return -1;
	}
	return 0;
nomem:
	snprintf(err, errlen, "too many runs or samples");
	return -1;
}

/* ---- dispatch ----------------------------------------------------------------- */

static int is_fio(json_t *o)
{
	return json_object_get(o, "fio version") != NULL ||
	       json_is_array(json_object_get(o, "jobs"));
}

static int parse_json(const char *text, size_t len, struct li_log *log,
		      char *err, size_t errlen)
{
	json_t **docs = NULL;
	size_t ndocs = 0, off = 0;
	int ret = -1;

	while (off < len) {
		json_error_t je;
		json_t *o, **d;

		while (off < len && isspace((unsigned char)text[off]))
			off++;
		if (off >= len)
			break;
		o = json_loadb(text + off, len - off, JSON_DISABLE_EOF_CHECK, &je);
		if (!o) {
			snprintf(err, errlen, "JSON: %s at byte %zu", je.text,
				 off + je.position);
			goto out;
		}
		d = realloc(docs, (ndocs + 1) * sizeof(*d));
		if (!d || ndocs >= LI_MAX_RUNS) {
			json_decref(o);
			snprintf(err, errlen, "too many JSON documents");
			goto out;
		}
		docs = d;
		docs[ndocs++] = o;
		off += je.position;
	}
	if (!ndocs) {
		snprintf(err, errlen, "empty JSON");
		goto out;
	}
	/* A JSON array of perflab-bench results: several runs. */
	if (ndocs == 1 && json_is_array(docs[0])) {
		json_t *e;
		size_t i;

		log->format = LI_BENCH_JSON;
		json_array_foreach(docs[0], i, e)
			if (parse_bench(e, log, err, errlen))
				goto out;
		ret = log->nruns ? 0 : -1;
		if (ret)
			snprintf(err, errlen, "empty JSON array");
		goto out;
	}
	if (is_fio(docs[0])) {
		ret = parse_fio(docs, ndocs, log, err, errlen);
		goto out;
	}
	log->format = LI_BENCH_JSON;
	for (size_t k = 0; k < ndocs; k++) {
		if (!json_is_object(docs[k]) ||
		    !json_is_array(json_object_get(docs[k], "samples"))) {
			snprintf(err, errlen,
				 "JSON is neither perflab-bench output (no \"samples\") nor fio output (no \"jobs\")");
			goto out;
		}
		if (parse_bench(docs[k], log, err, errlen))
			goto out;
	}
	ret = 0;
out:
	for (size_t k = 0; k < ndocs; k++)
		json_decref(docs[k]);
	free(docs);
	return ret;
}

int logimport_parse(const char *text, size_t len, int warmup,
		    struct li_log *out, char *err, size_t errlen)
{
	size_t i = 0;
	int ret;

	memset(out, 0, sizeof(*out));
	if (warmup < 0)
		warmup = 0;
	while (i < len && isspace((unsigned char)text[i]))
		i++;
	if (i == len) {
		snprintf(err, errlen, "empty log");
		return -1;
	}
	if (text[i] == '{' || text[i] == '[')
		ret = parse_json(text + i, len - i, out, err, errlen);
	else
		ret = parse_text(text, len, warmup, out, err, errlen);
	if (ret)
		logimport_free(out);
	return ret;
}

void logimport_verdict_run(const struct li_run *run, struct verdict_run *out)
{
	memset(out, 0, sizeof(*out));
	out->iops = run->iops;
	out->nsamples = run->n;
	out->warmup = run->warmup;
	out->mean = run->mean;
	out->ns_per_io = run->ns_per_io;
	out->cpu_ns_per_io = run->cpu_ns_per_io;
}
