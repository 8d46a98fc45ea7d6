// SPDX-License-Identifier: MIT
/*
 * Bench parameter table; see bench_params.h. Limits follow perflab-bench's
 * own option checks (runners/perflab-bench/opts.h;
 * tests/unit/bench-params-limits keeps them in step); runtime is capped at
 * an hour per run for the lab.
 */
#include "common/bench_params.h"

const struct bench_param bench_params[] = {
	{ "depth", "-d", 'i', 1, 4096, 128 },
	{ "submit_batch", "-s", 'i', 1, 4096, 32 },
	{ "complete_batch", "-c", 'i', 1, 4096, 32 },
	{ "bs", "-b", 'i', 512, 1 << 20, 512 },
	{ "polled", "-p", 'b', 0, 1, 1 },
	{ "fixedbufs", "-B", 'b', 0, 1, 1 },
	{ "regfiles", "-F", 'b', 0, 1, 1 },
	{ "random", "-R", 'b', 0, 1, 1 },
	{ "threads", "-n", 'i', 1, 256, 1 },
	{ "runtime", "-r", 'i', 1, 3600, 10 },
	{ "warmup", "-w", 'i', 0, 3599, 2 },
	{ "profile", NULL, 'b', 0, 1, 1 },	/* -P, no value */
	{ "ios", "--ios", 'i', 0, 1000000000000LL, 0 },	/* 0: time-bound */
	{ "seed", "--seed", 'i', 0, 4294967295LL, 1 },
	{ "target", NULL, 's', 0, 256, 0 },	/* the runner's, not a flag */
	/* qemu-icount: the perflab-insn plugin's cache model (cache=on) */
	{ "cache", NULL, 'b', 0, 1, 0 },
};

const size_t bench_params_count = sizeof(bench_params) / sizeof(bench_params[0]);
