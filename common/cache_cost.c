// SPDX-License-Identifier: MIT
/* cache_cost: see cache_cost.h. */
#include "common/cache_cost.h"

#define EXACT_MAX (1ull << 53)

int cache_weights_ok(const struct cache_weights *w)
{
	return w->l1_hit > 0 && w->l1_hit <= w->ll_hit &&
	       w->ll_hit <= w->ram && w->ram <= CACHE_WEIGHT_MAX;
}

int cache_est_cycles(const struct cache_weights *w, uint64_t accesses,
		     uint64_t l1_misses, uint64_t ll_misses, uint64_t *out)
{
	unsigned __int128 e;

	if (!cache_weights_ok(w) || accesses > EXACT_MAX ||
	    l1_misses > EXACT_MAX || ll_misses > l1_misses)
		return -1;
	e = (unsigned __int128)w->l1_hit * accesses +
	    (unsigned __int128)(w->ll_hit - w->l1_hit) * l1_misses +
	    (unsigned __int128)(w->ram - w->ll_hit) * ll_misses;
	if (e > EXACT_MAX)
		return -1;
	*out = (uint64_t)e;
	return 0;
}
