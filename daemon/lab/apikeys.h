/* SPDX-License-Identifier: MIT */
/*
 * API keys: "plk_<12 hex lookup prefix>_<64 hex secret>". Only a
 * PBKDF2-HMAC-SHA256 hash with a per-key salt is stored; the prefix finds
 * the row, the hash is compared in constant time. A runner key is bound
 * to the one host it registered. The HTTP layer caches verified keys
 * (http/auth.h); perflabd's "key" commands create, list and revoke them.
 */
#ifndef PERFLAB_LAB_APIKEYS_H
#define PERFLAB_LAB_APIKEYS_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "daemon/store/conn.h"
#include "daemon/lab/roles.h"
#include "daemon/lab/status.h"

#define APIKEY_LEN (4 + 12 + 1 + 64)	/* without NUL */
#define APIKEY_PBKDF2_ITERATIONS 100000

/* A verified key. */
struct apikey {
	int role;		/* ROLE_* */
	int64_t key_id;
	int64_t host_id;	/* runner keys: the bound host, or 0 */
	char name[64];
};

/* "submit" -> ROLE_SUBMIT etc.; ROLE_NONE if unknown. */
int apikeys_role_parse(const char *s);
const char *apikeys_role_name(int role);

/*
 * Create a key named @name with @role ("submit", "admin", "runner");
 * writes the key text (shown once) to @key (>= APIKEY_LEN + 1 bytes).
 * The key id, or -1: LAB_INVALID (role, name), LAB_CONFLICT (the name is
 * taken).
 */
int64_t apikeys_create(store_conn *db, const char *name, const char *role,
		       char *key, size_t keylen, struct lab_err *e);

/* Verify @key against the store: 0 and @out filled, or -1. */
int apikeys_verify(store_conn *db, const char *key, struct apikey *out);

/* Bind runner key @key_id to @host_id; only its first registration. 0,
 * or -1 (bound to another host already). */
int apikeys_bind_host(store_conn *db, int64_t key_id, int64_t host_id);

/* Revoke the active key @name. 0, or -1 LAB_NOT_FOUND. */
int apikeys_revoke(store_conn *db, const char *name, struct lab_err *e);

/* Every key, oldest first: {name, role, key ("plk_<prefix>_..."), host,
 * created (UTC), state (active, revoked)}; NULL on error. */
json_t *apikeys_list_json(store_conn *db);

#endif
