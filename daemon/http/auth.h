/* SPDX-License-Identifier: MIT */
/*
 * Verified API keys (lab/apikeys.h stores and verifies them) are cached
 * in memory for a short time so a request costs no KDF.
 */
#ifndef PERFLAB_AUTH_H
#define PERFLAB_AUTH_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "daemon/store/conn.h"
#include "daemon/http/http.h"

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
int auth_check(struct auth_cache *c, store_conn *db, const char *key,
	       struct http_auth *out);
/* Like auth_check() but only from the cache (no KDF, no database). */
int auth_check_cached(struct auth_cache *c, const char *key,
		      struct http_auth *out);
/* Drop cached entries of one key (after its binding changed). */
void auth_cache_forget(struct auth_cache *c, int64_t key_id);

#endif
