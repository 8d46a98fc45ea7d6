// SPDX-License-Identifier: MIT
/*
 * Calibration experiments; see calibration.h.
 */
#include <stdio.h>
#include <string.h>

#include "daemon/lab/calibration.h"
#include "daemon/store/db.h"
#include "daemon/store/sql.h"

static const int default_steps[] = { 0, 1, 2, 4, 8, 16, 64, 256 };

const char calibration_default_bench[] =
	"{\"runtime\":2,\"warmup\":1,\"ios\":100000,\"profile\":false,"
	"\"target\":\"nullb\"}";

void calibration_default_steps(struct calibration *c)
{
	c->nsteps = (int)(sizeof(default_steps) / sizeof(default_steps[0]));
	memcpy(c->steps, default_steps, sizeof(default_steps));
}

int64_t calibration_canary_patch(sqlite3 *db)
{
	return db_int(db, 0, "SELECT COALESCE(max(id), 0) FROM patches WHERE"
		      " subject LIKE '%perflab_canary%'", 0);
}

int calibration_host(sqlite3 *db, struct calibration *c)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT id, backend FROM hosts"
				      " WHERE name = ?");

	if (!st)
		return -1;
	c->host_id = 0;
	sqlite3_bind_text(st, 1, c->host, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		c->host_id = sqlite3_column_int64(st, 0);
		snprintf(c->host_backend, sizeof(c->host_backend), "%s",
			 (const char *)sqlite3_column_text(st, 1));
		if (!c->backend)
			c->backend = c->host_backend;
	}
	sqlite3_finalize(st);
	return c->host_id ? 0 : 1;
}

void calibration_variants(struct calibration *in)
{
	int n = !strcmp(in->kind, "aa") ? 2 : in->nsteps;

	for (int i = 0; i < n; i++) {
		struct variant_spec *v = &in->v[i];

		if (!strcmp(in->kind, "aa")) {
			snprintf(in->names[i], sizeof(in->names[i]), i ? "base-aa" : "base");
			in->cmdlines[i][0] = '\0';
			v->is_control = i == 0;
		} else {
			snprintf(in->names[i], sizeof(in->names[i]), "canary-%d", in->steps[i]);
			snprintf(in->cmdlines[i], sizeof(in->cmdlines[i]),
				 "perflab_canary=%d", in->steps[i]);
			v->is_control = in->steps[i] == 0;
		}
		v->name = in->names[i];
		v->cmdline = in->cmdlines[i];
		v->setup = "";
		v->patch_ids = in->patch_ids;
		v->npatches = in->npatches;
	}
	in->nsteps = n;
}

int64_t calibration_create(sqlite3 *db, struct calibration *c, int64_t key_id,
			   int *status, char *err, size_t errlen)
{
	struct experiment_spec spec;
	char title[160];
	int64_t exp;

	*status = 500;
	snprintf(title, sizeof(title), "Calibration %s on %s", c->kind,
		 c->host ? c->host : c->label);
	spec = (struct experiment_spec){
		.title = title, .kind = "calibration", .label = c->label,
		.backend = c->backend, .config = NULL, .base_id = 0,
		.bench_json = c->bench, .runs = c->runs, .max_runs = c->max_runs,
		.submitter_key_id = key_id, .variants = c->v,
		.nvariants = c->nsteps,
	};
	spec.base_id = db_int(db, 0, "SELECT id FROM bases WHERE name ="
			      " 'linux-6.1'", 0);
	if (spec.base_id <= 0) {
		*status = 422;
		snprintf(err, errlen, "unknown base 'linux-6.1'");
		return -1;
	}
	exp = planner_create(db, &spec, err, errlen);
	if (exp < 0)
		return -1;
	/* A calibration measures one host: pin it there. */
	if (c->host_id && db_int(db, -1, "UPDATE experiments SET host_id = ?"
				 " WHERE id = ? RETURNING 0", 2, c->host_id,
				 exp) != 0)
		return -1;
	return exp;
}
