// SPDX-License-Identifier: MIT
/*
 * Description: a ladder calibration feeds the host's verdicts,
 * against a real migrated database: a perflab_canary ladder (N = 0..256,
 * 5 runs each, ns/IO 2413.6 + 3 N with a planted run noise of 0.0005 %)
 * stores a ladder_fits row (cost ~3 ns per unit, R^2 >= 0.99) and a
 * host_calibration row with the pooled within-step noise and the MDE at 5
 * runs; a later experiment on that host with the same bench then takes
 * its MDE from the host ("no change (MDE x % at 5 runs)", mde_from_host)
 * for an identical variant and calls a 0.05 % ns/IO change a regression
 * (one alert; the ladder's steps, regressions by design, raise none).
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

/*
 * The MDE at 5 runs a side from its closed form with Student t table
 * values (df 8: t.995 = 3.3554, t.80 = 0.8889), not from verdict_mde():
 * sqrt(pi/2) (t.995 + t.80) sd sqrt(2/5).
 */
static double mde5(double sd)
{
	return 1.2533141 * (3.3554 + 0.8889) * sd * sqrt(2.0 / 5);
}

static double col_double(sqlite3 *db, const char *sql, int64_t id)
{
	sqlite3_stmt *st;
	double v = NAN;

	sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_double(st, 0);
	sqlite3_finalize(st);
	return v;
}

int main(void)
{
	static const int ladder[] = { 0, 1, 2, 4, 8, 16, 64, 256 };
	char path[] = "/tmp/perflab-ladder-XXXXXX", buf[256];
	int64_t l, e, a, same, slow;
	double noise, mde, slope, r2;
	sqlite3 *db = fixture_db(path);

	stats_rng_seed(&rng, 7);
	exec(db, "INSERT INTO hosts (id, name, backend, registered_at, last_seen)"
		 " VALUES (1, 'h1', 'qemu-icount', 0, 0)");

	l = experiment(db, "calibration", 5);
	for (int k = 0; k < 8; k++) {
		char name[16], cmd[32];
		int64_t v;

		snprintf(name, sizeof(name), "canary-%d", ladder[k]);
		snprintf(cmd, sizeof(cmd), "perflab_canary=%d", ladder[k]);
		v = variant(db, l, k, name, cmd);
		for (int i = 0; i < 5; i++)
			run(db, l, v, i, 4.1e5, 0.0005, 2413.6 + 3.0 * ladder[k]);
	}
	CHECK(analysis_experiment_done(db, l) == 0, "ladder analysis failed");
	slope = col_double(db, "SELECT slope_pct FROM ladder_fits WHERE"
			   " experiment_id = ?", l);
	r2 = col_double(db, "SELECT r2 FROM ladder_fits WHERE experiment_id = ?", l);
	noise = col_double(db, "SELECT noise_pct FROM host_calibration WHERE"
			   " experiment_id = ? AND metric = 'ns_per_io'", l);
	mde = col_double(db, "SELECT mde_pct FROM host_calibration WHERE"
			 " experiment_id = ?", l);
	printf("ladder: %.5f %%/unit = %.4f ns/unit, R^2 %.6f, noise %.6f %%,"
	       " MDE %.6f %% at 5 runs\n", slope, slope / 100 * 2413.6, r2, noise,
	       mde);
	CHECK(fabs(slope / 100 * 2413.6 - 3) < 0.01, "slope %g", slope);
	CHECK(r2 >= 0.99, "R^2 %g", r2);
	CHECK(noise > 0.0003 && noise < 0.0007, "noise %g (planted 0.0005)", noise);
	CHECK(fabs(mde / mde5(noise) - 1) < 1e-3, "mde %g, closed form %g", mde,
	      mde5(noise));
	CHECK(db_int(db, 0, "SELECT runs FROM host_calibration WHERE"
		     " experiment_id = ?", 1, l) == 5, "calibration runs");
	CHECK(db_int(db, 0, "SELECT count(*) FROM alerts WHERE experiment_id = ?",
		     1, l) == 0, "a calibration ladder raised alerts");

	/* A later experiment on the host, same bench: MDE from the ladder. */
	e = experiment(db, "explicit", 5);
	a = variant(db, e, 0, "base", "");
	same = variant(db, e, 1, "same", "");
	slow = variant(db, e, 2, "slow", "");
	for (int i = 0; i < 5; i++) {
		run(db, e, a, i, 4.1e5, 0.0005, 2408.58);
		run(db, e, same, i, 4.1e5, 0.0005, 2408.58);
		run(db, e, slow, i, 4.1e5, 0.0005, 2408.58 * 1.0005);
	}
	CHECK(analysis_experiment_done(db, e) == 0, "analysis failed");
	printf("same: %s\n", verdict_of(db, same, buf, sizeof(buf)));
	CHECK(!strncmp(buf, "no change|no change (MDE", 24) &&
	      !strcmp(buf + strlen(buf) - 2, "|1"), "same: %s", buf);
	CHECK(fabs(col_double(db, "SELECT mde_pct FROM comparisons WHERE"
			      " variant_id = ?", same) - mde) < 1e-9,
	      "verdict MDE is not the ladder's %g", mde);
	printf("slow (+0.05 %% ns/IO): %s\n", verdict_of(db, slow, buf, sizeof(buf)));
	CHECK(!strncmp(buf, "regression|", 11) && !strcmp(buf + strlen(buf) - 2, "|1"),
	      "slow: %s", buf);
	CHECK(db_int(db, 0, "SELECT count(*) FROM alerts WHERE experiment_id = ?",
		     1, e) == 1, "no alert for the regression");
	sqlite3_close(db);
	unlink(path);
	if (fails) {
		printf("ladder-calibration: %d checks failed\n", fails);
		return 1;
	}
	printf("ladder-calibration: ok\n");
	return 0;
}
