// SPDX-License-Identifier: MIT
/*
 * The lab's gauges; see gauges.h.
 */
#include "daemon/lab/gauges.h"
#include "daemon/store/sql.h"

static const char *const job_states[] = { "queued", "claimed", "running",
	"done", "failed", "cancelled", NULL };
static const char *const exp_states[] = { "queued", "running", "done",
	"failed", "cancelled", NULL };
static const char *const host_states[] = { "idle", "busy", "offline", NULL };

/* {value: count} of a GROUP BY query, every one of @all present. */
static json_t *by_state(sqlite3 *db, const char *sql, int64_t arg,
			const char *const *all)
{
	sqlite3_stmt *st = db_prepare(db, sql);
	json_t *o = json_object();

	for (int i = 0; o && all[i]; i++)
		json_object_set_new(o, all[i], json_integer(0));
	if (!st)
		return o;
	if (arg)
		sqlite3_bind_int64(st, 1, arg);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *v = (const char *)sqlite3_column_text(st, 0);

		json_object_set_new(o, v ? v : "", json_integer(
				    sqlite3_column_int64(st, 1)));
	}
	sqlite3_finalize(st);
	return o;
}

json_t *gauges_json(sqlite3 *db, time_t offline_before)
{
	return json_pack("{s:I,s:I,s:o,s:o,s:o}",
		"queue_depth", (json_int_t)db_int(db, 0, "SELECT count(*) FROM"
			" jobs WHERE state = 'queued'", 0),
		"analysis_pending", (json_int_t)db_int(db, 0, "SELECT count(*)"
			" FROM experiments WHERE analysis_pending != 0", 0),
		/* Kept by triggers (schema 14): counting read every row. */
		"jobs", by_state(db, "SELECT state, n FROM state_counts WHERE"
			" tbl = 'jobs'", 0, job_states),
		"experiments", by_state(db, "SELECT state, n FROM state_counts"
			" WHERE tbl = 'experiments'", 0, exp_states),
		"hosts", by_state(db, "SELECT CASE WHEN last_seen < ?1 THEN"
			" 'offline' WHEN current_job_id IS NOT NULL THEN 'busy'"
			" ELSE 'idle' END AS s, count(*) FROM hosts GROUP BY s",
			(int64_t)offline_before, host_states));
}
