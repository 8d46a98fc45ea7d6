// SPDX-License-Identifier: MIT
/*
 * Description: the single write discipline is enforced, not just
 * documented: a pool connection is query_only, so SQLite refuses an
 * INSERT on it (SQLITE_READONLY) and db_begin() on it aborts once a
 * writer is registered; the writer's connection writes; db_write_lock
 * from a pool connection hands out the writer, from the writer itself
 * it does not take the lock again; without a registered writer (tools,
 * unit tests) a connection is its own writer.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "daemon/store/writer.h"
#include "unit/check.h"

/* db_begin on @db in a child: did it die of the assertion? */
static int begin_aborts(sqlite3 *db)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		/* no core file, no assertion text in the test log */
		freopen("/dev/null", "w", stderr);
		db_begin(db);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 0;
	return WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
}

int main(void)
{
	char dir[] = "/tmp/perflab-writer-XXXXXX", path[64], err[256];
	struct db_pool pool;
	struct db_writer w;
	sqlite3 *db, *p1, *p2, *got;

	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/db", dir);
	db = db_open(path, err, sizeof(err));
	if (!db || db_migrate(db, err, sizeof(err)) < 0)
		return 1;
	CHECK(db_is_writer(db), "no writer registered: any connection writes");
	sqlite3_close(db);

	CHECK(!db_pool_init(&pool, path));
	p1 = db_pool_get(&pool);
	p2 = db_pool_get(&pool);
	CHECK(p1 && p2 && p1 != p2);
	CHECK(sqlite3_exec(p1, "INSERT INTO webhooks (url, secret, created_at)"
			   " VALUES ('http://x', 'secret12', 0)", NULL, NULL,
			   NULL) == SQLITE_READONLY,
	      "a pool connection wrote: %s", sqlite3_errmsg(p1));

	db_writer_init(&w, p2);
	CHECK(!db_is_writer(p1) && db_is_writer(p2));
	CHECK(sqlite3_exec(p2, "INSERT INTO webhooks (url, secret, created_at)"
			   " VALUES ('http://x', 'secret12', 0)", NULL, NULL,
			   NULL) == SQLITE_OK, "the writer: %s", sqlite3_errmsg(p2));
	CHECK(db_int(p1, 0, "SELECT count(*) FROM webhooks", 0) == 1,
	      "readers see the writer's commit");
	CHECK(begin_aborts(p1), "db_begin on a pool connection went through");

	got = db_write_lock(p1);
	CHECK(got == p2, "db_write_lock from the pool: the writer");
	/* Held: from the writer's own connection no second lock (no hang). */
	CHECK(db_write_lock(got) == got);
	db_write_unlock(got, got);
	CHECK(!db_begin(got) && !db_commit(got));
	db_write_unlock(p1, got);

	db_writer_destroy(&w);
	CHECK(db_is_writer(p1), "writer gone: unregistered");
	db_pool_put(&pool, p1);
	db_pool_destroy(&pool);
	snprintf(err, sizeof(err), "rm -rf -- '%s'", dir);
	if (system(err))
		fprintf(stderr, "cannot remove %s\n", dir);
	DONE();
}
