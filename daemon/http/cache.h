/* SPDX-License-Identifier: MIT */
/*
 * A small cache of rendered responses, tagged with the database
 * generation (db_pool_generation) read before the data was queried: an
 * entry is served only while no commit happened since. Keys are a kind
 * (one per endpoint) and an id.
 */
#ifndef PERFLAB_CACHE_H
#define PERFLAB_CACHE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#define CACHE_SLOTS 256

enum cache_kind { CACHE_EXPERIMENT = 1, CACHE_EXPERIMENT_LIST, CACHE_USER = 16 /* others from here */ };

struct cache_slot {
	int kind;
	int64_t id;
	uint64_t gen;
	char *body;
	size_t len;
};

struct resp_cache {
	pthread_mutex_t lock;
	struct cache_slot slot[CACHE_SLOTS];
};

void cache_init(struct resp_cache *c);
void cache_destroy(struct resp_cache *c);
/* A malloc'ed copy of the entry if present at @gen, else NULL. */
char *cache_get(struct resp_cache *c, int kind, int64_t id, uint64_t gen,
		size_t *len);
/* Store a copy of @body. */
void cache_put(struct resp_cache *c, int kind, int64_t id, uint64_t gen,
	       const char *body, size_t len);

#endif
