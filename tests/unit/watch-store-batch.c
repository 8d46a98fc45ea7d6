// SPDX-License-Identifier: MIT
/*
 * Description: thousands of list messages at once (watch_store.c, on a
 * real SQLite database with the migrations): 3000 messages making 1000
 * series of a cover and 2 patches are stored in one poll, every series
 * complete except the one whose patch 2 is base64, which is refused
 * whole with the patch named; storing the same batch again adds nothing;
 * a batch that fails part way (a trigger aborts its 1500th insert)
 * leaves nothing of itself behind: no message, no series.
 */
#include <stdio.h>
#include <string.h>

#include "daemon/lab/watch_poll.h"
#include "daemon/lab/watch_store.h"
#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "unit/check.h"

#define NSERIES 1000

/* An mboxrd of @n series (cover + 2 patches each), ids "<P<i>-<m>@x>". */
static char *make_mbox(const char *p, int n, size_t *len)
{
	size_t cap = (size_t)n * 3 * 400, o = 0;
	char *b = malloc(cap);

	for (int i = 0; i < n; i++)
		for (int m = 0; m <= 2; m++) {
			o += (size_t)snprintf(b + o, cap - o,
				"From mboxrd@z Thu Jan  1 00:00:00 1970\n"
				"From: A <a@x.org>\nSubject: [PATCH %d/2] s%d\n"
				"Message-Id: <%s%d-%d@x>\n", m, i, p, i, m);
			if (m)
				o += (size_t)snprintf(b + o, cap - o, "In-Reply-To:"
					" <%s%d-0@x>\nReferences: <%s%d-0@x>\n", p, i, p, i);
			if (m == 2 && i == 7)
				o += (size_t)snprintf(b + o, cap - o,
					"Content-Transfer-Encoding: base64\n");
			o += (size_t)snprintf(b + o, cap - o, "\n%s\n\n", m ?
				"diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b" :
				"cover");
		}
	*len = o;
	return b;
}

static int64_t count(sqlite3 *db, const char *sql)
{
	return db_int(db, -1, sql, 0);
}

int main(void)
{
	struct watch_row row = { .id = 1, .complete_timeout = 3600 };
	struct watch_store_stats st;
	struct watch_batch b, c;
	char err[256], *buf, *reason = NULL;
	size_t len, rl;
	sqlite3 *db;

	db = db_open(":memory:", err, sizeof(err));
	if (!db || db_migrate(db, err, sizeof(err)) < 0)
		return 1;
	CHECK(!db_exec(db, "INSERT INTO api_keys (id, name, role, prefix, salt, hash,"
		       " iterations, created_at) VALUES (1, 'k', 'submit', 'p', x'00',"
		       " x'00', 1, 0); INSERT INTO watches (id, name, inbox, query, base_id,"
		       " key_id, runs, poll_seconds, window_seconds, complete_timeout,"
		       " created_at) VALUES (1, 'w', '/x', 'q', 1, 1, 1, 60, 60, 3600, 0)"));
	buf = make_mbox("s", NSERIES, &len);
	CHECK(!watch_batch_split(buf, len, &b) && b.n == 3 * NSERIES, "%d", b.n);
	CHECK(!watch_store_batch(db, &row, &b, NULL, 1000, &st));
	CHECK(st.read == 3000 && st.added == 3000 && st.refused == 1 &&
	      st.complete == NSERIES - 1, "%d %d %d %d", st.read, st.added,
	      st.refused, st.complete);
	CHECK(count(db, "SELECT count(*) FROM watch_messages") == 3000);
	CHECK(count(db, "SELECT count(*) FROM watch_series") == NSERIES);
	CHECK(count(db, "SELECT count(*) FROM watch_series WHERE state = 'complete'") ==
	      NSERIES - 1);
	CHECK(db_text(db, "SELECT reason FROM watch_series WHERE state = 'refused'"
		      " AND series_key = '<s7-0@x>#v1' AND ?1 = ?1", 0, &reason, &rl) == 1 &&
	      !strcmp(reason, "patch 2/2 <s7-2@x> refused: a base64-encoded body: a"
		      " patch must be plain text"), "%s", reason);
	free(reason);
	/* The same batch again: nothing new. */
	CHECK(!watch_store_batch(db, &row, &b, NULL, 1001, &st) && st.added == 0);
	CHECK(count(db, "SELECT count(*) FROM watch_messages") == 3000);
	/* A batch that fails part way stores nothing of itself. */
	CHECK(!db_exec(db, "CREATE TEMP TRIGGER boom BEFORE INSERT ON watch_messages"
		       " WHEN NEW.message_id = '<t500-0@x>' BEGIN SELECT RAISE(ABORT,"
		       " 'injected'); END"));
	c.buf = make_mbox("t", NSERIES, &len);
	CHECK(!watch_batch_split(c.buf, len, &c));
	CHECK(watch_store_batch(db, &row, &c, NULL, 1002, &st) == -1, "the abort fails it");
	CHECK(count(db, "SELECT count(*) FROM watch_messages") == 3000, "no message of it");
	CHECK(count(db, "SELECT count(*) FROM watch_series") == NSERIES, "no series of it");
	watch_batch_free(&c);
	b.buf = buf;
	watch_batch_free(&b);
	sqlite3_close(db);
	DONE();
}
