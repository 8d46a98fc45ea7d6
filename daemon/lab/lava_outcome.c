// SPDX-License-Identifier: MIT
/*
 * lava_outcome: a finished LAVA job (its state and log) -> the result
 * upload body of ingest.h, or a failure reason with its log. No database
 * and no lock: the worker calls it between fetching and storing.
 */
#include "daemon/lab/extsched.h"
#include "daemon/lab/lava.h"
#include "daemon/lab/lava_console.h"
#include "daemon/lab/lava_log.h"
#include "daemon/lab/lava_result.h"
#include "daemon/lab/lava_toggle.h"
#include "daemon/lab/ingest.h"
#include "common/insn_profile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BOOT_LOG_MAX (1u << 20)
#define FAIL_CONSOLE_MAX (256u << 10)

static char *read_file(const char *path, size_t max, size_t *len)
{
	FILE *f = fopen(path, "re");
	char *buf;
	size_t n;

	if (!f)
		return NULL;
	buf = malloc(max + 1);
	n = buf ? fread(buf, 1, max + 1, f) : 0;
	fclose(f);
	if (!buf || n > max) {
		free(buf);
		return NULL;
	}
	buf[n] = 0;
	*len = n;
	return buf;
}

static uint64_t window_ios(const json_t *bench)
{
	const json_t *sum = json_object_get(bench, "summary");
	json_int_t v = json_integer_value(json_object_get(sum, "ios_measured"));

	if (v <= 0)
		v = json_integer_value(json_object_get(sum, "window_ios"));
	return v > 0 ? (uint64_t)v : 0;
}

/*
 * The plugin's dump + the image's System.map + the guest bench's symbols
 * -> bench.exact_profile; a run without one is still a run (why: stderr).
 */
static void attach_exact(const struct lava_cfg *cfg, const struct lava_open *o,
			 const struct lava_console *con, json_t *bench)
{
	struct insn_symtab ks = { 0 }, us = { 0 };
	struct insn_prof p = { 0 };
	char path[4300], err[512] = "";
	char *text = NULL;
	size_t len;
	json_t *j = NULL;

	if (!con->insn)
		return;
	if (insn_prof_parse(con->insn, con->insn_len, &p, err, sizeof(err)))
		goto out;
	/* The store's layout (images.h); the experiment needs the image, so
	 * the collector leaves it alone. */
	snprintf(path, sizeof(path), "%s/%s/System.map",
		 cfg->images ? cfg->images->dir : "", o->image_key);
	text = read_file(path, 64u << 20, &len);
	if (!text || insn_symtab_parse(text, len, &ks)) {
		snprintf(err, sizeof(err), "no System.map at %.400s", path);
		goto out;
	}
	free(text);
	snprintf(path, sizeof(path), "%s/perflab-bench.nm",
		 cfg->guest_dir ? cfg->guest_dir : "");
	text = read_file(path, 64u << 20, &len);
	if (!text || insn_symtab_parse(text, len, &us)) {
		snprintf(err, sizeof(err), "no bench symbols at %.400s", path);
		goto out;
	}
	j = insn_prof_json(&p, window_ios(bench), &ks, &us, "perflab-bench",
			   err, sizeof(err));
	if (j)
		insn_prof_attach(bench, j);
out:
	if (!j)
		fprintf(stderr, "perflabd: LAVA job %lld: no exact profile: %s\n",
			(long long)o->lava_id, err);
	free(text);
	insn_prof_free(&p);
	insn_symtab_free(&ks);
	insn_symtab_free(&us);
}

static const char *tail(const char *s, size_t len, size_t max)
{
	return len > max ? s + len - max : s;
}

static json_t *result_body(const struct lava_open *o, const struct lava_log *l,
			   json_t *bench)
{
	double boot = l->bench_dt && l->first_dt ? l->bench_dt - l->first_dt : 0;
	double run = l->bench_dt && l->end_dt ? l->end_dt - l->bench_dt : 0;
	char log[200];

	snprintf(log, sizeof(log), "kernel image %s, built by perflab (LAVA"
		 " never builds)", o->image_key);
	return json_pack("{s:s,s:o,s:{s:s,s:b,s:f,s:s},s:s,s:{s:f,s:f,s:f}}",
			 "lease", o->lease, "bench", bench,
			 "build", "cache_key", o->image_key, "cached", 1,
			 "seconds", 0.0, "log", log,
			 "boot_log", tail(l->target, l->target_len, BOOT_LOG_MAX),
			 "timings", "build_s", 0.0, "boot_s", boot, "run_s", run);
}

/* ---- a toggle boot: one run per frame ------------------------------------ */

/* The verified bench JSON of @con, or NULL with @r's reason. */
static json_t *frame_bench(const struct lava_console *con,
			   struct lava_run_outcome *r)
{
	json_t *bench = json_loadb(con->json, con->json_len,
				   JSON_REJECT_DUPLICATES, NULL);

	if (json_is_object(bench))
		return bench;
	json_decref(bench);
	r->reason = "bench";
	r->log = strdup("the bench JSON from the console does not parse");
	return NULL;
}

static int run_outcome(const struct lava_cfg *cfg, const struct lava_open *o,
		       const struct extsched_job *j, const struct lava_log *l,
		       const struct lava_frame *fr, const char *boot_id,
		       struct lava_run_outcome *r)
{
	const char *text = l->target + fr->off;
	struct lava_console con;
	struct lava_verdict v;
	struct lab_err e;
	json_t *bench;
	size_t upto;

	r->job_id = fr->job_id;
	if (fr->refused[0]) {
		r->reason = "setting";
		return asprintf(&r->log, "the kernel refused a setting: %s",
				fr->refused) < 0 ? -1 : 0;
	}
	lava_console_parse(text, fr->len, &con);
	if (lava_classify(j->health, j->failure_comment, l->results, &con, &v)) {
		r->reason = "infrastructure";
		r->log = strdup("LAVA's job ended in an unknown health");
	} else if (!v.ok) {
		/* Its frame began: the kernel got to the bench. */
		r->reason = strcmp(v.reason, "boot") ? v.reason : "bench";
		if (asprintf(&r->log, "%s\n--- console (run %d, LAVA job %lld)"
			     " ---\n%.*s", v.message, fr->pos, (long long)o->lava_id,
			     (int)(fr->len > FAIL_CONSOLE_MAX ? FAIL_CONSOLE_MAX :
				   fr->len), text) < 0)
			r->log = NULL;
	} else if ((bench = frame_bench(&con, r))) {
		attach_exact(cfg, o, &con, bench);
		r->body = result_body(o, l, bench);
		/* The first run's log has the boot; the others their frame. */
		upto = fr->pos == 0 ? fr->off + fr->len : fr->len;
		if (r->body)
			json_object_set_new(r->body, "boot_log", json_stringn(
				tail(fr->pos == 0 ? l->target : text, upto,
				     BOOT_LOG_MAX), upto > BOOT_LOG_MAX ?
				BOOT_LOG_MAX : upto));
		if (r->body && fr->pos > 0)
			json_object_set_new(r->body, "timings", json_pack(
				"{s:f,s:f,s:f}", "build_s", 0.0, "boot_s", 0.0,
				"run_s", 0.0));
		if (r->body)
			json_object_set_new(r->body, "boot", json_pack("{s:s,s:i}",
				"id", boot_id, "pos", fr->pos));
		if (r->body && ingest_validate(r->body, &e)) {
			json_decref(r->body);
			r->body = NULL;
			r->reason = "bench";
			if (asprintf(&r->log, "the bench result is refused: %s",
				     e.msg) < 0)
				r->log = NULL;
		}
	}
	lava_console_free(&con);
	return r->body || r->log ? 0 : -1;
}

static int prepare_toggle(const struct lava_cfg *cfg, const struct lava_open *o,
			  const struct extsched_job *j, const struct lava_log *l,
			  struct lava_outcome *out)
{
	struct lava_frame fr[LAVA_TOGGLE_MAX_RUNS];
	struct lava_console none = { .status = LAVA_CON_NO_BENCH, .bench_rc = -1 };
	struct lava_verdict v;
	char boot[80];
	int n = lava_toggle_frames(l->target, l->target_len, fr,
				   LAVA_TOGGLE_MAX_RUNS), ok = 0;

	/* One LAVA job is one boot, whatever a frame says its id is. */
	snprintf(boot, sizeof(boot), "%s", n && fr[0].boot_id[0] ? fr[0].boot_id :
		 "");
	if (!boot[0])
		snprintf(boot, sizeof(boot), "lava-%lld", (long long)o->lava_id);
	out->runs = calloc(n ? n : 1, sizeof(*out->runs));
	if (!out->runs)
		return -1;
	for (; out->nruns < n; out->nruns++) {
		if (run_outcome(cfg, o, j, l, &fr[out->nruns], boot,
				&out->runs[out->nruns]))
			return -1;
		ok += out->runs[out->nruns].body != NULL;
	}
	/* The boot's jobs no frame names never started in it. */
	snprintf(none.msg, sizeof(none.msg), "the run did not start in this boot");
	if (lava_classify(j->health, j->failure_comment, l->results, &none, &v)) {
		out->reason = "infrastructure";
		snprintf(v.message, sizeof(v.message), "LAVA job %lld ended in"
			 " state %s, health %s", (long long)o->lava_id, j->state,
			 j->health);
	} else {
		out->reason = v.reason;
	}
	snprintf(out->message, sizeof(out->message), "LAVA: %s; a toggle boot:"
		 " %d runs framed, %d with a result", j->health, n, ok);
	if (asprintf(&out->log, "%s\n%s%s--- console (LAVA job %lld) ---\n%s",
		     v.message, l->errors && *l->errors ? "--- LAVA errors ---\n" :
		     "", l->errors ? l->errors : "", (long long)o->lava_id,
		     tail(l->target, l->target_len, FAIL_CONSOLE_MAX)) < 0)
		return -1;
	return 0;
}

int lava_outcome_prepare(const struct lava_cfg *cfg, const struct lava_open *o,
			 const struct extsched_job *j, const char *text,
			 size_t len, struct lava_outcome *out)
{
	struct lava_console con;
	struct lava_verdict v;
	struct lava_log l;
	struct lab_err e;
	char err[256];
	json_t *bench;
	int rc;

	memset(out, 0, sizeof(*out));
	snprintf(out->state, sizeof(out->state), "%s", j->state);
	snprintf(out->health, sizeof(out->health), "%s", j->health);
	if (lava_log_parse(text ? text : "", text ? len : 0, &l, err, sizeof(err))) {
		out->reason = "infrastructure";
		snprintf(out->message, sizeof(out->message), "%s", err);
		return 0;
	}
	if (o->toggle) {
		rc = prepare_toggle(cfg, o, j, &l, out);
		lava_log_free(&l);
		return rc;
	}
	lava_console_parse(l.target, l.target_len, &con);
	if (lava_classify(j->health, j->failure_comment, l.results, &con, &v)) {
		out->reason = "infrastructure";
		snprintf(out->message, sizeof(out->message), "LAVA job %lld"
			 " ended in state %s, health %s", (long long)o->lava_id,
			 j->state, j->health);
		goto out;
	}
	snprintf(out->message, sizeof(out->message), "%s", v.message);
	if (v.ok) {
		bench = json_loadb(con.json, con.json_len, JSON_REJECT_DUPLICATES,
				   NULL);
		if (!json_is_object(bench)) {
			json_decref(bench);
			out->reason = "bench";
			snprintf(out->message, sizeof(out->message), "the bench"
				 " JSON from the console does not parse");
			goto out;
		}
		attach_exact(cfg, o, &con, bench);
		out->body = result_body(o, &l, bench);
		if (!out->body)
			goto oom;
		/* The guest's JSON, checked as any runner's upload is. */
		if (ingest_validate(out->body, &e)) {
			json_decref(out->body);
			out->body = NULL;
			out->reason = "bench";
			snprintf(out->message, sizeof(out->message), "the bench"
				 " result is refused: %s", e.msg);
		}
		goto out;
	}
	out->reason = v.reason;
	if (asprintf(&out->log, "%s\n%s%s--- console (LAVA job %lld) ---\n%s",
		     v.message, l.errors && *l.errors ? "--- LAVA errors ---\n" : "",
		     l.errors ? l.errors : "", (long long)o->lava_id,
		     tail(l.target, l.target_len, FAIL_CONSOLE_MAX)) < 0)
		goto oom;
out:
	lava_console_free(&con);
	lava_log_free(&l);
	return 0;
oom:
	lava_console_free(&con);
	lava_log_free(&l);
	return -1;
}

void lava_outcome_free(struct lava_outcome *out)
{
	for (int i = 0; i < out->nruns; i++) {
		json_decref(out->runs[i].body);
		free(out->runs[i].log);
	}
	free(out->runs);
	json_decref(out->body);
	free(out->log);
	memset(out, 0, sizeof(*out));
}
