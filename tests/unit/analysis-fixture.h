/* SPDX-License-Identifier: MIT */
/*
 * Shared fixture of the analysis unit tests: rows of a finished
 * experiment (experiment, variants, jobs, runs with generated per-second
 * samples and optional ns/IO) written straight into a migrated database,
 * and a look-up of the stored verdict.
 */
#ifndef PERFLAB_TEST_ANALYSIS_FIXTURE_H
#define PERFLAB_TEST_ANALYSIS_FIXTURE_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sqlite3.h>
#include <unistd.h>

#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "daemon/analysis/stats.h"
static struct stats_rng rng;
static int lease_no;

/* A fresh migrated database at mkstemp(@path); exits the test on failure. */
static inline sqlite3 *fixture_db(char *path)
{
	char err[256];
	sqlite3 *db;
	int fd = mkstemp(path);

	if (fd < 0) {
		perror(path);
		exit(1);
	}
	close(fd);
	db = db_open(path, err, sizeof(err));
	if (!db || db_migrate(db, err, sizeof(err)) < 0) {
		printf("db: %s\n", err);
		exit(1);
	}
	return db;
}

static inline void exec(sqlite3 *db, const char *sql)
{
	char *err = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) {
		fprintf(stderr, "sql: %s: %s\n", sql, err);
		exit(1);
	}
}

static inline int64_t experiment(sqlite3 *db, const char *kind, int runs)
{
	char sql[512];

	snprintf(sql, sizeof(sql),
		 "INSERT INTO experiments (title, kind, state, backend, base_id,"
		 " bench, runs, max_runs, host_id, created_at) VALUES ('t', '%s',"
		 " 'done', 'qemu-icount', 1, '{\"bs\":512}', %d, %d, 1, 0)",
		 kind, runs, runs);
	exec(db, sql);
	return sqlite3_last_insert_rowid(db);
}

static inline int64_t variant(sqlite3 *db, int64_t exp, int idx, const char *name,
		       const char *cmdline)
{
	char sql[512];

	snprintf(sql, sizeof(sql),
		 "INSERT INTO variants (experiment_id, idx, name, is_control,"
		 " cmdline) VALUES (%lld, %d, '%s', %d, '%s')", (long long)exp,
		 idx, name, idx == 0, cmdline);
	exec(db, sql);
	return sqlite3_last_insert_rowid(db);
}

/* One run: 7 seconds (1 warm-up at half speed) around @iops, sd @sd_pct. */
static inline void run(sqlite3 *db, int64_t exp, int64_t var, int idx, double iops,
		double sd_pct, double ns)
{
	char sql[512];
	int64_t job, rid;
	double level = iops * (1 + sd_pct / 100 * stats_rng_normal(&rng));

	snprintf(sql, sizeof(sql),
		 "INSERT INTO jobs (experiment_id, variant_id, run_index, seq,"
		 " state, created_at) VALUES (%lld, %lld, %d, %d, 'done', 0)",
		 (long long)exp, (long long)var, idx, lease_no);
	exec(db, sql);
	job = sqlite3_last_insert_rowid(db);
	snprintf(sql, sizeof(sql),
		 "INSERT INTO runs (job_id, lease_token, experiment_id, variant_id,"
		 " host_id, run_index, attempt, warmup, created_at)"
		 " VALUES (%lld, 'l%d', %lld, %lld, 1, %d, 1, 1, 0)",
		 (long long)job, lease_no++, (long long)exp, (long long)var, idx);
	exec(db, sql);
	rid = sqlite3_last_insert_rowid(db);
	if (ns > 0) {
		snprintf(sql, sizeof(sql), "INSERT INTO run_metrics (run_id, metric,"
			 " value) VALUES (%lld, 'ns_per_io', %.6f)", (long long)rid,
			 ns * (1 + sd_pct / 100 * stats_rng_normal(&rng)));
		exec(db, sql);
	}
	for (int t = 1; t <= 7; t++) {
		/* per-second jitter 0.3 % around the run's level */
		double v = (t == 1 ? 0.5 : 1) * level *
			   (1 + 0.003 * stats_rng_normal(&rng));

		snprintf(sql, sizeof(sql), "INSERT INTO samples (run_id, t, iops)"
			 " VALUES (%lld, %d, %lld)", (long long)rid, t,
			 (long long)llround(v));
		exec(db, sql);
	}
}

static inline const char *verdict_of(sqlite3 *db, int64_t var, char *buf, size_t len)
{
	sqlite3_stmt *st;

	sqlite3_prepare_v2(db, "SELECT verdict || '|' || json_extract(result,"
			   " '$.summary') || '|' || json_extract(result, '$.mde_from_host')"
			   " FROM comparisons WHERE variant_id = ? ORDER BY id DESC LIMIT 1",
			   -1, &st, NULL);
	sqlite3_bind_int64(st, 1, var);
	snprintf(buf, len, "none");
	if (sqlite3_step(st) == SQLITE_ROW)
		snprintf(buf, len, "%s", sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return buf;
}

#endif
