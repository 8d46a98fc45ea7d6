// SPDX-License-Identifier: MIT
/*
 * GET /api/v1/experiments/{id}/perf-diff and .../flamegraph.svg: read the
 * stored profiles (profiles, profile_symbols, profile_stacks) of the
 * experiment's runs, per variant, and hand them to perfdiff.c or
 * flamegraph.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/http/api_perfdiff.h"
#include "daemon/http/api_perfdiff_exact.h"
#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "daemon/analysis/flamegraph.h"
#include "daemon/analysis/perfdiff.h"

#define MAX_VARIANTS 16
#define DEFAULT_LIMIT 0 /* all rows, like perf diff */
#define MAX_LIMIT 1000000

/* ---- JSON form of a perf diff ---------------------------------------- */

static json_t *num_or_null(bool ok, double v)
{
	return ok && isfinite(v) ? json_real(v) : json_null();
}

static json_t *noise_json(int noise)
{
	return noise < 0 ? json_null() : json_boolean(noise);
}

static int cell_json(json_t *o, const struct pd_cell *b,
		     const struct pd_cell *c)
{
	bool both = c->has_pair && b->present;

	return json_object_set_new(o, "new", json_real(c->percent)) ||
	       json_object_set_new(o, "new_samples",
				   json_integer(c->samples)) ||
	       json_object_set_new(o, "new_stddev",
				   num_or_null(true, c->stddev)) ||
	       json_object_set_new(o, "delta",
				   num_or_null(c->has_pair, c->delta)) ||
	       json_object_set_new(o, "ratio", num_or_null(both, c->ratio)) ||
	       json_object_set_new(o, "wdiff",
				   both ? json_integer(c->wdiff) :
					  json_null()) ||
	       json_object_set_new(o, "p_value",
				   num_or_null(true, c->p_value)) ||
	       json_object_set_new(o, "noise", noise_json(c->noise));
}

static json_t *row_json(const struct pd_result *r, const struct pd_row *row)
{
	const struct pd_cell *b = &row->cells[0];
	json_t *o, *diffs = NULL, *d;
	size_t s;

	o = json_pack("{s:s, s:s, s:o, s:I, s:o}", "dso", row->dso, "symbol",
		      row->name, "baseline",
		      num_or_null(b->present, b->percent), "baseline_samples",
		      (json_int_t)b->samples, "baseline_stddev",
		      num_or_null(true, b->stddev));
	if (!o || cell_json(o, b, &row->cells[1]))
		goto fail;
	if (r->nr_sides == 2)
		return o;
	diffs = json_array();
	if (!diffs || json_object_set_new(o, "diffs", diffs))
		goto fail;
	for (s = 1; s < r->nr_sides; s++) {
		d = json_pack("{s:s}", "variant", r->sides[s].name);
		if (!d || json_array_append_new(diffs, d) ||
		    cell_json(d, b, &row->cells[s]))
			goto fail;
	}
	return o;
fail:
	json_decref(o);
	return NULL;
}

json_t *perfdiff_json(const struct pd_result *r)
{
	json_t *o, *sides, *rows, *x;
	char cbuf[64];
	size_t i;

	o = json_pack("{s:s, s:s, s:s, s:s, s:I, s:I, s:s, s:o, s:o}", "kind",
		      "samples", "event", r->event, "compute",
		      perfdiff_compute_name(&r->opts, cbuf, sizeof(cbuf)),
		      "sort", perfdiff_sort_name(&r->opts), "symbols",
		      (json_int_t)r->nr_symbols, "shown",
		      (json_int_t)r->nr_rows, "noise_rule",
		      "not a discovery: Welch t test per symbol, Benjamini-Hochberg over the symbols at FDR 0.05",
		      "sides", sides = json_array(), "rows",
		      rows = json_array());
	if (!o || !sides || !rows)
		goto fail;
	for (i = 0; i < r->nr_sides; i++) {
		x = json_pack("{s:s, s:b, s:I, s:I, s:I}", "variant",
			      r->sides[i].name, "baseline", i == 0, "runs",
			      (json_int_t)r->sides[i].nr_runs, "total",
			      (json_int_t)r->sides[i].total, "lost",
			      (json_int_t)r->sides[i].lost);
		if (json_array_append_new(sides, x))
			goto fail;
	}
	for (i = 0; i < r->nr_rows; i++) {
		if (json_array_append_new(rows, row_json(r, &r->rows[i])))
			goto fail;
	}
	return o;
fail:
	json_decref(o);
	return NULL;
}

/* A client error was answered: 1, or -1 when the reply failed. */
static int replied(int rc)
{
	return rc < 0 ? -1 : 1;
}

/* ---- loading profiles ---------------------------------------------------- */

/* Bump allocator for the symbol strings of one request. */
struct arena {
	char *blk;
	size_t used, cap;
	char **old;
	size_t nold;
};

static char *arena_strdup(struct arena *a, const char *s)
{
	size_t n = strlen(s) + 1;
	char *p;

	if (a->used + n > a->cap) {
		size_t cap = n > 65536 ? n : 65536;
		char **old = realloc(a->old, (a->nold + 1) * sizeof(*old));

		if (!old)
			return NULL;
		a->old = old;
		if (a->blk)
			a->old[a->nold++] = a->blk;
		a->blk = malloc(cap);
		if (!a->blk)
			return NULL;
		a->used = 0;
		a->cap = cap;
	}
	p = a->blk + a->used;
	memcpy(p, s, n);
	a->used += n;
	return p;
}

static void arena_free(struct arena *a)
{
	size_t i;

	for (i = 0; i < a->nold; i++)
		free(a->old[i]);
	free(a->old);
	free(a->blk);
}

struct variant {
	int64_t id;
	char *name;
	bool control;
};

struct pd_load {
	struct variant v[MAX_VARIANTS];
	size_t nv;
	struct pd_side sides[MAX_VARIANTS];
	size_t nsides;
	struct arena strings;
};

static void load_free(struct pd_load *l)
{
	size_t i, r;

	for (i = 0; i < l->nv; i++)
		free(l->v[i].name);
	for (i = 0; i < l->nsides; i++) {
		for (r = 0; r < l->sides[i].nr_runs; r++)
			free((void *)l->sides[i].runs[r].syms);
		free((void *)l->sides[i].runs);
	}
	arena_free(&l->strings);
}

/* Variants of experiment @id, the control first. -1 on a database error. */
static int load_variants(sqlite3 *db, int64_t id, struct pd_load *l)
{
	sqlite3_stmt *st = db_prepare(
		db, "SELECT id, name, is_control FROM variants"
		    " WHERE experiment_id = ? ORDER BY is_control DESC, idx");
	int rc;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && l->nv < MAX_VARIANTS) {
		struct variant *v = &l->v[l->nv];

		v->id = sqlite3_column_int64(st, 0);
		v->name = strdup((const char *)sqlite3_column_text(st, 1));
		v->control = l->nv == 0;
		if (!v->name)
			break;
		l->nv++;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

static int load_symbols(sqlite3 *db, sqlite3_stmt *st, int64_t run,
			struct pd_profile *p, struct arena *a)
{
	struct pd_sym *syms = NULL;
	size_t n = 0, cap = 0;
	int rc;

	(void)db;
	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, run);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (n == cap) {
			struct pd_sym *ns;

			cap = cap ? cap * 2 : 256;
			ns = realloc(syms, cap * sizeof(*ns));
			if (!ns)
				goto fail;
			syms = ns;
		}
		syms[n].dso = arena_strdup(
			a, (const char *)sqlite3_column_text(st, 0));
		syms[n].name = arena_strdup(
			a, (const char *)sqlite3_column_text(st, 1));
		syms[n].samples = sqlite3_column_int64(st, 2);
		if (!syms[n].dso || !syms[n].name)
			goto fail;
		n++;
	}
	if (rc != SQLITE_DONE)
		goto fail;
	p->syms = syms;
	p->nr_syms = n;
	return 0;
fail:
	free(syms);
	return -1;
}

/* The profiled runs of variant @v as one side. */
static int load_side(sqlite3 *db, const struct variant *v, struct pd_side *side,
		     struct arena *a)
{
	sqlite3_stmt *runs, *syms;
	struct pd_profile *p = NULL;
	size_t n = 0;
	int rc = -1;

	runs = db_prepare(
		db, "SELECT p.run_id, p.event, p.total, p.lost FROM runs r"
		    " JOIN profiles p ON p.run_id = r.id WHERE r.variant_id = ?"
		    " ORDER BY r.id");
	syms = db_prepare(
		db,
		"SELECT s.dso, s.name, ps.samples FROM profile_symbols ps"
		" JOIN symbols s ON s.id = ps.symbol_id WHERE ps.run_id = ?");
	side->name = v->name;
	side->nr_runs = 0;
	side->runs = NULL;
	if (!runs || !syms)
		goto out;
	sqlite3_bind_int64(runs, 1, v->id);
	while (sqlite3_step(runs) == SQLITE_ROW) {
		struct pd_profile *np = realloc(p, (n + 1) * sizeof(*p));

		if (!np)
			goto out;
		p = np;
		memset(&p[n], 0, sizeof(p[n]));
		p[n].event = arena_strdup(
			a, (const char *)sqlite3_column_text(runs, 1));
		p[n].total = sqlite3_column_int64(runs, 2);
		p[n].lost = sqlite3_column_int64(runs, 3);
		side->runs = p;
		side->nr_runs = ++n;
		if (!p[n - 1].event ||
		    load_symbols(db, syms, sqlite3_column_int64(runs, 0),
				 &p[n - 1], a))
			goto out;
	}
	side->runs = p;
	rc = 0;
out:
	sqlite3_finalize(runs);
	sqlite3_finalize(syms);
	return rc;
}

/*
 * Experiment, variants and the sides to diff: the control, then @name or
 * every other variant. Replies and returns 1 on a client error.
 */
static int load_experiment(struct http_req *req, struct http_resp *resp,
			   struct pd_load *l, const char *name, size_t *pick)
{
	int64_t id = http_param_id(req, "id");
	size_t i;

	if (id < 0 ||
	    db_int(req->db, 0, "SELECT count(*) FROM experiments WHERE id = ?",
		   1, id) != 1)
		return replied(http_error(resp, 404, "no such experiment"));
	if (load_variants(req->db, id, l))
		return -1;
	if (l->nv < 2)
		return replied(http_error(
			resp, 409, "experiment %lld has no variant to compare",
			(long long)id));
	*pick = 0;
	if (!name)
		return 0;
	for (i = 0; i < l->nv; i++)
		if (!strcmp(l->v[i].name, name))
			*pick = i;
	if (!*pick && strcmp(l->v[0].name, name))
		return replied(http_error(
			resp, 404, "no variant named '%s' in experiment %lld",
			name, (long long)id));
	if (!*pick)
		return replied(http_error(
			resp, 400, "variant '%s' is the control (the baseline)",
			name));
	return 0;
}

static int load_sides(struct http_req *req, struct http_resp *resp,
		      struct pd_load *l, size_t pick)
{
	size_t i;

	for (i = 0; i < l->nv; i++) {
		struct pd_side *s = &l->sides[l->nsides];

		if (i && pick && i != pick)
			continue;
		l->nsides++;
		if (load_side(req->db, &l->v[i], s, &l->strings))
			return -1;
		if (s->nr_runs)
			continue;
		/* all variants: leave out one without profiles (failed build) */
		if (!i || pick)
			return replied(http_error(
				resp, 409,
				"variant '%s' has no profiled runs yet",
				l->v[i].name));
		free((void *)s->runs);
		l->nsides--;
	}
	if (l->nsides < 2)
		return replied(http_error(resp, 409,
					  "no variant has profiled runs yet"));
	return 0;
}

enum pd_kind { PD_KIND_AUTO, PD_KIND_SAMPLES, PD_KIND_EXACT, PD_KIND_BAD };

/*
 * The exact diff when both sides have exact profiles (or ?kind=
 * instructions asks for it): 1 replied, 0 serve the sampled one, -1.
 */
static int try_exact(struct http_req *req, struct http_resp *resp,
		     const struct pd_load *l, size_t pick,
		     const struct pd_opts *o, bool text, enum pd_kind kind)
{
	struct pdx_variant v[MAX_VARIANTS];
	size_t i;

	if (kind == PD_KIND_SAMPLES)
		return 0;
	for (i = 0; i < l->nv; i++)
		v[i] = (struct pdx_variant){ l->v[i].id, l->v[i].name };
	return api_perfdiff_exact(req, resp, v, l->nv, pick, o, text,
				  kind == PD_KIND_EXACT);
}

/* Query options; replies 400 and returns 1 on a bad one. */
static int parse_query(struct http_req *req, struct http_resp *resp,
		       struct pd_opts *o, bool *text, enum pd_kind *kind)
{
	const char *k = http_query(req, "kind");
	const char *c = http_query(req, "compute"),
		   *s = http_query(req, "sort");
	const char *lim = http_query(req, "limit"),
		   *ord = http_query(req, "order");
	const char *fmt = http_query(req, "format");
	char *end;
	long v;

	perfdiff_default_opts(o);
	o->limit = DEFAULT_LIMIT;
	if (c && perfdiff_parse_compute(c, o))
		return replied(http_error(
			resp, 400,
			"compute: expected delta, delta-abs, ratio or wdiff:W1,W2 (non-zero integers)"));
	if (s && perfdiff_parse_sort(s, &o->sort))
		return replied(http_error(
			resp, 400,
			"sort: expected baseline, new, delta, delta-abs, ratio, wdiff, stddev, samples, dso or symbol"));
	if (lim) {
		errno = 0;
		v = strtol(lim, &end, 10);
		if (errno || end == lim || *end || v < 0 || v > MAX_LIMIT)
			return replied(http_error(
				resp, 400, "limit: expected 0 (all) to %d",
				MAX_LIMIT));
		o->limit = v;
	}
	if (ord) {
		errno = 0;
		v = strtol(ord, &end, 10);
		if (errno || end == ord || *end || v < 1 || v >= MAX_VARIANTS)
			return replied(http_error(
				resp, 400,
				"order: expected the index of a compared variant (1..)"));
		o->sort_idx = v;
	}
	*kind = !k ? PD_KIND_AUTO :
	       !strcmp(k, "samples") ? PD_KIND_SAMPLES :
	       !strcmp(k, "instructions") ? PD_KIND_EXACT : PD_KIND_BAD;
	if (*kind == PD_KIND_BAD)
		return replied(http_error(
			resp, 400, "kind: expected samples or instructions"));
	*text = false;
	if (fmt && strcmp(fmt, "json") && strcmp(fmt, "text"))
		return replied(
			http_error(resp, 400, "format: expected json or text"));
	*text = fmt && !strcmp(fmt, "text");
	return 0;
}

int api_perfdiff_get(struct http_req *req, struct http_resp *resp)
{
	struct pd_load l = { .nv = 0 };
	struct pd_result *r = NULL;
	enum pd_kind kind;
	struct pd_opts o;
	char err[256];
	size_t pick, len;
	bool text;
	int rc;

	rc = parse_query(req, resp, &o, &text, &kind);
	if (!rc)
		rc = load_experiment(req, resp, &l, http_query(req, "variant"),
				     &pick);
	if (!rc)
		rc = try_exact(req, resp, &l, pick, &o, text, kind);
	if (!rc)
		rc = load_sides(req, resp, &l, pick);
	if (rc)
		goto out;
	if ((size_t)o.sort_idx >= l.nsides) {
		rc = http_error(resp, 400,
				"order: only %zu variant(s) compared",
				l.nsides - 1);
		goto out;
	}
	r = perfdiff_compute(l.sides, l.nsides, &o, err, sizeof(err));
	if (!r) {
		rc = strstr(err, "out of memory") ?
			     -1 :
			     http_error(resp, 422,
					"profiles cannot be compared: %s", err);
		goto out;
	}
	if (text) {
		char *buf = perfdiff_text(r, &len);

		rc = buf ? http_take(resp, 200, "text/plain; charset=utf-8",
				     buf, len) :
			   -1;
	} else {
		json_t *j = perfdiff_json(r);

		if (j)
			json_object_set_new(
				j, "experiment_id",
				json_integer(http_param_id(req, "id")));
		rc = j ? http_json(resp, 200, j) : -1;
	}
out:
	perfdiff_free(r);
	load_free(&l);
	return rc < 0 ? -1 : 0;
}

/* Folded stacks of variant @vid summed over its runs. */
static int load_stacks(sqlite3 *db, int64_t vid, struct fg_stack **out,
		       size_t *nr, struct arena *a)
{
	sqlite3_stmt *st = db_prepare(
		db, "SELECT s.folded, sum(ps.samples) FROM profile_stacks ps"
		    " JOIN stacks s ON s.id = ps.stack_id"
		    " JOIN runs r ON r.id = ps.run_id"
		    " WHERE r.variant_id = ? GROUP BY ps.stack_id");
	struct fg_stack *v = NULL;
	size_t n = 0, cap = 0;
	int rc;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, vid);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (n == cap) {
			struct fg_stack *nv;

			cap = cap ? cap * 2 : 256;
			nv = realloc(v, cap * sizeof(*nv));
			if (!nv)
				break;
			v = nv;
		}
		v[n].folded = arena_strdup(
			a, (const char *)sqlite3_column_text(st, 0));
		v[n].samples = sqlite3_column_int64(st, 1);
		if (!v[n].folded)
			break;
		n++;
	}
	sqlite3_finalize(st);
	*out = v;
	*nr = n;
	return rc == SQLITE_DONE ? 0 : -1;
}

int api_flamegraph_get(struct http_req *req, struct http_resp *resp)
{
	struct pd_load l = { .nv = 0 };
	struct fg_stack *base = NULL, *new = NULL;
	size_t nb = 0, nn = 0, pick, len;
	char title[256], sub[512];
	struct fg_opts o;
	char *svg;
	int rc;

	rc = load_experiment(req, resp, &l, http_query(req, "variant"), &pick);
	if (rc)
		goto out;
	if (!pick && l.nv > 2) {
		rc = http_error(
			resp, 400,
			"variant: name the variant to compare with the control");
		goto out;
	}
	pick = pick ? pick : 1;
	rc = -1;
	if (load_stacks(req->db, l.v[0].id, &base, &nb, &l.strings) ||
	    load_stacks(req->db, l.v[pick].id, &new, &nn, &l.strings))
		goto out;
	if (!nn) {
		rc = http_error(resp, 409,
				"variant '%s' has no call stacks recorded",
				l.v[pick].name);
		goto out;
	}
	flamegraph_default_opts(&o);
	snprintf(title, sizeof(title), "Differential Flame Graph: %s vs %s",
		 l.v[pick].name, l.v[0].name);
	snprintf(
		sub, sizeof(sub),
		"experiment %lld; width = %s samples; red = more, blue = less than %s (scaled to the same total)",
		(long long)http_param_id(req, "id"), l.v[pick].name,
		l.v[0].name);
	o.title = title;
	o.subtitle = sub;
	svg = flamegraph_diff_svg(base, nb, new, nn, &o, &len);
	rc = svg ? http_take(resp, 200, "image/svg+xml", svg, len) : -1;
out:
	free(base);
	free(new);
	load_free(&l);
	return rc < 0 ? -1 : 0;
}
