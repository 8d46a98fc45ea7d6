// SPDX-License-Identifier: MIT
/*
 * exact_load - read exact profiles of variants' runs; see exact_load.h.
 */
#include <stdlib.h>
#include <string.h>

#include "daemon/lab/exact_load.h"
#include "daemon/store/db.h"
#include "daemon/store/sql.h"

static void free_run(struct pdx_run *p)
{
	size_t i;

	for (i = 0; i < p->nr_syms; i++) {
		free((void *)p->syms[i].dso);
		free((void *)p->syms[i].name);
	}
	free((void *)p->syms);
	free((void *)p->source);
}

void xload_free(struct xload *l)
{
	size_t s, r;

	for (s = 0; s < l->nsides; s++) {
		for (r = 0; r < l->sides[s].nr_runs; r++)
			free_run((struct pdx_run *)&l->sides[s].runs[r]);
		free((void *)l->sides[s].runs);
	}
}

static char *col_dup(sqlite3_stmt *st, int i)
{
	const char *s = (const char *)sqlite3_column_text(st, i);

	return strdup(s ? s : "");
}

static int load_symbols(sqlite3_stmt *st, int64_t run, struct pdx_run *p)
{
	struct pdx_sym *syms = NULL, *ns;
	size_t n = 0, cap = 0;
	int rc;

	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, run);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (n == cap) {
			cap = cap ? cap * 2 : 256;
			ns = realloc(syms, cap * sizeof(*ns));
			if (!ns)
				break;
			syms = ns;
		}
		syms[n].dso = col_dup(st, 0);
		syms[n].name = col_dup(st, 1);
		syms[n].insns = sqlite3_column_int64(st, 2);
		n++;
		if (!syms[n - 1].dso || !syms[n - 1].name)
			break;
	}
	p->syms = syms;
	p->nr_syms = n;
	return rc == SQLITE_DONE ? 0 : -1;
}

/* The runs of variant @v with exact profiles as one side. */
static int load_side(sqlite3 *db, const struct pdx_variant *v,
		     struct pdx_side *side)
{
	sqlite3_stmt *runs, *syms;
	struct pdx_run *p = NULL, *np;
	int rc = -1, step;

	runs = db_prepare(db, "SELECT e.run_id, e.source, e.ios, e.total,"
			      " e.kernel, e.user, e.unattributed FROM runs r"
			      " JOIN exact_profiles e ON e.run_id = r.id"
			      " WHERE r.variant_id = ? ORDER BY r.id");
	syms = db_prepare(db, "SELECT s.dso, s.name, x.insns"
			      " FROM exact_profile_symbols x"
			      " JOIN symbols s ON s.id = x.symbol_id"
			      " WHERE x.run_id = ?");
	*side = (struct pdx_side){ .name = v->name };
	if (!runs || !syms)
		goto out;
	sqlite3_bind_int64(runs, 1, v->id);
	while ((step = sqlite3_step(runs)) == SQLITE_ROW) {
		np = realloc(p, (side->nr_runs + 1) * sizeof(*p));
		if (!np)
			goto out;
		p = np;
		side->runs = p;
		np = &p[side->nr_runs++];
		*np = (struct pdx_run){
			.source = col_dup(runs, 1),
			.ios = sqlite3_column_int64(runs, 2),
			.total = sqlite3_column_int64(runs, 3),
			.kernel = sqlite3_column_int64(runs, 4),
			.user = sqlite3_column_int64(runs, 5),
			.unattributed = sqlite3_column_int64(runs, 6),
		};
		if (!np->source ||
		    load_symbols(syms, sqlite3_column_int64(runs, 0), np))
			goto out;
	}
	rc = step == SQLITE_DONE ? 0 : -1;
out:
	sqlite3_finalize(runs);
	sqlite3_finalize(syms);
	return rc;
}

/*
 * The control and the variant(s) with exact profiles. 0 loaded, 1 none to
 * diff (@why says which side lacks them), -1 database error.
 */
int xload_sides(sqlite3 *db, const struct pdx_variant *v, size_t nv,
		size_t pick, struct xload *l, const char **why)
{
	size_t i;

	for (i = 0; i < nv && l->nsides < EXACT_LOAD_MAX_SIDES; i++) {
		struct pdx_side *s = &l->sides[l->nsides];

		if (i && pick && i != pick)
			continue;
		l->nsides++;
		if (load_side(db, &v[i], s))
			return -1;
		if (s->nr_runs)
			continue;
		if (!i || pick) {
			*why = v[i].name;
			return 1;
		}
		/* all variants: leave out one without exact profiles */
		l->nsides--;
	}
	*why = NULL;
	return l->nsides < 2 ? 1 : 0;
}
