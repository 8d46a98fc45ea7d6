/* SPDX-License-Identifier: MIT */
/*
 * cache_model: a deterministic set-associative cache hierarchy for the
 * perflab-insn plugin: split L1 (instructions, data) and one unified
 * last-level cache. LRU replacement, write-allocate, no prefetch, no
 * write-back traffic: the LL sees an access only when an L1 misses, and
 * an L1 eviction does not touch the LL (the model Cachegrind documents,
 * so the two can be checked against each other).
 *
 * Addresses are whatever the caller passes (guest-virtual in user mode,
 * guest-physical data in system mode); an access that straddles a line
 * touches both lines, and each line that misses counts as one miss.
 */
#ifndef PERFLAB_CACHE_MODEL_H
#define PERFLAB_CACHE_MODEL_H

#include <stddef.h>
#include <stdint.h>

struct cache_geom {
	uint64_t size;		/* bytes */
	unsigned ways;
};

struct cache_level {
	uint64_t *tag;		/* sets * ways, MRU first; 0 is empty */
	uint64_t set_mask;
	unsigned ways;
};

enum cache_side { CACHE_I, CACHE_D };

struct cache_model {
	struct cache_level l1i, l1d, ll;
	unsigned line_bits;
};

/* Misses of one access: L1 and LL lines missed. */
struct cache_miss {
	unsigned l1, ll;
};

/*
 * Geometry checks and allocation. Sets (size / ways / line) must be a
 * power of two. 0 ok; -1 with a message in err.
 */
int cache_model_init(struct cache_model *m, unsigned line,
		     struct cache_geom l1i, struct cache_geom l1d,
		     struct cache_geom ll, char *err, size_t errlen);
void cache_model_free(struct cache_model *m);

/* One access of size bytes at addr (size >= 1). */
struct cache_miss cache_model_ref(struct cache_model *m, enum cache_side s,
				  uint64_t addr, unsigned size);

/* "SIZE:WAYS" with an optional K or M suffix on SIZE; 0 ok, -1 bad. */
int cache_geom_parse(const char *s, struct cache_geom *g);

#endif
