/* SPDX-License-Identifier: MIT */
/*
 * System-wide sampling profiler on libperf: cycles when the PMU has them,
 * else cpu-clock. Samples carry IP, pid/tid and the callchain; identical
 * callchains are counted together while the run goes on, and symbolised
 * after it (kallsyms, /proc/PID/maps + ELF symbols).
 */
#ifndef PERFLAB_BENCH_PROFILE_H
#define PERFLAB_BENCH_PROFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct jw;
struct profile;

/* Opens the events on every online CPU, disabled. NULL with err set. */
struct profile *profile_open(unsigned int freq, char *err, size_t len);
/* "cycles" or "cpu-clock". */
const char *profile_event(const struct profile *p);
void profile_enable(struct profile *p);
void profile_disable(struct profile *p);
/* Reads the ring buffers; call often enough (every ~100 ms). */
void profile_drain(struct profile *p);
/* Resolves symbols, builds per-symbol counts and folded stacks. */
int profile_resolve(struct profile *p);
uint64_t profile_total(const struct profile *p);
uint64_t profile_lost(const struct profile *p);
void profile_write_json(const struct profile *p, struct jw *j);
/* Top @n symbols by self samples, one per line. */
void profile_print_top(const struct profile *p, FILE *f, unsigned int n);
void profile_close(struct profile *p);

#endif
