// SPDX-License-Identifier: MIT
#include "prng.h"

void prng_seed(struct prng *p, uint64_t seed, unsigned int stream)
{
	struct prng mix = { .s = seed ^ (0xd1b54a32d192ed03ULL * (stream + 1)) };

	/* Decorrelate nearby seeds and streams before the first draw. */
	p->s = prng_next(&mix);
}

int offgen_init(struct offgen *g, uint64_t size, uint64_t bs, bool random,
		uint64_t seed, unsigned int stream, unsigned int nstreams)
{
	if (!bs || size < bs)
		return -1;
	g->bs = bs;
	g->nblocks = size / bs;
	g->random = random;
	prng_seed(&g->rng, seed, stream);
	g->seq = nstreams ? (g->nblocks / nstreams) * stream : 0;
	if (g->seq >= g->nblocks)
		g->seq = 0;
	return 0;
}
