// SPDX-License-Identifier: MIT
/*
 * The verified-key cache in front of the lab's key store (lab/apikeys.h).
 */
#include <stdio.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/sha.h>

#include "daemon/http/auth.h"
#include "daemon/lab/apikeys.h"

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

int auth_check(struct auth_cache *c, store_conn *db, const char *key,
	       struct http_auth *out)
{
	unsigned char d[32];
	struct auth_cache_entry *e;
	struct apikey k;
	int ret = 0;

	SHA256((const unsigned char *)key, strlen(key), d);
	e = &c->slot[(d[0] | d[1] << 8) % AUTH_CACHE_SLOTS];
	if (cache_lookup(c, e, d, out))
		return 0;
	pthread_mutex_lock(&c->verify_lock);
	if (cache_lookup(c, e, d, out))
		goto out;
	if (apikeys_verify(db, key, &k)) {
		ret = -1;
		goto out;
	}
	memset(out, 0, sizeof(*out));
	out->role = k.role;
	out->key_id = k.key_id;
	out->host_id = k.host_id;
	snprintf(out->name, sizeof(out->name), "%s", k.name);
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
