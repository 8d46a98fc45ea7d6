// SPDX-License-Identifier: MIT
/*
 * Description: the planner interleaves variants A B B A A B B A (and for
 * three, A B C C B A ...), every variant gets exactly one job per round,
 * each variant's position averages out over pairs of rounds, and
 * extending an experiment continues the pattern.
 */
#include <stdio.h>
#include <string.h>

#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "daemon/lab/planner.h"
#include "unit/check.h"

static void letters(int nv, int first, int rounds, char *out)
{
	int v[64], r[64], i;

	planner_order(nv, first, rounds, v, r);
	for (i = 0; i < nv * rounds; i++)
		out[i] = (char)('A' + v[i]);
	out[nv * rounds] = '\0';
}

int main(void)
{
	struct variant_spec vs[2] = { { .name = "A", .is_control = true }, { .name = "B" } };
	struct experiment_spec spec = {
		.title = "t", .base_id = 1, .bench_json = "{}", .runs = 3, .max_runs = 5,
		.variants = vs, .nvariants = 2,
	};
	int v[64], r[64], i, k, pos[3];
	struct lab_err le;
	char s[65], err[256];
	sqlite3 *db;
	sqlite3_stmt *st;
	int64_t exp;

	letters(2, 0, 4, s);
	CHECK(!strcmp(s, "ABBAABBA"), "two variants: %s", s);
	letters(3, 0, 3, s);
	CHECK(!strcmp(s, "ABCCBAABC"), "three variants: %s", s);
	letters(2, 3, 2, s);
	CHECK(!strcmp(s, "BAAB"), "continuation from round 3: %s", s);
	letters(1, 0, 3, s);
	CHECK(!strcmp(s, "AAA"), "one variant: %s", s);

	/* Each round holds each variant once; mean position equal over 2 rounds. */
	planner_order(3, 0, 4, v, r);
	memset(pos, 0, sizeof(pos));
	for (i = 0; i < 12; i++) {
		CHECK(r[i] == i / 3, "run index %d at %d", r[i], i);
		pos[v[i]] += i % 3;
	}
	for (k = 0; k < 3; k++)
		CHECK(pos[k] == 4, "variant %d position sum %d", k, pos[k]);

	/* Jobs in the database follow the same order; extend continues it. */
	db = db_open(":memory:", err, sizeof(err));
	if (!db || db_migrate(db, err, sizeof(err)) < 0)
		return 1;
	exp = planner_create(db, &spec, &le);
	CHECK(exp > 0, "create: %s", le.msg);
	CHECK(planner_extend(db, exp, 1) == 2, "extend by one round");
	CHECK(planner_extend(db, exp, 5) == 2, "extend capped by max_runs");
	CHECK(planner_extend(db, exp, 1) == 0, "nothing beyond max_runs");
	st = db_prepare(db, "SELECT v.name, j.run_index FROM jobs j JOIN variants v ON"
			" v.id = j.variant_id WHERE j.experiment_id = ? ORDER BY j.seq");
	sqlite3_bind_int64(st, 1, exp);
	i = 0;
	while (sqlite3_step(st) == SQLITE_ROW && i < 64) {
		s[i] = sqlite3_column_text(st, 0)[0];
		CHECK(sqlite3_column_int(st, 1) == i / 2, "run index of seq %d", i);
		i++;
	}
	s[i] = '\0';
	sqlite3_finalize(st);
	CHECK(!strcmp(s, "ABBAABBAAB"), "jobs in seq order: %s", s);
	sqlite3_close(db);
	if (fails)
		return 1;
	printf("ok\n");
	return 0;
}
