// SPDX-License-Identifier: MIT
/*
 * Rendered response cache.
 */
#include <stdlib.h>
#include <string.h>

#include "daemon/http/cache.h"

void cache_init(struct resp_cache *c)
{
	memset(c, 0, sizeof(*c));
	pthread_mutex_init(&c->lock, NULL);
}

void cache_destroy(struct resp_cache *c)
{
	int i;

	for (i = 0; i < CACHE_SLOTS; i++)
		free(c->slot[i].body);
	pthread_mutex_destroy(&c->lock);
}

static struct cache_slot *slot_of(struct resp_cache *c, int kind, int64_t id)
{
	uint64_t h = (uint64_t)id * 0x9e3779b97f4a7c15ull + (uint64_t)kind;

	return &c->slot[(h >> 32) % CACHE_SLOTS];
}

char *cache_get(struct resp_cache *c, int kind, int64_t id, uint64_t gen,
		size_t *len)
{
	struct cache_slot *s = slot_of(c, kind, id);
	char *copy = NULL;

	pthread_mutex_lock(&c->lock);
	if (s->body && s->kind == kind && s->id == id && s->gen == gen) {
		copy = malloc(s->len + 1);
		if (copy) {
			memcpy(copy, s->body, s->len + 1);
			*len = s->len;
		}
	}
	pthread_mutex_unlock(&c->lock);
	return copy;
}

void cache_put(struct resp_cache *c, int kind, int64_t id, uint64_t gen,
	       const char *body, size_t len)
{
	struct cache_slot *s = slot_of(c, kind, id);
	char *copy = malloc(len + 1);

	if (!copy)
		return;
	memcpy(copy, body, len);
	copy[len] = '\0';
	pthread_mutex_lock(&c->lock);
	free(s->body);
	s->kind = kind;
	s->id = id;
	s->gen = gen;
	s->body = copy;
	s->len = len;
	pthread_mutex_unlock(&c->lock);
}
