/* SPDX-License-Identifier: MIT */
/*
 * Per-thread offset generator: wyrand PRNG with a settable seed, mapped
 * onto whole blocks of the target (aligned to the block size) with a
 * multiply-shift range reduction, or a sequential walk that wraps.
 * The hot-path functions are inline; no state is shared between threads.
 */
#ifndef PERFLAB_BENCH_PRNG_H
#define PERFLAB_BENCH_PRNG_H

#include <stdbool.h>
#include <stdint.h>

struct prng {
	uint64_t s;
};

struct offgen {
	struct prng rng;
	uint64_t nblocks;	/* whole blocks of size bs in the target */
	uint64_t bs;
	uint64_t seq;		/* next block when sequential */
	bool random;
};

/* Seeds stream @stream (a thread index) of seed @seed. */
void prng_seed(struct prng *p, uint64_t seed, unsigned int stream);

/*
 * Sets up offsets over [0, size) in blocks of @bs. Returns -1 when the
 * target holds no whole block. Sequential streams start at evenly spread
 * points so threads do not read the same blocks in lock step.
 */
int offgen_init(struct offgen *g, uint64_t size, uint64_t bs, bool random,
		uint64_t seed, unsigned int stream, unsigned int nstreams);

/*
 * wyrand: a Weyl sequence mixed by one 64x64->128 multiply, which passes
 * BigCrush and PractRand. In the SQE loop it is 7 instructions per IO
 * cheaper than splitmix64 was (19 against 26 with the range reduction and
 * the store), and every instruction of the bench dilutes the kernel
 * changes the lab measures.
 */
static inline uint64_t prng_next(struct prng *p)
{
	uint64_t s = p->s += 0xa0761d6478bd642fULL;
	unsigned __int128 m = (unsigned __int128)s * (s ^ 0xe7037ed1a0b428dbULL);

	return (uint64_t)(m >> 64) ^ (uint64_t)m;
}

/* Uniform in [0, n) (bias below 2^-64 * n, negligible). */
static inline uint64_t prng_below(struct prng *p, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)prng_next(p) * n) >> 64);
}

static inline uint64_t offgen_random(struct offgen *g)
{
	return prng_below(&g->rng, g->nblocks) * g->bs;
}

static inline uint64_t offgen_seq(struct offgen *g)
{
	uint64_t blk = g->seq;

	if (++g->seq == g->nblocks)
		g->seq = 0;
	return blk * g->bs;
}

static inline uint64_t offgen_next(struct offgen *g)
{
	return g->random ? offgen_random(g) : offgen_seq(g);
}

#endif
