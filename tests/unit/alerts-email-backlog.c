// SPDX-License-Identifier: MIT
/*
 * Description: with no SMTP configured, email deliveries stay pending but
 * must not starve webhooks: behind 150 due email rows (more than one
 * delivery batch) a webhook delivery is still attempted (its receiver on
 * 127.0.0.1:1 refuses, so it is recorded as failed with a retry queued),
 * and the email rows are left pending, untouched.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "daemon/lab/alerts.h"
#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "unit/check.h"
#include "unit/analysis-fixture.h"

int main(void)
{
	char path[] = "/tmp/perflab-alerts-XXXXXX";
	sqlite3 *db = fixture_db(path);
	int tried;

	exec(db, "INSERT INTO alerts (id, kind, title, created_at, updated_at)"
		 " VALUES (1, 'change_point', 't', 0, 0)");
	exec(db, "INSERT INTO webhooks (id, url, secret, created_at)"
		 " VALUES (1, 'http://127.0.0.1:1/hook', 's', 0)");
	for (int i = 0; i < 150; i++)
		exec(db, "INSERT INTO deliveries (channel, alert_id, status,"
			 " next_retry_at, at) VALUES ('email', 1, 'pending', 0, 0)");
	exec(db, "INSERT INTO deliveries (id, webhook_id, channel, alert_id,"
		 " status, next_retry_at, at) VALUES (1000, 1, 'webhook', 1,"
		 " 'pending', 0, 0)");

	tried = alerts_deliver_due(db, NULL, 100);
	CHECK(tried == 1, "tried %d deliveries, expected the webhook only", tried);
	CHECK(db_int(db, -1, "SELECT status = 'failed' FROM deliveries"
		     " WHERE id = 1000", 0) == 1, "webhook not attempted");
	CHECK(db_int(db, -1, "SELECT count(*) FROM deliveries WHERE channel ="
		     " 'webhook' AND status = 'pending' AND attempt = 2", 0) == 1,
	      "no retry queued for the failed webhook");
	CHECK(db_int(db, -1, "SELECT count(*) FROM deliveries WHERE channel ="
		     " 'email' AND status = 'pending'", 0) == 150,
	      "email rows changed without SMTP");
	sqlite3_close(db);
	unlink(path);
	DONE();
}
