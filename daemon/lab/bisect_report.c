// SPDX-License-Identifier: MIT
/*
 * bisect_report - build, store and mail the report of a bisection
 * culprit; see bisect_report.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/git_names.h"
#include "daemon/analysis/lkp_report.h"
#include "daemon/analysis/mail_out.h"
#include "daemon/lab/alerts.h"
#include "daemon/lab/bisect_report.h"
#include "daemon/lab/bisect_json.h"
#include "daemon/lab/culprit_mail.h"
#include "daemon/lab/gitmirror.h"
#include "daemon/lab/profiles.h"
#include "daemon/store/db.h"
#include "daemon/store/sql.h"

#define TOP_ROWS 10
#define MAX_PARAMS 32
#define PATCH_ID_TIMEOUT_S 30

static const char *lab_url;

void bisect_report_set_url(const char *url)
{
	lab_url = url;
}

/* Everything the lkp_report struct points into. */
struct src {
	struct lkp_report r;
	struct lkp_step *steps;
	struct lkp_pd_row *rows;
	struct lkp_kv params[MAX_PARAMS];
	json_t *bench;
	struct profiles_diff pf;
	struct perfdiff_result *pd;
	char *url, *ref, *backend, *label, *msgid, *metric;
	char nums[MAX_PARAMS][32];
};

static const char *jstr(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static double jnum(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static char *col(sqlite3_stmt *st, int i)
{
	const char *s = (const char *)sqlite3_column_text(st, i);

	return s ? strdup(s) : NULL;
}

static void load_steps(struct src *s, json_t *steps)
{
	size_t i, n = json_array_size(steps);
	json_t *st;

	s->steps = calloc(n ? n : 1, sizeof(*s->steps));
	if (!s->steps)
		return;
	json_array_foreach(steps, i, st) {
		json_t *bad = json_object_get(st, "bad");

		s->steps[i] = (struct lkp_step){
			.commit = jstr(st, "commit"),
			.subject = jstr(st, "subject"),
			.state = jstr(st, "state"),
			.runs = (int)json_integer_value(json_object_get(st, "runs")),
			.delta_pct = jnum(st, "delta_pct"),
			.ci_lo = jnum(st, "ci_lo"),
			.ci_hi = jnum(st, "ci_hi"),
			.mde_pct = jnum(st, "mde_pct"),
			.verdict = jstr(st, "verdict"),
			.bad = json_is_boolean(bad) ? json_is_true(bad) : -1,
		};
	}
	s->r.steps = s->steps;
	s->r.nr_steps = n;
}

/* Bench parameters, backend, label and runs of the culprit experiment. */
static void load_experiment(sqlite3 *db, struct src *s, int64_t exp)
{
	sqlite3_stmt *st = db_prepare(db,
		"SELECT e.bench, e.backend, e.label, e.runs, COALESCE(b.url, b.tree),"
		" b.ref"
		" FROM experiments e JOIN bases b ON b.id = e.base_id WHERE e.id = ?");
	const char *k;
	json_t *v;
	size_t n = 0;

	if (!st)
		return;
	sqlite3_bind_int64(st, 1, exp);
	if (sqlite3_step(st) == SQLITE_ROW) {
		const char *bench = (const char *)sqlite3_column_text(st, 0);

		s->bench = bench ? json_loads(bench, 0, NULL) : NULL;
		s->backend = col(st, 1);
		s->label = col(st, 2);
		s->r.runs = sqlite3_column_int(st, 3);
		s->url = col(st, 4);
		if (s->url && git_url_has_secret(s->url)) {
			char red[GIT_URL_MAX + 16];

			git_url_redact(s->url, red, sizeof(red));
			free(s->url);
			s->url = strdup(red);
		}
		s->ref = col(st, 5);
	}
	sqlite3_finalize(st);
	json_object_foreach(s->bench, k, v) {
		if (n == MAX_PARAMS)
			break;
		s->params[n].key = k;
		if (json_is_string(v))
			s->params[n].value = json_string_value(v);
		else if (json_is_number(v) || json_is_boolean(v)) {
			if (json_is_integer(v))
				snprintf(s->nums[n], 32, "%lld",
					 (long long)json_integer_value(v));
			else if (json_is_real(v))
				snprintf(s->nums[n], 32, "%g", json_real_value(v));
			else
				snprintf(s->nums[n], 32, "%s",
					 json_is_true(v) ? "true" : "false");
			s->params[n].value = s->nums[n];
		} else {
			continue;
		}
		n++;
	}
	s->r.params = s->params;
	s->r.nr_params = n;
}

/* The top rows of the exact perf diff of the culprit experiment. */
static void load_perf_diff(sqlite3 *db, struct src *s, int64_t exp)
{
	struct perfdiff_opts o;
	struct lab_err e;

	perfdiff_default_opts(&o);
	o.limit = TOP_ROWS;
	s->pd = profiles_perfdiff(db, exp, NULL, &perfdiff_instructions, &o,
				  &s->pf, &e);
	if (!s->pd)
		return;
	s->rows = calloc(s->pd->nr_rows + 1, sizeof(*s->rows));
	if (!s->rows)
		return;
	for (size_t i = 0; i < s->pd->nr_rows; i++) {
		const struct perfdiff_row *row = &s->pd->rows[i];
		const struct perfdiff_value *b = row->cells[0].v, *n = row->cells[1].v;

		s->rows[i] = (struct lkp_pd_row){
			.dso = row->dso, .sym = row->name,
			.base = b->run.mean, .new_ = n->run.mean,
			.delta = n->delta, .share = n->share,
		};
	}
	s->r.rows = s->rows;
	s->r.nr_rows = s->pd->nr_rows;
}

char *bisect_report_thread(sqlite3 *db, const char *pid,
			   bisect_patch_id_fn fn, void *arg)
{
	sqlite3_stmt *st;
	char *found = NULL;

	if (!pid || !*pid || !fn)
		return NULL;
	st = db_prepare(db, "SELECT raw, message_id FROM patches WHERE"
			" message_id <> '' ORDER BY id DESC LIMIT ?");
	if (!st)
		return NULL;
	sqlite3_bind_int(st, 1, BISECT_REPORT_MAX_PATCHES);
	while (!found && sqlite3_step(st) == SQLITE_ROW) {
		const char *raw = sqlite3_column_blob(st, 0);
		const char *mid = (const char *)sqlite3_column_text(st, 1);
		char got[41];

		if (raw && mail_msgid_ok(mid) &&
		    !fn(arg, raw, sqlite3_column_bytes(st, 0), got) &&
		    !strcmp(got, pid))
			found = strdup(mid);
	}
	sqlite3_finalize(st);
	return found;
}

static void src_free(struct src *s)
{
	free(s->steps);
	free(s->rows);
	json_decref(s->bench);
	perfdiff_free(s->pd);
	profiles_diff_free(&s->pf);
	free(s->url);
	free(s->ref);
	free(s->backend);
	free(s->label);
	free(s->msgid);
	free(s->metric);
}

static void fill(sqlite3 *db, struct src *s, json_t *b, json_t *c,
		 const struct bisect_report_opts *o)
{
	const char *mid = jstr(c, "message_id");
	int64_t exp = json_integer_value(json_object_get(c, "experiment_id"));

	s->r = (struct lkp_report){
		.lab_url = o->lab_url,
		.bisection_id = json_integer_value(json_object_get(b, "id")),
		.experiment_id = exp,
		.metric = jstr(b, "metric") ? jstr(b, "metric") : "iops",
		.commit = jstr(c, "commit"), .subject = jstr(c, "subject"),
		.author = jstr(c, "author"), .email = jstr(c, "email"),
		.parent = jstr(c, "parent") ? jstr(c, "parent") : jstr(b, "good"),
		.base = jstr(b, "base"), .good = jstr(b, "good"),
		.bad = jstr(b, "bad"), .step_pct = jnum(b, "step_pct"),
		.delta_pct = jnum(c, "delta_pct"), .ci_lo = jnum(c, "ci_lo"),
		.ci_hi = jnum(c, "ci_hi"), .mde_pct = jnum(c, "mde_pct"),
		.verdict = jstr(c, "verdict"),
	};
	/* the verdict says which way is worse (ns_per_io: up, iops: down) */
	s->r.direction = jstr(c, "verdict") && !strcmp(jstr(c, "verdict"),
						      "improvement") ?
			 "improvement" : "regression";
	load_steps(s, json_object_get(b, "steps"));
	if (exp) {
		size_t n;

		load_experiment(db, s, exp);
		load_perf_diff(db, s, exp);
		db_text(db, "SELECT metric FROM comparisons WHERE experiment_id = ?"
			" ORDER BY id DESC LIMIT 1", exp, &s->metric, &n);
		if (s->metric && !jstr(b, "metric"))
			s->r.metric = s->metric;
	}
	s->r.url = jstr(b, "url") ? jstr(b, "url") : s->url;
	s->r.ref = jstr(b, "ref") ? jstr(b, "ref") : s->ref;
	s->r.backend = jstr(b, "backend") ? jstr(b, "backend") : s->backend;
	s->r.label = jstr(b, "label") ? jstr(b, "label") : s->label;
	if (mail_msgid_ok(mid))
		s->msgid = strdup(mid);
	else
		s->msgid = bisect_report_thread(db, jstr(c, "patch_id"),
						o->patch_id, o->arg);
	s->r.in_reply_to = s->msgid;
}

/* {"to", "subject", "in_reply_to", "text", "bisection", "mail_note"} or
 * NULL; "to" is the author only when @p lets the lab mail them. */
static json_t *report_json(const struct src *s, json_t *b,
			   const struct culprit_mail_plan *p)
{
	char subject[512], *text = lkp_report_text(&s->r);
	json_t *j;

	if (!text)
		return NULL;
	snprintf(subject, sizeof(subject), "[perflab] %.12s %s: %+.1f%% %s %s",
		 s->r.commit ? s->r.commit : "", s->r.subject ? s->r.subject : "",
		 s->r.delta_pct, s->r.metric, s->r.direction);
	j = json_pack("{s:s?, s:s, s:s?, s:s, s:O, s:s?}", "to", p->to,
		      "subject", subject, "in_reply_to", s->r.in_reply_to,
		      "text", text, "bisection", b, "mail_note",
		      p->note[0] ? p->note : NULL);
	free(text);
	return j;
}

int64_t bisect_report_raise(sqlite3 *db, json_t *b,
			    const struct bisect_report_opts *o, time_t now)
{
	json_t *c = json_object_get(b, "culprit");
	int64_t bid = json_integer_value(json_object_get(b, "id")), id = -1;
	struct culprit_mail_plan plan;
	struct src s = { 0 };
	char title[512], *rep = NULL;
	json_t *j = NULL;

	if (!json_is_object(c) || !jstr(c, "commit"))
		return 0;
	if (db_int(db, 0, "SELECT id FROM alerts WHERE bisection_id = ?", 1, bid))
		return 0;
	fill(db, &s, b, c, o);
	/* who may be mailed, decided and recorded with the alert */
	if (db_begin(db))
		goto out;
	if (culprit_mail_plan(db, bid, jstr(b, "base"), s.r.commit, s.r.metric,
			      s.r.email, o->email, now, &plan))
		goto fail;
	j = report_json(&s, b, &plan);
	rep = j ? json_dumps(j, JSON_COMPACT) : NULL;
	if (!rep)
		goto fail;
	snprintf(title, sizeof(title), "%+.3f%% %s %s: %.12s %s (bisection %lld)",
		 s.r.delta_pct, s.r.metric, s.r.direction, s.r.commit,
		 s.r.subject ? s.r.subject : "", (long long)bid);
	id = alerts_raise_bisection(db, bid, title, s.r.metric, s.r.delta_pct,
				    s.r.experiment_id, rep, plan.email, now);
	if (id > 0 && !culprit_mail_record(db, &plan, s.r.commit, s.r.metric,
					   bid, id, now) && !db_commit(db))
		goto out;
fail:
	db_rollback(db);
	id = -1;
out:
	free(rep);
	json_decref(j);
	src_free(&s);
	return id;
}

/* `git patch-id --stable` of a stored patch's text, with the git runner
 * of the daemon's mirrors (fixed argv, clean environment, timeout). */
static int stored_patch_id(void *arg, const char *text, size_t len,
			   char out[41])
{
	static const char *const argv[] = { "git", "patch-id", "--stable", NULL };
	char *o = NULL, err[128];
	int rc;

	(void)arg;
	rc = gitmirror_run(argv, text, len, &o, 4096, PATCH_ID_TIMEOUT_S, err,
			   sizeof(err));
	if (rc == 0 && o && strlen(o) >= 40) {
		memcpy(out, o, 40);
		out[40] = '\0';
	} else {
		out[0] = '\0';
	}
	free(o);
	return git_sha_valid(out) ? 0 : -1;
}

int64_t bisect_notify_culprit(sqlite3 *db, int64_t bisection_id)
{
	struct bisect_report_opts o = {
		.lab_url = lab_url, .email = 1, .patch_id = stored_patch_id,
	};
	json_t *b = bisect_run_json(db, bisection_id);
	int64_t id;

	if (!b)
		return -1;
	id = bisect_report_raise(db, b, &o, time(NULL));
	json_decref(b);
	return id;
}
