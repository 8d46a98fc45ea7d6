/*
 * Description: the offset generator is deterministic for a fixed seed and
 * stream, differs across seeds and streams, stays block-aligned inside the
 * target, spreads evenly over it, and walks sequentially with wrap-around.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runners/perflab-bench/prng.h"
#include "unit/check.h"

#define N 100000

static void fill(uint64_t *v, uint64_t seed, unsigned int stream,
		 uint64_t size, uint64_t bs)
{
	struct offgen g;
	int i;

	if (offgen_init(&g, size, bs, true, seed, stream, 4)) {
		fails++;
		return;
	}
	for (i = 0; i < N; i++)
		v[i] = offgen_next(&g);
}

static int same(const uint64_t *a, const uint64_t *b)
{
	return !memcmp(a, b, N * sizeof(*a));
}

int main(void)
{
	const uint64_t size = 1ULL << 30, bs = 512, nblk = size / bs;
	uint64_t *a = malloc(N * 8), *b = malloc(N * 8), *c = malloc(N * 8);
	unsigned int buckets[16] = { 0 };
	struct offgen g;
	int i, equal = 0;

	fill(a, 42, 0, size, bs);
	fill(b, 42, 0, size, bs);
	CHECK(same(a, b), "same seed and stream gave different sequences");
	fill(c, 43, 0, size, bs);
	CHECK(!same(a, c), "seeds 42 and 43 gave the same sequence");
	fill(c, 42, 1, size, bs);
	CHECK(!same(a, c), "streams 0 and 1 gave the same sequence");
	for (i = 0; i < N; i++)
		equal += a[i] == c[i];
	CHECK(equal < 10, "streams overlap in %d of %d draws", equal, N);

	for (i = 0; i < N; i++) {
		CHECK(a[i] % bs == 0, "offset %llu not aligned",
		      (unsigned long long)a[i]);
		CHECK(a[i] + bs <= size, "offset %llu beyond the target",
		      (unsigned long long)a[i]);
		buckets[a[i] / (size / 16)]++;
	}
	/* Expected N/16 = 6250 per bucket; 5 sigma is about 375. */
	for (i = 0; i < 16; i++)
		CHECK(buckets[i] > 5800 && buckets[i] < 6700,
		      "bucket %d holds %u of %d draws", i, buckets[i], N);

	/* A size that is not a multiple of bs: last partial block unused. */
	fill(a, 7, 0, 10 * 4096 + 100, 4096);
	for (i = 0; i < N; i++)
		CHECK(a[i] <= 9 * 4096 && a[i] % 4096 == 0, "bad offset %llu",
		      (unsigned long long)a[i]);

	CHECK(offgen_init(&g, 4095, 4096, true, 1, 0, 1) == -1,
	      "a target smaller than a block was accepted");

	offgen_init(&g, 4 * bs, bs, false, 1, 0, 1);
	for (i = 0; i < 9; i++) {
		uint64_t off = offgen_next(&g);

		CHECK(off == (uint64_t)(i % 4) * bs, "sequential step %d gave %llu",
		      i, (unsigned long long)off);
	}
	offgen_init(&g, nblk * bs, bs, false, 1, 2, 4);
	CHECK(offgen_next(&g) == nblk / 2 * bs,
	      "sequential stream 2 of 4 does not start half way");

	free(a);
	free(b);
	free(c);
	if (fails)
		return 1;
	printf("prng-seed: ok\n");
	return 0;
}
