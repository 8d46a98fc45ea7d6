// SPDX-License-Identifier: MIT
/*
 * Hosts: registration and the fleet list; see hosts.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "daemon/lab/apikeys.h"
#include "daemon/lab/hosts.h"
#include "daemon/lab/validate.h"
#include "daemon/store/db.h"
#include "daemon/store/json.h"
#include "daemon/store/sql.h"
#include "daemon/store/writer.h"

static int check_facts(const json_t *f, struct lab_err *e)
{
	static const struct { const char *k; char t; } known[] = {
		{ "cpu_model", 's' }, { "cpus", 'i' }, { "mem_bytes", 'i' },
		{ "kernel", 's' }, { "nvme_model", 's' }, { "nvme_firmware", 's' },
		{ "poll_ok", 'b' },
	};
	char *s;
	size_t i, n;

	if (!f)
		return 0;
	if (!json_is_object(f))
		return lab_fail(e, LAB_INVALID, "'facts' must be an object");
	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		json_t *v = json_object_get(f, known[i].k);

		if (!v || json_is_null(v))
			continue;
		if ((known[i].t == 's' && (!json_is_string(v) || json_string_length(v) > 256)) ||
		    (known[i].t == 'i' && (!json_is_integer(v) || json_integer_value(v) < 0)) ||
		    (known[i].t == 'b' && !json_is_boolean(v) && !json_is_integer(v)))
			return lab_fail(e, LAB_INVALID, "facts.%s must be a%s",
					known[i].k, known[i].t == 's' ?
					" string of at most 256 bytes" :
					known[i].t == 'i' ? " non-negative integer" :
					" boolean");
	}
	s = json_dumps(f, JSON_COMPACT);
	n = s ? strlen(s) : 0;
	free(s);
	if (n > 16384)
		return lab_fail(e, LAB_INVALID, "'facts' is larger than 16 KiB");
	return 0;
}

static int check_labels(const json_t *l, struct lab_err *e)
{
	json_t *v;
	size_t i;

	if (!l)
		return 0;
	if (!json_is_array(l) || json_array_size(l) > 32)
		return lab_fail(e, LAB_INVALID, "'labels' must be an array of at"
				" most 32 names");
	json_array_foreach(l, i, v)
		if (!json_is_string(v) || !lab_valid_name(json_string_value(v)))
			return lab_fail(e, LAB_INVALID, "labels must be names of"
					" [A-Za-z0-9._+-]");
	return 0;
}

static void bind_fact(sqlite3_stmt *st, int i, const json_t *f, const char *k)
{
	json_t *v = json_object_get(f, k);

	if (json_is_string(v))
		sqlite3_bind_text(st, i, json_string_value(v), -1, SQLITE_TRANSIENT);
	else if (json_is_integer(v))
		sqlite3_bind_int64(st, i, json_integer_value(v));
	else if (json_is_boolean(v))
		sqlite3_bind_int(st, i, json_is_true(v));
	else
		sqlite3_bind_null(st, i);
}

static int64_t upsert_host(sqlite3 *db, const char *name, const char *backend,
			   const json_t *labels, const json_t *facts)
{
	sqlite3_stmt *st;
	char *ls = labels ? json_dumps(labels, JSON_COMPACT) : strdup("[]");
	char *fs = facts ? json_dumps(facts, JSON_COMPACT) : strdup("{}");
	int64_t id = -1, now = (int64_t)time(NULL);
	json_t *v;
	size_t i;

	st = db_prepare(db, "INSERT INTO hosts (name, backend, labels, facts, cpu_model,"
			" cpus, mem_bytes, kernel, nvme_model, nvme_firmware, poll_ok,"
			" registered_at, last_seen) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?12)"
			" ON CONFLICT(name) DO UPDATE SET backend = ?2, labels = ?3, facts = ?4,"
			" cpu_model = ?5, cpus = ?6, mem_bytes = ?7, kernel = ?8, nvme_model = ?9,"
			" nvme_firmware = ?10, poll_ok = ?11, last_seen = ?12 RETURNING id");
	if (!st || !ls || !fs)
		goto out;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, backend, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, ls, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, fs, -1, SQLITE_STATIC);
	bind_fact(st, 5, facts, "cpu_model");
	bind_fact(st, 6, facts, "cpus");
	bind_fact(st, 7, facts, "mem_bytes");
	bind_fact(st, 8, facts, "kernel");
	bind_fact(st, 9, facts, "nvme_model");
	bind_fact(st, 10, facts, "nvme_firmware");
	bind_fact(st, 11, facts, "poll_ok");
	sqlite3_bind_int64(st, 12, now);
	if (sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	st = NULL;
	if (id < 0 || db_int(db, -1, "DELETE FROM host_labels WHERE host_id = ? RETURNING 0",
			     1, (int64_t)id) < -1)
		goto out;
	st = db_prepare(db, "INSERT OR IGNORE INTO host_labels (host_id, label) VALUES (?,?)");
	if (!st) {
		id = -1;
		goto out;
	}
	json_array_foreach(labels, i, v) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_text(st, 2, json_string_value(v), -1, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE) {
			id = -1;
			break;
		}
	}
out:
	sqlite3_finalize(st);
	free(ls);
	free(fs);
	return id;
}

/*
 * A runner key registers one host name: its own. A name that another
 * active key registered is not taken over (LAB_CONFLICT): a new key would
 * get that host's pinned experiments and its place in the fleet. To move
 * a host to a new key, revoke the old one first.
 */
static int check_owner(sqlite3 *w, const struct host_caller *who,
		       const char *name, struct lab_err *e)
{
	sqlite3_stmt *st = db_prepare(w, "SELECT k.id, k.name FROM api_keys k"
				      " JOIN hosts h ON h.id = k.host_id WHERE"
				      " h.name = ? AND (k.revoked_at IS NULL OR"
				      " k.id = ?2) ORDER BY k.id = ?2 DESC");
	char owner_name[64] = "";
	int64_t owner = 0;

	if (!st)
		return lab_fail_db(e, w);
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, who->key_id);
	if (sqlite3_step(st) == SQLITE_ROW) {
		owner = sqlite3_column_int64(st, 0);
		snprintf(owner_name, sizeof(owner_name), "%s",
			 (const char *)sqlite3_column_text(st, 1));
	}
	sqlite3_finalize(st);
	if (who->host_id > 0 && owner != who->key_id)
		return lab_fail(e, LAB_FORBIDDEN, "this runner key is bound to"
				" another host");
	if (owner && owner != who->key_id)
		return lab_fail(e, LAB_CONFLICT, "host name '%s' is registered by"
				" runner key '%s'; revoke that key to move the"
				" host to a new one", name, owner_name);
	return 0;
}

static int64_t register_on(sqlite3 *w, const struct host_caller *who,
			   const struct host_reg *r, bool *bound,
			   struct lab_err *e)
{
	int64_t id;

	if (who->runner && check_owner(w, who, r->name, e))
		return -1;
	id = upsert_host(w, r->name, r->backend, r->labels, r->facts);
	if (id < 0)
		return lab_fail_db(e, w);
	*bound = who->runner && who->host_id == 0;
	if (*bound && apikeys_bind_host(w, who->key_id, id))
		return lab_fail(e, LAB_FORBIDDEN, "this runner key is bound to"
				" another host");
	return db_commit(w) ? lab_fail_db(e, w) : id;
}

int64_t hosts_register(sqlite3 *db, const struct host_caller *who,
		       const struct host_reg *r, bool *bound,
		       struct lab_err *e)
{
	int64_t id = -1;
	sqlite3 *w;

	*bound = false;
	if (check_labels(r->labels, e) || check_facts(r->facts, e))
		return -1;
	if (!r->name || !lab_valid_name(r->name))
		return lab_fail(e, LAB_INVALID, "'name' is required: 1-64"
				" characters of [A-Za-z0-9._+-]");
	/* Any name: the runner knows its backends, experiments may then
	 * name it (trust_backend_check). */
	if (!r->backend || !lab_valid_name(r->backend) || strlen(r->backend) > 32)
		return lab_fail(e, LAB_INVALID, "'backend' is required: 1-32"
				" characters of [A-Za-z0-9._+-]");
	w = db_write_lock(db);
	if (db_begin(w))
		lab_fail(e, LAB_UNAVAILABLE, "database busy");
	else
		id = register_on(w, who, r, bound, e);
	db_write_unlock(db, w);
	if (id < 0)
		*bound = false;
	return id;
}

int64_t hosts_find(sqlite3 *db, const char *name)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT id FROM hosts WHERE name = ?");
	int64_t id = 0;

	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return id;
}

json_t *hosts_list_json(sqlite3 *db, time_t offline_before)
{
	sqlite3_stmt *st;
	json_t *a, *h;
	size_t i;

	st = db_prepare(db,
		"SELECT h.id, h.name, h.backend, h.labels AS labels_json, h.facts AS facts_json,"
		" CASE WHEN h.last_seen < ?1 THEN 'offline' WHEN h.current_job_id IS NOT NULL"
		" THEN 'busy' ELSE 'idle' END AS state, h.last_seen, h.registered_at,"
		" j.id AS \"current_job.id\", j.experiment_id AS \"current_job.experiment_id\","
		" v.name AS \"current_job.variant\", j.run_index AS \"current_job.run_index\","
		" j.phase AS \"current_job.phase\", j.lease_expires AS \"current_job.lease_expires\","
		" (SELECT json_group_array(json_object('backend', c.backend, 'bench', c.bench_key,"
		"  'metric', c.metric, 'runs', c.runs, 'noise_pct', c.noise_pct, 'mde_pct', c.mde_pct,"
		"  'computed_at', c.computed_at, 'experiment_id', c.experiment_id))"
		"  FROM host_calibration c WHERE c.host_id = h.id"
		"  AND c.id IN (SELECT max(id) FROM host_calibration WHERE host_id = h.id"
		"  GROUP BY backend, bench_key, metric)) AS calibration_json,"
		" (SELECT json_object('experiment_id', l.experiment_id, 'metric', l.metric,"
		"  'slope_pct', l.slope_pct, 'r2', l.r2, 'mde_units', l.mde_units,"
		"  'computed_at', l.computed_at) FROM ladder_fits l WHERE l.host_id = h.id"
		"  ORDER BY l.id DESC LIMIT 1) AS ladder_json"
		" FROM hosts h LEFT JOIN jobs j ON j.id = h.current_job_id"
		" LEFT JOIN variants v ON v.id = j.variant_id ORDER BY h.name");
	if (!st)
		return NULL;
	sqlite3_bind_int64(st, 1, (int64_t)offline_before);
	a = json_rows(st);
	sqlite3_finalize(st);
	json_array_foreach(a, i, h)
		if (json_is_null(json_object_get(json_object_get(h, "current_job"), "id")))
			json_object_set_new(h, "current_job", json_null());
	return a;
}
