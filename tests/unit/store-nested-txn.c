// SPDX-License-Identifier: MIT
/*
 * Description: transactions nest (store/db.h), which is what makes the
 * analysis store one transaction of functions that each begin and commit
 * their own: an inner db_begin is a SAVEPOINT; its commit keeps its rows
 * only until the outer transaction ends, its rollback undoes only its
 * own rows; the outer rollback (or db_rollback_all) undoes every level;
 * after the outer commit everything is stored. A connection whose
 * transaction SQLite ended by itself starts again at depth 0.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "unit/check.h"

static int64_t rows(sqlite3 *db)
{
	return db_int(db, -1, "SELECT count(*) FROM t", 0);
}

static int add(sqlite3 *db, int v)
{
	char sql[64];

	snprintf(sql, sizeof(sql), "INSERT INTO t VALUES (%d)", v);
	return db_exec(db, sql);
}

int main(void)
{
	char dir[] = "/tmp/perflab-nest-XXXXXX", path[64], err[256];
	sqlite3 *db, *other;

	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/db", dir);
	db = db_open(path, err, sizeof(err));
	other = db_open(path, err, sizeof(err));
	CHECK(db && other);
	CHECK(!db_exec(db, "CREATE TABLE t (v INTEGER)"));

	/* inner commit, outer rollback: nothing stays */
	CHECK(!db_begin(db) && !add(db, 1));
	CHECK(!db_begin(db) && !add(db, 2) && !db_commit(db), "inner commit");
	CHECK(rows(db) == 2, "both rows inside the transaction");
	CHECK(!sqlite3_get_autocommit(db), "the outer transaction is still open");
	CHECK(rows(other) == 0, "nothing visible before the outer commit");
	db_rollback(db);
	CHECK(sqlite3_get_autocommit(db) && rows(db) == 0, "the outer rollback undoes both");

	/* inner rollback undoes only its own rows */
	CHECK(!db_begin(db) && !add(db, 1));
	CHECK(!db_begin(db) && !add(db, 2) && !add(db, 3));
	db_rollback(db);
	CHECK(!sqlite3_get_autocommit(db), "the inner rollback leaves the outer open");
	CHECK(rows(db) == 1, "only the inner rows undone (%lld)", (long long)rows(db));
	CHECK(!db_begin(db) && !add(db, 4) && !db_commit(db));
	CHECK(!db_commit(db), "outer commit");
	CHECK(rows(other) == 2, "rows 1 and 4 stored (%lld)", (long long)rows(other));

	/* three levels, db_rollback_all from the innermost */
	CHECK(!db_begin(db) && !db_begin(db) && !db_begin(db) && !add(db, 9));
	db_rollback_all(db);
	CHECK(sqlite3_get_autocommit(db) && rows(db) == 2, "rollback_all undoes every level");

	/* SQLite ended the transaction itself: depth starts again at 0 */
	CHECK(!db_begin(db) && !db_begin(db));
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	CHECK(!db_begin(db) && !add(db, 5) && !db_commit(db), "a fresh outer transaction");
	CHECK(sqlite3_get_autocommit(db) && rows(other) == 3, "and it committed");

	sqlite3_close(other);
	sqlite3_close(db);
	unlink(path);
	snprintf(path, sizeof(path), "%s/db-wal", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/db-shm", dir);
	unlink(path);
	rmdir(dir);
	DONE();
}
