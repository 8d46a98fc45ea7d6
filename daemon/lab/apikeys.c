// SPDX-License-Identifier: MIT
/*
 * API key creation, verification, binding and revocation; see apikeys.h.
 */
#include <stdio.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include "daemon/lab/apikeys.h"
#include "daemon/store/sql.h"

#define PREFIX_HEX 12
#define SECRET_HEX 64
#define SALT_LEN 16
#define HASH_LEN 32

int apikeys_role_parse(const char *s)
{
	if (!s)
		return ROLE_NONE;
	if (!strcmp(s, "submit"))
		return ROLE_SUBMIT;
	if (!strcmp(s, "admin"))
		return ROLE_ADMIN;
	if (!strcmp(s, "runner"))
		return ROLE_RUNNER;
	return ROLE_NONE;
}

const char *apikeys_role_name(int role)
{
	switch (role) {
	case ROLE_SUBMIT: return "submit";
	case ROLE_ADMIN: return "admin";
	case ROLE_RUNNER: return "runner";
	}
	return "none";
}

static void hex(char *out, const unsigned char *in, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < n; i++) {
		out[2 * i] = digits[in[i] >> 4];
		out[2 * i + 1] = digits[in[i] & 15];
	}
	out[2 * n] = '\0';
}

static int kdf(const char *key, const unsigned char *salt, int iter,
	       unsigned char *out)
{
	return PKCS5_PBKDF2_HMAC(key, (int)strlen(key), salt, SALT_LEN, iter,
				 EVP_sha256(), HASH_LEN, out) == 1 ? 0 : -1;
}

/* Split "plk_<prefix>_<secret>"; copies the prefix. */
static int key_prefix(const char *key, char *prefix)
{
	size_t i;

	if (strlen(key) != APIKEY_LEN || strncmp(key, "plk_", 4) ||
	    key[4 + PREFIX_HEX] != '_')
		return -1;
	for (i = 4; i < APIKEY_LEN; i++) {
		char c = key[i];

		if (i == 4 + PREFIX_HEX)
			continue;
		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
			return -1;
	}
	memcpy(prefix, key + 4, PREFIX_HEX);
	prefix[PREFIX_HEX] = '\0';
	return 0;
}

static int valid_name(const char *name)
{
	size_t n = strlen(name), i;

	if (n == 0 || n > 63)
		return 0;
	for (i = 0; i < n; i++) {
		char c = name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '-' || c == '_' ||
		      c == '.' || c == '@'))
			return 0;
	}
	return 1;
}

int64_t apikeys_create(sqlite3 *db, const char *name, const char *role,
		       char *key, size_t keylen, struct lab_err *e)
{
	unsigned char rnd[PREFIX_HEX / 2 + SECRET_HEX / 2], salt[SALT_LEN];
	unsigned char hash[HASH_LEN];
	char prefix[PREFIX_HEX + 1], secret[SECRET_HEX + 1];
	sqlite3_stmt *st = NULL;
	int64_t id = -1;

	if (apikeys_role_parse(role) == ROLE_NONE)
		return lab_fail(e, LAB_INVALID, "unknown role '%s' (submit, admin"
				" or runner)", role);
	if (!valid_name(name))
		return lab_fail(e, LAB_INVALID, "key name must be 1-63 characters"
				" of [A-Za-z0-9._@-]");
	if (keylen < APIKEY_LEN + 1 || RAND_bytes(rnd, sizeof(rnd)) != 1 ||
	    RAND_bytes(salt, sizeof(salt)) != 1)
		return lab_fail(e, LAB_INTERNAL, "cannot generate random key");
	hex(prefix, rnd, PREFIX_HEX / 2);
	hex(secret, rnd + PREFIX_HEX / 2, SECRET_HEX / 2);
	snprintf(key, keylen, "plk_%s_%s", prefix, secret);
	if (kdf(key, salt, APIKEY_PBKDF2_ITERATIONS, hash))
		return lab_fail(e, LAB_INTERNAL, "key derivation failed");
	st = db_prepare(db, "INSERT INTO api_keys (name, role, prefix, salt, hash,"
			" iterations, created_at) VALUES (?,?,?,?,?,?,strftime('%s','now'))");
	if (!st) {
		lab_fail_db(e, db);
		goto out;
	}
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, role, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, prefix, -1, SQLITE_STATIC);
	sqlite3_bind_blob(st, 4, salt, SALT_LEN, SQLITE_STATIC);
	sqlite3_bind_blob(st, 5, hash, HASH_LEN, SQLITE_STATIC);
	sqlite3_bind_int(st, 6, APIKEY_PBKDF2_ITERATIONS);
	if (sqlite3_step(st) != SQLITE_DONE) {
		if (sqlite3_extended_errcode(db) == SQLITE_CONSTRAINT_UNIQUE)
			lab_fail(e, LAB_CONFLICT, "a key named '%s' already"
				 " exists", name);
		else
			lab_fail(e, LAB_INTERNAL, "cannot store key: %s",
				 sqlite3_errmsg(db));
		goto out;
	}
	id = sqlite3_last_insert_rowid(db);
out:
	if (id < 0)
		memset(key, 0, keylen);
	OPENSSL_cleanse(secret, sizeof(secret));
	OPENSSL_cleanse(rnd, sizeof(rnd));
	sqlite3_finalize(st);
	return id;
}

int apikeys_verify(sqlite3 *db, const char *key, struct apikey *out)
{
	unsigned char hash[HASH_LEN];
	char prefix[PREFIX_HEX + 1];
	sqlite3_stmt *st;
	int ret = -1;

	if (key_prefix(key, prefix))
		return -1;
	st = db_prepare(db, "SELECT id, name, role, salt, hash, iterations,"
			" coalesce(host_id, 0) FROM api_keys"
			" WHERE prefix = ? AND revoked_at IS NULL");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, prefix, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_ROW)
		goto out;
	if (sqlite3_column_bytes(st, 3) != SALT_LEN ||
	    sqlite3_column_bytes(st, 4) != HASH_LEN)
		goto out;
	if (kdf(key, sqlite3_column_blob(st, 3), sqlite3_column_int(st, 5), hash))
		goto out;
	if (CRYPTO_memcmp(hash, sqlite3_column_blob(st, 4), HASH_LEN) != 0)
		goto out;
	memset(out, 0, sizeof(*out));
	out->key_id = sqlite3_column_int64(st, 0);
	snprintf(out->name, sizeof(out->name), "%s",
		 (const char *)sqlite3_column_text(st, 1));
	out->role = apikeys_role_parse((const char *)sqlite3_column_text(st, 2));
	out->host_id = sqlite3_column_int64(st, 6);
	ret = out->role == ROLE_NONE ? -1 : 0;
out:
	sqlite3_finalize(st);
	return ret;
}

int apikeys_bind_host(sqlite3 *db, int64_t key_id, int64_t host_id)
{
	sqlite3_stmt *st = db_prepare(db, "UPDATE api_keys SET host_id = ?"
				      " WHERE id = ? AND host_id IS NULL");
	int ret = -1;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, host_id);
	sqlite3_bind_int64(st, 2, key_id);
	if (sqlite3_step(st) == SQLITE_DONE && sqlite3_changes(db) == 1)
		ret = 0;
	sqlite3_finalize(st);
	return ret;
}

int apikeys_revoke(sqlite3 *db, const char *name, struct lab_err *e)
{
	sqlite3_stmt *st = db_prepare(db, "UPDATE api_keys SET revoked_at ="
				      " strftime('%s','now') WHERE name = ? AND"
				      " revoked_at IS NULL");
	int ok;

	if (!st)
		return lab_fail_db(e, db);
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	ok = sqlite3_step(st) == SQLITE_DONE && sqlite3_changes(db) == 1;
	sqlite3_finalize(st);
	return ok ? 0 : lab_fail(e, LAB_NOT_FOUND, "no active key named '%s'",
				 name);
}

json_t *apikeys_list_json(sqlite3 *db)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT json_object('name', k.name,"
				      " 'role', k.role, 'key', 'plk_' || k.prefix ||"
				      " '_...', 'host', coalesce(h.name, '-'),"
				      " 'created', datetime(k.created_at, 'unixepoch'),"
				      " 'state', CASE WHEN k.revoked_at IS NULL THEN"
				      " 'active' ELSE 'revoked' END) FROM api_keys k"
				      " LEFT JOIN hosts h ON h.id = k.host_id"
				      " ORDER BY k.id");
	json_t *a;

	if (!st)
		return NULL;
	a = json_array();
	while (a && sqlite3_step(st) == SQLITE_ROW)
		json_array_append_new(a, json_loads((const char *)
				      sqlite3_column_text(st, 0), 0, NULL));
	sqlite3_finalize(st);
	return a;
}
