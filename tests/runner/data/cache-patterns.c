// SPDX-License-Identifier: MIT
/*
 * A freestanding static x86-64 program for the cache model cross-check
 * (tests/runner/insn-plugin-cachegrind.sh): one function per memory
 * access pattern, so both tools' per-function miss counts can be set
 * side by side. No libc: its start-up code and its CPU-dependent string
 * routines (AVX under Valgrind, SSE2 under QEMU 7.2) would differ
 * between the two. Built with -mgeneral-regs-only so no SSE load is
 * split by TCG into two accesses.
 *
 * Geometry assumed by the sizes below: 32 KiB/8-way L1s, 2 MiB/16-way
 * LL, 64-byte lines (the plugin's defaults).
 */
#include "runners/perflab-bench/insn_marker.h"

#define LINE	64
#define BUF	(8u << 20)

static unsigned char buf[BUF] __attribute__((aligned(4096)));
static volatile unsigned long sink = 1;	/* .data: Valgrind 3.19 reads no symbols without one */

/* 4 MiB read twice, a word at a time: every line misses L1 and LL. */
__attribute__((noinline)) void pat_seq_read(void)
{
	const unsigned long *p = (const unsigned long *)buf;
	unsigned long s = 0;

	for (int pass = 0; pass < 2; pass++)
		for (unsigned i = 0; i < (4u << 20) / sizeof(*p); i++)
			s += p[i];
	sink = s;
}

/* 1 MiB written three times: L1 misses each pass, the LL keeps it. */
__attribute__((noinline)) void pat_seq_write(void)
{
	unsigned long *p = (unsigned long *)(buf + (4u << 20));

	for (int pass = 0; pass < 3; pass++)
		for (unsigned i = 0; i < (1u << 20) / sizeof(*p); i++)
			p[i] = i + pass;
}

/*
 * 12 lines 4 KiB apart all map to one L1 set (64 sets): more than its 8
 * ways, so in LRU order every access misses L1 and hits the LL.
 */
__attribute__((noinline)) void pat_stride_sets(void)
{
	unsigned long s = 0;

	for (int r = 0; r < 20000; r++)
		for (unsigned k = 0; k < 12; k++)
			s += *(volatile unsigned long *)(buf + k * 4096);
	sink = s;
}

/* A random cycle over all 8 MiB of lines (Sattolo's shuffle). */
__attribute__((noinline)) void chase_build(void)
{
	unsigned n = BUF / LINE, x = 12345;
	unsigned *next = 0;

	for (unsigned i = 0; i < n; i++)
		*(unsigned *)(buf + i * LINE) = i;
	for (unsigned i = n - 1; i > 0; i--) {
		unsigned j, t;

		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		j = x % i;
		next = (unsigned *)(buf + i * LINE);
		t = *next;
		*next = *(unsigned *)(buf + j * LINE);
		*(unsigned *)(buf + j * LINE) = t;
	}
}

/* Pointer chase: each hop depends on the last, mostly LL misses. */
__attribute__((noinline)) void pat_chase(void)
{
	unsigned i = 0;

	for (unsigned h = 0; h < 2 * (BUF / LINE); h++)
		i = *(volatile unsigned *)(buf + i * LINE);
	sink = i;
}

/*
 * 48 KiB of straight-line code (12288 four-byte adds) run 20 times: more
 * than the 32 KiB L1I, so in LRU order every line misses it each time.
 */
__attribute__((noinline)) void pat_code(void)
{
	for (int r = 0; r < 20; r++)
		__asm__ __volatile__(".rept 12288\n\taddq $1, %%rax\n\t.endr"
				     ::: "rax", "cc");
}

__attribute__((noreturn)) void _start(void)
{
	insn_marker_start();
	pat_seq_read();
	pat_seq_write();
	pat_stride_sets();
	chase_build();
	pat_chase();
	pat_code();
	insn_marker_end();
	__asm__ __volatile__("syscall" :: "a"(231), "D"(0));
	__builtin_unreachable();
}
