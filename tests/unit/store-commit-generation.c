// SPDX-License-Identifier: MIT
/*
 * Description: every write through the daemon's writer moves the pool's
 * generation, which keys the response cache (http/cache.h), before the
 * writer is released: also a write with RETURNING in autocommit, which
 * SQLite commits when its statement is finalized but whose WAL hook it
 * defers to the next statement that runs to its end. Checked with the
 * lab's own writes: allowlist_delete (db_int "DELETE ... RETURNING 0"),
 * series_get_or_create (an upsert RETURNING id stepped once) and a
 * cached page that must not be served after either; db_int runs a write
 * once (a step after SQLITE_DONE would run it again).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/http/cache.h"
#include "daemon/lab/allowlist.h"
#include "daemon/lab/apikeys.h"
#include "daemon/lab/series.h"
#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "daemon/store/writer.h"
#include "unit/check.h"

int main(void)
{
	char dir[] = "/tmp/perflab-gen-XXXXXX", path[64], err[256], key[128];
	struct db_writer writer;
	struct resp_cache cache;
	struct db_pool pool;
	struct lab_err e;
	sqlite3 *w, *r;
	uint64_t g0, g1;
	size_t len;
	char *body;
	int64_t id, admin;

	db_global_init();
	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/db", dir);
	if (db_check_file(path, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	CHECK(!db_pool_init(&pool, path));
	w = db_pool_get(&pool);
	r = db_pool_get(&pool);
	CHECK(w && r, "pool connections");
	db_writer_init(&writer, w);
	cache_init(&cache);

	w = db_writer_lock(&writer);
	admin = apikeys_create(w, "alice", "admin", key, sizeof(key), &e);
	db_writer_unlock(&writer);
	CHECK(admin > 0, "key: %s", e.msg);

	/* A plain INSERT: counted when its step returns SQLITE_DONE. */
	g0 = db_pool_generation(&pool);
	id = allowlist_add(r, ALLOWLIST_CMDLINE, "nvme.*", "", admin, &e);
	CHECK(id > 0, "allowlist_add: %s", e.msg);
	CHECK(db_pool_generation(&pool) > g0, "an INSERT moved the generation");

	/* A page cached now, then a DELETE ... RETURNING through db_int. */
	g0 = db_pool_generation(&pool);
	cache_put(&cache, CACHE_USER, 1, g0, "[\"nvme.*\"]", 10);
	CHECK(!allowlist_delete(r, ALLOWLIST_CMDLINE, id, &e), "delete: %s", e.msg);
	CHECK(db_int(r, -1, "SELECT count(*) FROM cmdline_allowlist WHERE id = ?",
		     1, id) == 0,
	      "the delete is committed and visible");
	g1 = db_pool_generation(&pool);
	CHECK(g1 > g0, "db_int(DELETE ... RETURNING) left the generation at %llu",
	      (unsigned long long)g1);
	body = cache_get(&cache, CACHE_USER, 1, g1, &len);
	CHECK(!body, "the page cached before the delete is still served");
	free(body);

	/* A RETURNING statement stepped once and finalized by lab code
	 * (not db_int): counted when the writer is released. */
	g0 = db_pool_generation(&pool);
	w = db_writer_lock(&writer);
	id = series_get_or_create(w, "scale2-gen", "iops", 0, 0);
	db_writer_unlock(&writer);
	CHECK(id > 0, "series_get_or_create");
	CHECK(db_int(r, -1, "SELECT count(*) FROM series WHERE name = 'scale2-gen'",
		     0) == 1, "the series is committed and visible");
	CHECK(db_pool_generation(&pool) > g0,
	      "an upsert RETURNING stepped once left the generation unmoved"
	      " after the writer was released");

	/* A write without RETURNING through db_int runs once. */
	w = db_writer_lock(&writer);
	CHECK(!db_exec(w, "CREATE TABLE once (v INTEGER)"));
	CHECK(db_int(w, -7, "INSERT INTO once VALUES (1)", 0) == -7);
	CHECK(db_int(w, -1, "INSERT INTO once VALUES (2) RETURNING v", 0) == 2);
	CHECK(db_int(w, -1, "SELECT count(*) FROM once", 0) == 2,
	      "db_int ran an INSERT twice (%lld rows)",
	      (long long)db_int(w, -1, "SELECT count(*) FROM once", 0));
	db_writer_unlock(&writer);

	/* Reads move nothing. */
	g0 = db_pool_generation(&pool);
	CHECK(db_int(r, -1, "SELECT count(*) FROM series", 0) >= 1);
	w = db_writer_lock(&writer);
	db_writer_unlock(&writer);
	CHECK(db_pool_generation(&pool) == g0, "a read or an empty hold counted");

	cache_destroy(&cache);
	db_pool_put(&pool, r);
	db_writer_destroy(&writer);
	db_pool_destroy(&pool);
	snprintf(err, sizeof(err), "rm -rf %s", dir);
	if (system(err))
		return 1;
	return fails ? 1 : 0;
}
