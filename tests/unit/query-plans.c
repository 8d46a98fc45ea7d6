// SPDX-License-Identifier: MIT
/*
 * Description: the hot reads (experiment list, first and deep page and
 * by state; one experiment; its perf diff; a track's points and a series'
 * trends, first and deep page, a track's series and one by time; the
 * bisection list and a bisection's steps, first and deep page; the
 * alert list; /metrics' gauges) and the claim scan no table
 * that grows with the lab. The lab functions themselves run on a
 * database filled by bench/scale-fill.sql; every statement they execute
 * is caught by SQLite's trace hook and its EXPLAIN QUERY PLAN read: a
 * "SCAN" of a growing table fails the test (a scan of a partial index,
 * which holds only the work in flight, does not).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "daemon/lab/alerts.h"
#include "daemon/lab/bisect_json.h"
#include "daemon/lab/experiment_json.h"
#include "daemon/lab/gauges.h"
#include "daemon/lab/jobs.h"
#include "daemon/lab/profiles.h"
#include "daemon/lab/series_json.h"
#include "daemon/lab/tracks.h"
#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "unit/check.h"

#define NEXP 300

/* Tables that stay small whatever the lab's age: a scan is fine. */
static const char *const small[] = {
	"bases", "hosts", "host_labels", "api_keys", "tracks", "series",
	"baselines", "lava_labs", "webhooks", "cmdline_allowlist",
	"setting_allowlist", "setup_scripts", "host_configs", "sqlite_schema",
	"json_each", "CONSTANT", NULL,
};


static char *seen[256];
static int nseen;

static int trace(unsigned type, void *ctx, void *p, void *x)
{
	const char *sql = sqlite3_sql(p);

	(void)type, (void)ctx, (void)x;
	if (!sql || !strncmp(sql, "EXPLAIN", 7))
		return 0;
	for (int i = 0; i < nseen; i++)
		if (!strcmp(seen[i], sql))
			return 0;
	if (nseen < 256)
		seen[nseen++] = strdup(sql);
	return 0;
}

static int is_small(const char *t)
{
	for (int i = 0; small[i]; i++)
		if (!strcmp(small[i], t))
			return 1;
	return 0;
}

/* The table (or alias) a plan line scans; "" when it is no scan. */
static void scanned(const char *line, char *t, size_t len)
{
	const char *p = line;

	t[0] = '\0';
	if (strncmp(p, "SCAN ", 5))
		return;
	p += 5;
	snprintf(t, len, "%.*s", (int)strcspn(p, " "), p);
}

/* Alias @a of the statement back to its table ("e" in "experiments e"). */
static void table_of(const char *sql, const char *a, char *t, size_t len)
{
	char pat[80];
	const char *p, *q;

	snprintf(t, len, "%s", a);
	snprintf(pat, sizeof(pat), " %s ", a);
	for (p = strstr(sql, pat); p; p = strstr(p + 1, pat)) {
		/* "FROM|JOIN table a " */
		for (q = p - 1; q > sql && *q != ' '; q--)
			;
		if (q > sql && (!strncmp(q - 4, "FROM", 4) || !strncmp(q - 4, "JOIN", 4))) {
			snprintf(t, len, "%.*s", (int)(p - q - 1), q + 1);
			return;
		}
	}
}

/*
 * A scan of a partial index reads only the rows it holds (the pending
 * analyses, the open LAVA jobs): bounded by the work in flight.
 */
static int partial_index(sqlite3 *db, const char *line)
{
	const char *p = strstr(line, " INDEX ");
	char name[64], *sql = NULL;
	int partial;

	if (!p)
		return 0;
	p += 7;
	snprintf(name, sizeof(name), "%.*s", (int)strcspn(p, " "), p);
	sqlite3_stmt *st = db_prepare(db, "SELECT sql FROM sqlite_schema WHERE"
				      " type = 'index' AND name = ?");
	if (!st)
		return 0;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		sql = strdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	partial = sql && strstr(sql, "WHERE");
	free(sql);
	return partial;
}

static void check_plans(sqlite3 *db, const char *what)
{
	int scans = 0;

	sqlite3_trace_v2(db, 0, NULL, NULL);
	printf("== %s: %d statements\n", what, nseen);
	CHECK(nseen > 0, "%s ran no statement", what);
	for (int i = 0; i < nseen; i++) {
		char *q = sqlite3_mprintf("EXPLAIN QUERY PLAN %s", seen[i]);
		sqlite3_stmt *st;

		if (sqlite3_prepare_v2(db, q, -1, &st, NULL) != SQLITE_OK) {
			/* PRAGMAs and the like have no plan */
			sqlite3_free(q);
			continue;
		}
		printf("-- %s\n", seen[i]);
		while (sqlite3_step(st) == SQLITE_ROW) {
			const char *line = (const char *)sqlite3_column_text(st, 3);
			char a[64], t[64];

			printf("   %s\n", line);
			scanned(line, a, sizeof(a));
			if (!a[0])
				continue;
			table_of(seen[i], a, t, sizeof(t));
			if (is_small(t) || partial_index(db, line))
				continue;
			scans++;
			CHECK(0, "%s: full scan of %s (%s) in: %s", what, t, line,
			      seen[i]);
		}
		sqlite3_finalize(st);
		sqlite3_free(q);
	}
	if (!scans)
		printf("   ok: no full scan of a growing table\n");
	for (int i = 0; i < nseen; i++)
		free(seen[i]);
	nseen = 0;
	sqlite3_trace_v2(db, SQLITE_TRACE_PROFILE, trace, NULL);
}

/* Rows the test adds: not what is checked. */
static int setup(sqlite3 *db, const char *sql)
{
	int rc;

	sqlite3_trace_v2(db, 0, NULL, NULL);
	rc = db_exec(db, sql);
	sqlite3_trace_v2(db, SQLITE_TRACE_PROFILE, trace, NULL);
	return rc;
}

static char *slurp_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, n + 1);
	if (buf && fread(buf, 1, n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

int main(void)
{
	char dir[] = "/tmp/perflab-plans-XXXXXX", path[64], err[256];
	struct perfdiff_opts o;
	struct profiles_diff d;
	struct perfdiff_result *r;
	struct jobs_ctx c = { .lease_seconds = 60, .max_attempts = 3 };
	struct claim cl;
	struct lab_err e;
	int64_t next;
	char *fill;
	sqlite3 *db;
	json_t *j;

	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/db", dir);
	db = db_open(path, err, sizeof(err));
	if (!db || db_migrate(db, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	fill = slurp_file("bench/scale-fill.sql");
	if (!fill) {
		printf("bench/scale-fill.sql not found (run from the top directory)\n");
		return 77;
	}
	CHECK(!db_exec(db, "CREATE TEMP TABLE scale AS SELECT " "300 AS experiments,"
		       " 5 AS samples, 20 AS symbols, 500 AS symtab"));
	CHECK(!db_exec(db, fill), "fill: %s", sqlite3_errmsg(db));
	free(fill);
	sqlite3_trace_v2(db, SQLITE_TRACE_PROFILE, trace, NULL);

	j = experiments_list_json(db, NULL, 50, 0, &next);
	CHECK(json_array_size(j) == 50 && next == NEXP - 49, "next %lld", (long long)next);
	json_decref(j);
	check_plans(db, "experiment list, first page");
	j = experiments_list_json(db, NULL, 50, NEXP / 3, &next);
	CHECK(json_array_size(j) == 50);
	json_decref(j);
	check_plans(db, "experiment list, deep page");
	j = experiments_list_json(db, "queued", 50, 0, &next);
	CHECK(json_array_size(j) > 0 && !next);
	json_decref(j);
	check_plans(db, "experiment list, by state");
	j = experiments_list_json(db, "done", 50, NEXP / 2, &next);
	CHECK(json_array_size(j) == 50);
	json_decref(j);
	check_plans(db, "experiment list, by state, deep page");

	j = experiment_json(db, NEXP / 2);
	CHECK(j != NULL);
	json_decref(j);
	check_plans(db, "one experiment");

	perfdiff_default_opts(&o);
	r = profiles_perfdiff(db, NEXP / 2, NULL, &perfdiff_samples, &o, &d, &e);
	CHECK(r != NULL, "perf diff: %s", e.msg);
	perfdiff_free(r);
	profiles_diff_free(&d);
	check_plans(db, "perf diff");

	j = tracks_page_json(db, 1001, 2, 0, &next);
	CHECK(j && json_array_size(json_object_get(j, "points")) == 2 && next > 0);
	json_decref(j);
	check_plans(db, "track points, first page");
	j = tracks_page_json(db, 1001, 2, next, &next);
	CHECK(j && json_array_size(json_object_get(j, "points")) == 2);
	json_decref(j);
	check_plans(db, "track points, deep page");
	j = series_page_json(db, 1001, false, 2, 0, &next, &e);
	CHECK(j && next > 0, "%s", e.msg);
	json_decref(j);
	check_plans(db, "series trends (a track's), first page");
	j = series_page_json(db, 1001, true, 2, next, &next, &e);
	CHECK(j && json_array_size(json_object_get(j, "points")) == 2, "%s", e.msg);
	json_decref(j);
	check_plans(db, "series trends (a track's), deep page");
	CHECK(!setup(db, "INSERT INTO series (id, name, metric, created_at) VALUES"
		       " (77, 'by-time', 'iops', 0); INSERT INTO series_points"
		       " (series_id, t, value, created_at) SELECT 77, id / 3, id, 0"
		       " FROM experiments"));
	j = series_page_json(db, 77, false, 50, 0, &next, &e);
	CHECK(j && next > 0, "%s", e.msg);
	json_decref(j);
	check_plans(db, "series trends (by time), first page");
	j = series_page_json(db, 77, true, 50, next, &next, &e);
	CHECK(j && json_array_size(json_object_get(j, "points")) == 50, "%s", e.msg);
	json_decref(j);
	check_plans(db, "series trends (by time), deep page");

	CHECK(!setup(db, "INSERT INTO bisections (id, base_id, good, bad, bench,"
		       " runs, state, created_at) SELECT id, 1, 'g', 'b', '{}', 3,"
		       " 'done', 0 FROM experiments WHERE id <= 30;"
		       " INSERT INTO bisection_steps (bisection_id, idx, commit_sha,"
		       " experiment_id, created_at) SELECT 1 + id % 30, id, 'c', id, 0"
		       " FROM experiments"));
	j = bisect_run_list_json(db, 10, 0, &next);
	CHECK(json_array_size(j) == 10 && next > 0);
	json_decref(j);
	j = bisect_run_list_json(db, 10, next, &next);
	CHECK(json_array_size(j) == 10);
	json_decref(j);
	check_plans(db, "bisection list, first and deep page");
	j = bisect_run_page_json(db, 5, 3, 0, &next);
	CHECK(j && next > 0);
	json_decref(j);
	j = bisect_run_page_json(db, 5, 3, next, &next);
	CHECK(j && json_array_size(json_object_get(j, "steps")) == 3);
	json_decref(j);
	check_plans(db, "bisection steps, first and deep page");

	j = alerts_list_json(db, NULL, NULL, 100, 0, &next);
	CHECK(json_array_size(j) > 0);
	json_decref(j);
	check_plans(db, "alert list");
	j = alerts_list_json(db, "new", NULL, 2, 0, &next);
	CHECK(json_array_size(j) == 2 && next > 0);
	json_decref(j);
	check_plans(db, "alert list, by state");
	j = alerts_list_json(db, NULL, "verdict", 2, next, &next);
	json_decref(j);
	check_plans(db, "alert list, by kind, deep page");

	j = gauges_json(db, time(NULL) - 180);
	CHECK(j != NULL);
	json_decref(j);
	check_plans(db, "metrics gauges");

	CHECK(jobs_claim(db, &c, 1001, time(NULL), &cl) == 1, "claim");
	check_plans(db, "claim");

	db_close(db);
	snprintf(err, sizeof(err), "rm -rf %s", dir);
	if (system(err))
		return 1;
	return fails ? 1 : 0;
}
