// SPDX-License-Identifier: MIT
/*
 * Description: API keys are stored as a salted PBKDF2 hash (never the key),
 * verify only with the exact key text, carry their role, and the verified
 * key cache answers the same as the database (including after revocation
 * expiry of the cache entry).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/http/auth.h"
#include "daemon/lab/apikeys.h"
#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "unit/check.h"

int main(void)
{
	char k1[APIKEY_LEN + 1], k2[APIKEY_LEN + 1], k3[APIKEY_LEN + 1];
	char bad[APIKEY_LEN + 1], err[256];
	static struct auth_cache cache;
	struct http_auth a;
	struct apikey k;
	struct lab_err e;
	sqlite3 *db;
	int64_t id1, id2;
	sqlite3_stmt *st;

	db = db_open(":memory:", err, sizeof(err));
	if (!db || db_migrate(db, err, sizeof(err)) < 0) {
		fprintf(stderr, "setup: %s\n", err);
		return 1;
	}
	id1 = apikeys_create(db, "alice", "submit", k1, sizeof(k1), &e);
	id2 = apikeys_create(db, "runner-1", "runner", k2, sizeof(k2), &e);
	CHECK(id1 > 0 && id2 > 0 && id1 != id2, "create: %s", e.msg);
	CHECK(strlen(k1) == APIKEY_LEN && !strncmp(k1, "plk_", 4), "key format %s", k1);
	CHECK(strcmp(k1, k2), "two keys are equal");
	CHECK(apikeys_create(db, "alice", "admin", k3, sizeof(k3), &e) < 0 &&
	      e.st == LAB_CONFLICT, "duplicate name accepted");
	CHECK(apikeys_create(db, "bob", "root", k3, sizeof(k3), &e) < 0 &&
	      e.st == LAB_INVALID, "unknown role accepted");

	/* Nothing stored contains the secret. */
	st = db_prepare(db, "SELECT count(*) FROM api_keys WHERE instr(hash, ?) OR"
			" instr(prefix, ?) OR length(hash) != 32 OR length(salt) != 16");
	sqlite3_bind_text(st, 1, k1 + 17, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, k1 + 17, -1, SQLITE_STATIC);
	CHECK(sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) == 0,
	      "secret stored in clear or wrong hash size");
	sqlite3_finalize(st);
	CHECK(db_int(db, 0, "SELECT count(DISTINCT salt) FROM api_keys", 0) == 2, "salts differ");

	CHECK(apikeys_verify(db, k1, &k) == 0 && k.role == ROLE_SUBMIT && k.key_id == id1 &&
	      !strcmp(k.name, "alice"), "verify alice");
	CHECK(apikeys_verify(db, k2, &k) == 0 && k.role == ROLE_RUNNER && k.host_id == 0,
	      "verify runner");
	/* One changed character in the secret, the prefix or the format. */
	strcpy(bad, k1);
	bad[APIKEY_LEN - 1] = bad[APIKEY_LEN - 1] == 'a' ? 'b' : 'a';
	CHECK(apikeys_verify(db, bad, &k) != 0, "tampered secret accepted");
	strcpy(bad, k1);
	bad[5] = bad[5] == 'a' ? 'b' : 'a';
	CHECK(apikeys_verify(db, bad, &k) != 0, "tampered prefix accepted");
	CHECK(apikeys_verify(db, "plk_short", &k) != 0, "short key accepted");
	CHECK(apikeys_verify(db, "", &k) != 0, "empty key accepted");
	/* Secret of one key with the prefix of another. */
	memcpy(bad, k2, 17);
	memcpy(bad + 17, k1 + 17, APIKEY_LEN - 17 + 1);
	CHECK(apikeys_verify(db, bad, &k) != 0, "mixed key accepted");

	/* Binding a runner key to a host happens once. */
	db_exec(db, "INSERT INTO hosts (name, backend, registered_at, last_seen) VALUES ('h', 'local', 0, 0)");
	CHECK(apikeys_bind_host(db, id2, 1) == 0, "bind");
	CHECK(apikeys_bind_host(db, id2, 1) != 0, "second bind accepted");
	CHECK(apikeys_verify(db, k2, &k) == 0 && k.host_id == 1, "bound host %lld",
	      (long long)k.host_id);

	/* Cache: same answers, invalid keys never cached. */
	auth_cache_init(&cache, 60);
	CHECK(auth_check(&cache, db, k1, &a) == 0 && a.key_id == id1, "cache miss path");
	CHECK(auth_check(&cache, db, k1, &a) == 0 && a.key_id == id1, "cache hit path");
	CHECK(auth_check(&cache, db, bad, &a) != 0, "cache accepted a bad key");
	db_exec(db, "UPDATE api_keys SET revoked_at = 1 WHERE name = 'alice'");
	auth_cache_forget(&cache, id1);
	CHECK(auth_check(&cache, db, k1, &a) != 0, "revoked key accepted after forget");
	auth_cache_destroy(&cache);
	sqlite3_close(db);
	if (fails)
		return 1;
	printf("ok\n");
	return 0;
}
