/* SPDX-License-Identifier: MIT */
/*
 * cache_cost: estimated cycles from the cache model's counts (the
 * perflab-insn plugin with cache=on, common/insn_profile.h).
 *
 *   est = l1_hit * L1 hits + ll_hit * LL hits + ram * LL misses
 *
 * with L1 hits = accesses - L1 misses, LL hits = L1 misses - LL misses,
 * accesses = instructions fetched + data reads + data writes. That is
 * iai-callgrind's "estimated cycles" (weights 1, 5, 35, the default
 * here): a ranking figure, not a prediction of any CPU's cycles. An
 * access that straddles two lines can miss twice, so the sum is taken in
 * the rearranged form l1_hit * accesses + (ll_hit - l1_hit) * L1 misses
 * + (ram - ll_hit) * LL misses, never negative for ordered weights.
 */
#ifndef PERFLAB_CACHE_COST_H
#define PERFLAB_CACHE_COST_H

#include <stdint.h>

struct cache_weights {
	uint64_t l1_hit, ll_hit, ram;
};

#define CACHE_WEIGHTS_DEFAULT ((struct cache_weights){ 1, 5, 35 })
#define CACHE_WEIGHT_MAX 1000

/* Weights are usable: 0 < l1_hit <= ll_hit <= ram <= CACHE_WEIGHT_MAX. */
int cache_weights_ok(const struct cache_weights *w);

/*
 * The estimate into *out; -1 when an input or the result is above 2^53
 * (JSON integers stay exact to there) or LL misses exceed L1 misses.
 */
int cache_est_cycles(const struct cache_weights *w, uint64_t accesses,
		     uint64_t l1_misses, uint64_t ll_misses, uint64_t *out);

#endif
