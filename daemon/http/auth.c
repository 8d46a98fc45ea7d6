// SPDX-License-Identifier: MIT
/*
 * API key creation, verification and the verified-key cache.
 */
#include <stdio.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

#include "daemon/http/auth.h"
#include "daemon/store/db.h"
#include "daemon/store/sql.h"

#define PREFIX_HEX 12
#define SECRET_HEX 64
#define SALT_LEN 16
#define HASH_LEN 32

int auth_role_parse(const char *s)
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

const char *auth_role_name(int role)
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

	if (strlen(key) != AUTH_KEY_LEN || strncmp(key, "plk_", 4) ||
	    key[4 + PREFIX_HEX] != '_')
		return -1;
	for (i = 4; i < AUTH_KEY_LEN; i++) {
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

int64_t auth_key_create(sqlite3 *db, const char *name, const char *role,
			char *key, size_t keylen, char *err, size_t errlen)
{
	unsigned char rnd[PREFIX_HEX / 2 + SECRET_HEX / 2], salt[SALT_LEN];
	unsigned char hash[HASH_LEN];
	char prefix[PREFIX_HEX + 1], secret[SECRET_HEX + 1];
	sqlite3_stmt *st = NULL;
	int64_t id = -1;

	if (auth_role_parse(role) == ROLE_NONE) {
		snprintf(err, errlen, "unknown role '%s' (submit, admin or runner)", role);
		return -1;
	}
	if (!valid_name(name)) {
		snprintf(err, errlen, "key name must be 1-63 characters of [A-Za-z0-9._@-]");
		return -1;
	}
	if (keylen < AUTH_KEY_LEN + 1 || RAND_bytes(rnd, sizeof(rnd)) != 1 ||
	    RAND_bytes(salt, sizeof(salt)) != 1) {
		snprintf(err, errlen, "cannot generate random key");
		return -1;
	}
	hex(prefix, rnd, PREFIX_HEX / 2);
	hex(secret, rnd + PREFIX_HEX / 2, SECRET_HEX / 2);
	snprintf(key, keylen, "plk_%s_%s", prefix, secret);
	if (kdf(key, salt, AUTH_PBKDF2_ITERATIONS, hash)) {
		snprintf(err, errlen, "key derivation failed");
		return -1;
	}
	st = db_prepare(db, "INSERT INTO api_keys (name, role, prefix, salt, hash,"
			" iterations, created_at) VALUES (?,?,?,?,?,?,strftime('%s','now'))");
	if (!st)
		goto out;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, role, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, prefix, -1, SQLITE_STATIC);
	sqlite3_bind_blob(st, 4, salt, SALT_LEN, SQLITE_STATIC);
	sqlite3_bind_blob(st, 5, hash, HASH_LEN, SQLITE_STATIC);
	sqlite3_bind_int(st, 6, AUTH_PBKDF2_ITERATIONS);
	if (sqlite3_step(st) != SQLITE_DONE) {
		if (sqlite3_extended_errcode(db) == SQLITE_CONSTRAINT_UNIQUE)
			snprintf(err, errlen, "a key named '%s' already exists", name);
		else
			snprintf(err, errlen, "cannot store key: %s", sqlite3_errmsg(db));
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

int auth_key_verify(sqlite3 *db, const char *key, struct http_auth *out)
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
	out->role = auth_role_parse((const char *)sqlite3_column_text(st, 2));
	out->host_id = sqlite3_column_int64(st, 6);
	ret = out->role == ROLE_NONE ? -1 : 0;
out:
	sqlite3_finalize(st);
	return ret;
}

int auth_key_bind_host(sqlite3 *db, int64_t key_id, int64_t host_id)
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

void auth_cache_init(struct auth_cache *c, int ttl_seconds)
{
	memset(c, 0, sizeof(*c));
	pthread_mutex_init(&c->lock, NULL);
	pthread_mutex_init(&c->verify_lock, NULL);
	c->ttl = ttl_seconds;
}

void auth_cache_destroy(struct auth_cache *c)
{
	pthread_mutex_destroy(&c->lock);
	pthread_mutex_destroy(&c->verify_lock);
	OPENSSL_cleanse(c->slot, sizeof(c->slot));
}

static int cache_lookup(struct auth_cache *c, struct auth_cache_entry *e,
			const unsigned char *d, struct http_auth *out)
{
	int hit;

	pthread_mutex_lock(&c->lock);
	hit = e->expires > time(NULL) && CRYPTO_memcmp(e->digest, d, 32) == 0;
	if (hit)
		*out = e->auth;
	pthread_mutex_unlock(&c->lock);
	return hit;
}

int auth_check_cached(struct auth_cache *c, const char *key,
		      struct http_auth *out)
{
	unsigned char d[32];

	SHA256((const unsigned char *)key, strlen(key), d);
	return cache_lookup(c, &c->slot[(d[0] | d[1] << 8) % AUTH_CACHE_SLOTS],
			    d, out) ? 0 : -1;
}

int auth_check(struct auth_cache *c, sqlite3 *db, const char *key,
	       struct http_auth *out)
{
	unsigned char d[32];
	struct auth_cache_entry *e;
	int ret = 0;

	SHA256((const unsigned char *)key, strlen(key), d);
	e = &c->slot[(d[0] | d[1] << 8) % AUTH_CACHE_SLOTS];
	if (cache_lookup(c, e, d, out))
		return 0;
	pthread_mutex_lock(&c->verify_lock);
	if (cache_lookup(c, e, d, out))
		goto out;
	if (auth_key_verify(db, key, out)) {
		ret = -1;
		goto out;
	}
	pthread_mutex_lock(&c->lock);
	memcpy(e->digest, d, 32);
	e->auth = *out;
	e->expires = time(NULL) + c->ttl;
	pthread_mutex_unlock(&c->lock);
out:
	pthread_mutex_unlock(&c->verify_lock);
	return ret;
}

void auth_cache_forget(struct auth_cache *c, int64_t key_id)
{
	int i;

	pthread_mutex_lock(&c->lock);
	for (i = 0; i < AUTH_CACHE_SLOTS; i++)
		if (c->slot[i].auth.key_id == key_id)
			c->slot[i].expires = 0;
	pthread_mutex_unlock(&c->lock);
}
