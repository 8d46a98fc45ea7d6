// SPDX-License-Identifier: MIT
/*
 * Description: a toggle experiment's boots alternate which variant opens
 * them (planner_order_boots). Written out by hand: 2 rounds a boot give
 * AB BA | BA AB | AB BA, 3 give AB BA AB | BA AB BA, 1 gives AB | BA; for
 * every rounds-per-boot 1..6 over 2..8 boots (enumerated): each round
 * holds each variant once, boot b opens with A when b is even and B when
 * odd, so over every two boots each variant opens one and the first-run
 * position is shared; within a boot the rounds alternate. Before, an even
 * rounds-per-boot opened every boot with A (a first-run warm-up always on
 * the control). The planner writes the jobs in this order for an
 * experiment with runs_per_boot, and extending it continues the order.
 */
#include <stdio.h>
#include <string.h>

#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "daemon/lab/planner.h"
#include "unit/check.h"

static void letters(int first, int rounds, int per_boot, char *out)
{
	int v[128], r[128];

	planner_order_boots(2, first, rounds, per_boot, v, r);
	for (int i = 0; i < 2 * rounds; i++)
		out[i] = (char)('A' + v[i]);
	out[2 * rounds] = '\0';
}

int main(void)
{
	struct variant_spec vs[2] = { { .name = "A", .is_control = true }, { .name = "B" } };
	struct experiment_spec spec = {
		.title = "t", .base_id = 1, .bench_json = "{}", .runs = 4, .max_runs = 6,
		.runs_per_boot = 2, .variants = vs, .nvariants = 2,
	};
	char s[260], err[256];
	struct lab_err le;
	sqlite3_stmt *st;
	sqlite3 *db;
	int64_t exp;
	int i;

	letters(0, 6, 2, s);
	CHECK(!strcmp(s, "ABBABAABABBA"), "2 a boot: %s", s);
	letters(0, 6, 3, s);
	CHECK(!strcmp(s, "ABBAABBAABBA"), "3 a boot: %s", s);
	letters(0, 4, 1, s);
	CHECK(!strcmp(s, "ABBAABBA"), "1 a boot: %s", s);
	letters(2, 2, 2, s);
	CHECK(!strcmp(s, "BAAB"), "continued from round 2 (boot 1): %s", s);
	letters(0, 4, 0, s);
	CHECK(!strcmp(s, "ABBAABBA"), "not a toggle: %s", s);

	for (int per = 1; per <= 6; per++)
		for (int boots = 2; boots <= 8; boots++) {
			int v[128], r[128], n = per * boots, opens[2] = { 0 };

			planner_order_boots(2, 0, n, per, v, r);
			for (int k = 0; k < n; k++) {
				CHECK(r[2 * k] == k && r[2 * k + 1] == k, "round %d", k);
				CHECK(v[2 * k] != v[2 * k + 1], "round %d holds both", k);
				if (k % per == 0) {
					CHECK(v[2 * k] == (k / per) % 2, "boot %d opens"
					      " with %c (per %d)", k / per,
					      'A' + v[2 * k], per);
					opens[v[2 * k]]++;
				} else {
					CHECK(v[2 * k] == v[2 * k - 1], "rounds of a boot"
					      " alternate (per %d, round %d)", per, k);
				}
			}
			CHECK(opens[0] - opens[1] == boots % 2, "per %d boots %d: A opens"
			      " %d, B %d", per, boots, opens[0], opens[1]);
		}

	db = db_open(":memory:", err, sizeof(err));
	if (!db || db_migrate(db, err, sizeof(err)) < 0)
		return 1;
	exp = planner_create(db, &spec, &le);
	CHECK(exp > 0, "create: %s", le.msg);
	CHECK(planner_extend(db, exp, 2) == 4, "extend by a boot");
	st = db_prepare(db, "SELECT v.name FROM jobs j JOIN variants v ON"
			" v.id = j.variant_id WHERE j.experiment_id = ? ORDER BY j.seq");
	sqlite3_bind_int64(st, 1, exp);
	for (i = 0; sqlite3_step(st) == SQLITE_ROW && i < 64; i++)
		s[i] = sqlite3_column_text(st, 0)[0];
	s[i] = '\0';
	sqlite3_finalize(st);
	CHECK(!strcmp(s, "ABBABAABABBA"), "jobs in seq order: %s", s);
	sqlite3_close(db);
	DONE();
}
