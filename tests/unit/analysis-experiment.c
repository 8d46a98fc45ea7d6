// SPDX-License-Identifier: MIT
/*
 * Description: analysis against a real (migrated) SQLite database: an
 * experiment with a control, an identical variant and a variant 1 %
 * slower (generated per-second samples, 6 runs each) stores comparison
 * rows "no change" / "regression" with the LKP text and raises one alert
 * for the regression; an A/A calibration experiment stores the host's
 * noise (close to the planted 0.1 %) which later comparisons report as
 * their MDE source; a canary ladder (N = 0..256, 5 runs each) stores a
 * fit with the planted slope and R^2 >= 0.99, its N=64 step a regression;
 * 3 runs a side are inconclusive and plan 3 more rounds up to the cap;
 * one 7-second boot a side 5 % apart (runs 1, max_runs 2: the per-second
 * samples would say "regression") is inconclusive with the run as the
 * unit, plans the second round, and after it stays inconclusive for good
 * (fewer than 5 runs a side) with no alert.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/lab/analysis.h"
#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "daemon/analysis/stats.h"
#include "unit/check.h"
#include "unit/analysis-fixture.h"

int main(void)
{
	char path[] = "/tmp/perflab-analysis-XXXXXX", buf[256];
	int64_t e1, c, same, slow, aa, l;
	double noise;
	sqlite3 *db = fixture_db(path);

	stats_rng_seed(&rng, 99);
	exec(db, "INSERT INTO hosts (id, name, backend, registered_at, last_seen)"
		 " VALUES (1, 'h1', 'qemu-icount', 0, 0)");

	/* Comparison experiment (IOPS metric: no ns/IO reported). */
	e1 = experiment(db, "explicit", 6);
	c = variant(db, e1, 0, "base", "");
	same = variant(db, e1, 1, "same", "");
	slow = variant(db, e1, 2, "slow", "");
	for (int i = 0; i < 6; i++) {
		run(db, e1, c, i, 3.5e6, 0.1, 0);
		run(db, e1, same, i, 3.5e6, 0.1, 0);
		run(db, e1, slow, i, 3.5e6 * 0.99, 0.1, 0);
	}
	CHECK(analysis_experiment_done(db, e1) == 0, "analysis failed");
	printf("same: %s\nslow: %s\n", verdict_of(db, same, buf, sizeof(buf)),
	       verdict_of(db, slow, buf + 128, 128));
	CHECK(!strncmp(buf, "no change|no change (MDE", 24), "same: %s", buf);
	CHECK(!strncmp(buf + 128, "regression|", 11), "slow: %s", buf + 128);
	CHECK(db_int(db, 0, "SELECT count(*) FROM alerts WHERE experiment_id = ?"
		     " AND kind = 'verdict'", 1, e1) == 1, "one alert expected");
	CHECK(db_int(db, 0, "SELECT count(*) FROM comparisons WHERE experiment_id = ?"
		     " AND result LIKE '%%stddev%%'", 1, e1) == 2, "LKP text stored");
	/* Recomputing does not raise the alert twice. */
	CHECK(analysis_experiment_done(db, e1) == 0 &&
	      db_int(db, 0, "SELECT count(*) FROM alerts", 0) == 1, "duplicate alert");

	/* A/A calibration with ns/IO, noise 0.1 %, 10 runs per side. */
	aa = experiment(db, "calibration", 10);
	c = variant(db, aa, 0, "a", "");
	same = variant(db, aa, 1, "a2", "");
	for (int i = 0; i < 10; i++) {
		run(db, aa, c, i, 2.3e5, 0.1, 4264.39);
		run(db, aa, same, i, 2.3e5, 0.1, 4264.39);
	}
	CHECK(analysis_experiment_done(db, aa) == 0, "A/A analysis failed");
	noise = db_int(db, -1, "SELECT CAST(noise_pct * 1e6 AS INTEGER) FROM"
		       " host_calibration WHERE experiment_id = ? AND metric ="
		       " 'ns_per_io'", 1, aa) / 1e6;
	printf("calibrated noise %.4f %% (planted 0.1 %%)\n", noise);
	CHECK(noise > 0.06 && noise < 0.14, "noise %.4f", noise);

	/* Ladder: ns/IO grows 0.05 % per canary unit; uses the host noise. */
	l = experiment(db, "calibration", 5);
	{
		static const int ladder[] = { 0, 1, 2, 4, 8, 16, 64, 256 };
		double slope, r2;

		for (int k = 0; k < 8; k++) {
			char name[16], cmd[32];
			int64_t v;

			snprintf(name, sizeof(name), "n%d", ladder[k]);
			snprintf(cmd, sizeof(cmd), "perflab_canary=%d", ladder[k]);
			v = variant(db, l, k, name, cmd);
			for (int i = 0; i < 5; i++)
				run(db, l, v, i, 2.3e5, 0.1,
				    4264.39 * (1 + 0.0005 * ladder[k]));
		}
		CHECK(analysis_experiment_done(db, l) == 0, "ladder analysis failed");
		slope = db_int(db, -1, "SELECT CAST(slope_pct * 1e6 AS INTEGER) FROM"
			       " ladder_fits WHERE experiment_id = ?", 1, l) / 1e6;
		r2 = db_int(db, -1, "SELECT CAST(r2 * 1e6 AS INTEGER) FROM"
			    " ladder_fits WHERE experiment_id = ?", 1, l) / 1e6;
		printf("ladder slope %.5f %%/unit (planted 0.05), R2 %.5f\n", slope, r2);
		CHECK(fabs(slope - 0.05) < 0.002, "slope %.5f", slope);
		CHECK(r2 >= 0.99, "r2 %.5f", r2);
		/* n64 vs n0 is a regression of ~3.2 %, MDE from the host. */
		verdict_of(db, db_int(db, 0, "SELECT id FROM variants WHERE"
				      " experiment_id = ? AND name = 'n64'", 1, l),
			   buf, sizeof(buf));
		printf("n64: %s\n", buf);
		CHECK(!strncmp(buf, "regression|", 11) && strstr(buf, "|1"),
		      "n64 %s", buf);
	}
	/* 3 runs a side cannot reach p < 0.01: inconclusive, 3 more rounds
	 * are planned (cap 6) and the experiment runs again. */
	{
		int64_t e = experiment(db, "explicit", 3), a, b;

		exec(db, "UPDATE experiments SET max_runs = 6 WHERE id = last_insert_rowid()");
		a = variant(db, e, 0, "a", "");
		b = variant(db, e, 1, "b", "");
		for (int i = 0; i < 3; i++) {
			run(db, e, a, i, 3.5e6, 0.1, 0);
			run(db, e, b, i, 3.5e6 * 0.99, 0.1, 0);
		}
		CHECK(analysis_experiment_done(db, e) == 0, "analysis failed");
		printf("3 runs: %s\n", verdict_of(db, b, buf, sizeof(buf)));
		CHECK(!strncmp(buf, "inconclusive|", 13), "3 runs: %s", buf);
		CHECK(db_int(db, 0, "SELECT count(*) FROM jobs WHERE experiment_id = ?"
			     " AND state = 'queued'", 1, e) == 6, "6 more jobs planned");
		CHECK(db_int(db, 0, "SELECT state = 'running' FROM experiments"
			     " WHERE id = ?", 1, e) == 1, "experiment running again");
		CHECK(db_int(db, 0, "SELECT count(*) FROM alerts WHERE experiment_id = ?",
			     1, e) == 0, "no alert before the final verdict");
	}
	/* One boot a side never gives a final verdict or an alert. */
	{
		int64_t e = experiment(db, "explicit", 1), a, b;

		exec(db, "UPDATE experiments SET max_runs = 2 WHERE id = last_insert_rowid()");
		a = variant(db, e, 0, "a", "");
		b = variant(db, e, 1, "b", "");
		run(db, e, a, 0, 3.5e6, 0.1, 0);
		run(db, e, b, 0, 3.5e6 * 0.95, 0.1, 0);
		CHECK(analysis_experiment_done(db, e) == 0, "analysis failed");
		printf("1 run: %s\n", verdict_of(db, b, buf, sizeof(buf)));
		CHECK(!strncmp(buf, "inconclusive|", 13), "1 run: %s", buf);
		CHECK(db_int(db, 0, "SELECT count(*) FROM comparisons WHERE"
			     " variant_id = ? AND json_extract(result, '$.unit') = 'run'",
			     1, b) == 1, "unit is not the run");
		CHECK(db_int(db, 0, "SELECT count(*) FROM jobs WHERE experiment_id = ?"
			     " AND state = 'queued'", 1, e) == 2, "second round planned");
		exec(db, "DELETE FROM jobs WHERE state = 'queued'");
		run(db, e, a, 1, 3.5e6, 0.1, 0);
		run(db, e, b, 1, 3.5e6 * 0.95, 0.1, 0);
		exec(db, "UPDATE experiments SET state = 'done' WHERE id = (SELECT max(id) FROM experiments)");
		CHECK(analysis_experiment_done(db, e) == 0, "analysis failed");
		printf("2 runs, final: %s\n", verdict_of(db, b, buf, sizeof(buf)));
		CHECK(!strncmp(buf, "inconclusive|", 13), "2 runs: %s", buf);
		CHECK(db_int(db, 0, "SELECT count(*) FROM jobs WHERE experiment_id = ?"
			     " AND state = 'queued'", 1, e) == 0, "runs beyond max_runs");
		CHECK(db_int(db, 0, "SELECT count(*) FROM alerts WHERE experiment_id = ?",
			     1, e) == 0, "alert on one boot a side");
	}
	sqlite3_close(db);
	unlink(path);
	if (fails)
		return 1;
	printf("analysis ok\n");
	return 0;
}
