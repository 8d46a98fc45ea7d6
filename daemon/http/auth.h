/* SPDX-License-Identifier: MIT */
/*
 * API keys: "plk_<12 hex lookup prefix>_<64 hex secret>". Only a
 * PBKDF2-HMAC-SHA256 hash with a per-key salt is stored; the prefix finds
 * the row, the hash is compared in constant time. Verified keys are cached
 * in memory for a short time so a request costs no KDF.
 */
#ifndef PERFLAB_AUTH_H
#define PERFLAB_AUTH_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <sqlite3.h>

#include "daemon/http/http.h"

#define AUTH_KEY_LEN (4 + 12 + 1 + 64)	/* without NUL */
#define AUTH_PBKDF2_ITERATIONS 100000

/* "submit" -> ROLE_SUBMIT etc.; ROLE_NONE if unknown. */
int auth_role_parse(const char *s);
const char *auth_role_name(int role);

/*
 * Create a key named @name with @role ("submit", "admin", "runner");
 * writes the key text (shown once) to @key (>= AUTH_KEY_LEN + 1 bytes).
 * Returns the key id, or -1 with a message in @err.
 */
int64_t auth_key_create(sqlite3 *db, const char *name, const char *role,
			char *key, size_t keylen, char *err, size_t errlen);

/* Verify @key against the database: 0 and @out filled, or -1. */
int auth_key_verify(sqlite3 *db, const char *key, struct http_auth *out);

/* Bind a runner key to a host (first registration). */
int auth_key_bind_host(sqlite3 *db, int64_t key_id, int64_t host_id);

#define AUTH_CACHE_SLOTS 1024

struct auth_cache_entry {
	unsigned char digest[32];	/* SHA-256 of the key text */
	time_t expires;
	struct http_auth auth;
};

struct auth_cache {
	pthread_mutex_t lock;
	pthread_mutex_t verify_lock;	/* one KDF at a time: no herd, slow brute force */
	int ttl;
	struct auth_cache_entry slot[AUTH_CACHE_SLOTS];
};

void auth_cache_init(struct auth_cache *c, int ttl_seconds);
void auth_cache_destroy(struct auth_cache *c);
/* Cached verification: 0 and @out filled, or -1 (invalid key). */
int auth_check(struct auth_cache *c, sqlite3 *db, const char *key,
	       struct http_auth *out);
/* Like auth_check() but only from the cache (no KDF, no database). */
int auth_check_cached(struct auth_cache *c, const char *key,
		      struct http_auth *out);
/* Drop cached entries of one key (after its binding changed). */
void auth_cache_forget(struct auth_cache *c, int64_t key_id);

#endif
