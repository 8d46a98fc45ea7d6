// SPDX-License-Identifier: MIT
/*
 * Description: migration 10 (alerts of kind 'bisection') on a database
 * that already holds alerts: the alert, its history and deliveries keep
 * their ids and values, every foreign key still resolves
 * (foreign_key_check is empty, children reference "alerts"), the indexes
 * are back, and a 'bisection' alert with a report can be stored while an
 * unknown kind is still refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "daemon/store/migrations.h"
#include "unit/check.h"

int main(void)
{
	char dir[] = "/tmp/perflab-unit.XXXXXX", path[256], err[512];
	struct migration old[32];
	size_t n = 0;
	sqlite3 *db;

	if (!mkdtemp(dir))
		return 77;
	snprintf(path, sizeof(path), "%s/t.db", dir);
	for (size_t k = 0; k < perflab_migrations_count && n < 32; k++)
		if (perflab_migrations[k].version < 10)
			old[n++] = perflab_migrations[k];
	db = db_open(path, err, sizeof(err));
	CHECK(db, "open: %s", err);
	if (!db)
		return 1;
	CHECK(db_migrate_with(db, old, n, err, sizeof(err)) > 0, "%s", err);
	CHECK(!db_exec(db,
		"INSERT INTO webhooks (id, url, secret, created_at) VALUES (3, 'http://x', 's', 1);"
		"INSERT INTO alerts (id, kind, title, metric, delta_pct, created_at, updated_at)"
		" VALUES (7, 'change_point', 'cp', 'iops', -3.5, 10, 11);"
		"INSERT INTO alert_history (id, alert_id, state, who, at) VALUES (5, 7, 'new', 'perflabd', 10);"
		"INSERT INTO deliveries (id, webhook_id, channel, alert_id, status, at)"
		" VALUES (9, 3, 'webhook', 7, 'ok', 12);"));
	CHECK(db_exec(db, "INSERT INTO alerts (kind, title, created_at, updated_at)"
		      " VALUES ('bisection', 't', 1, 1)"), "old schema refuses it");

	CHECK(db_migrate(db, err, sizeof(err)) == db_schema_version(), "%s", err);
	CHECK(db_int(db, 0, "SELECT count(*) FROM alerts WHERE id = 7 AND kind ="
		     " 'change_point' AND delta_pct = -3.5 AND updated_at = 11", 0) == 1);
	CHECK(db_int(db, 0, "SELECT alert_id FROM alert_history WHERE id = 5", 0) == 7);
	CHECK(db_int(db, 0, "SELECT webhook_id FROM deliveries WHERE id = 9 AND alert_id = 7", 0) == 3);
	CHECK(db_int(db, -1, "SELECT count(*) FROM pragma_foreign_key_check", 0) == 0);
	CHECK(db_int(db, 0, "SELECT count(*) FROM sqlite_master WHERE type = 'table'"
		     " AND sql LIKE '%alerts_new%'", 0) == 0, "no reference to alerts_new left");
	CHECK(db_int(db, 0, "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name IN"
		     " ('alerts_state', 'alert_history_alert', 'deliveries_alert', 'alerts_bisection')", 0) == 4);
	CHECK(!db_exec(db, "INSERT INTO alerts (kind, title, bisection_id, report, created_at,"
		       " updated_at) VALUES ('bisection', 't', 4, '{}', 1, 1)"));
	CHECK(db_exec(db, "INSERT INTO alerts (kind, title, created_at, updated_at)"
		      " VALUES ('other', 't', 1, 1)"), "unknown kind refused");
	CHECK(db_exec(db, "INSERT INTO deliveries (channel, alert_id, status, at)"
		      " VALUES ('email', 999, 'pending', 1)"), "foreign key still enforced");
	sqlite3_close(db);
	unlink(path);
	snprintf(path, sizeof(path), "%s/t.db-wal", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/t.db-shm", dir);
	unlink(path);
	rmdir(dir);
	DONE();
}
