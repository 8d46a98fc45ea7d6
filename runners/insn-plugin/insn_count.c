// SPDX-License-Identifier: MIT
/*
 * perflab-insn: a QEMU TCG plugin that counts the guest instructions
 * executed at each code address between perflab-bench's start and end
 * markers (runners/perflab-bench/insn_marker.h).
 *
 *   qemu-system-x86_64 ... -plugin build/perflab-insn.so,out=FILE
 *   qemu-system-x86_64 ... -plugin perflab-insn.so,console=on
 *
 * Counting is per translated block with an inline add: one host add per
 * block executed, which is what keeps the wall-time cost small. A block's
 * count is credited to every instruction in it. That is exact because
 * TCG enters a block only when the whole block will run (icount shrinks a
 * block rather than stop inside it); a guest exception in the middle of a
 * block (a page fault) over-credits the instructions after the faulting
 * one, which the polled IO loop does not do.
 *
 * The window: counters run all the time; the start marker snapshots every
 * block's counter, the end marker takes the difference. A block is
 * counted when it is entered, so the block holding the start mark falls
 * before the snapshot and the one holding the end mark after it: the
 * instructions after the start mark in its block are added back, and the
 * end mark and what follows it in its block taken off, so the window is
 * exactly the instructions executed between the two marks. With several
 * bench threads, the window opens at the first start mark and closes when
 * as many end marks as start marks have run. Marks are recognised only at
 * user-space addresses: kernel code (a patch under test) cannot fake one.
 *
 * Output at exit (format in common/insn_profile.h): a header with the
 * marker counts and the window total, then "addr count" lines; with
 * console=on, on stderr when the window closes instead (LAVA, below),
 * each window of the run in turn (a LAVA toggle boot). Everything
 * runs on the one vCPU thread of a qemu-icount guest (-smp 1, no MTTCG),
 * so nothing here is locked.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <qemu-plugin.h>

#include "common/insn_profile.h"

#include "runners/perflab-bench/insn_marker.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

/* Blocks live in slabs that never move: inline ops hold their address. */
#define SLAB_BITS	12
#define SLAB_SIZE	(1u << SLAB_BITS)
#define MAX_SLABS	4096
#define USER_TOP	0x0000800000000000ull

struct block {
	uint64_t count;		/* inline counter: times entered */
	uint64_t base;		/* count at the start mark */
	uint64_t win;		/* entries inside the window */
	uint64_t vaddr;
	uint64_t key;		/* hash of the addresses and bytes */
	uint32_t n;		/* instructions */
	uint32_t addr_off;	/* first instruction address in addrs[] */
};

static struct block *slabs[MAX_SLABS];
static uint32_t nblocks;
static uint32_t *table;		/* open addressing: block index + 1 */
static uint32_t table_size;
static uint64_t *addrs;		/* instruction addresses of all blocks */
static uint64_t naddrs, addrs_cap;
static char *out_path;
static int to_console;		/* console=on: dump when the window closes */
static int console_done;
static int failed;		/* out of memory / too many blocks */

/* A mark instruction: its kind and where it sits. */
struct mark {
	int kind;		/* 1 start, 2 end */
	struct block *b;
	uint32_t idx;		/* instruction index in the block */
};

static struct {
	uint64_t starts, ends;	/* marks executed */
	uint64_t open;		/* threads inside the window */
	int state;		/* 0 before, 1 open, 2 closed */
	struct mark first, last; /* the marks that opened and closed it */
} win;

static struct block *block_at(uint32_t i)
{
	return &slabs[i >> SLAB_BITS][i & (SLAB_SIZE - 1)];
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;

	while (n--)
		h = (h ^ *c++) * 0x100000001b3ull;
	return h;
}

static uint64_t tb_key(struct qemu_plugin_tb *tb, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *in = qemu_plugin_tb_get_insn(tb, i);
		uint64_t va = qemu_plugin_insn_vaddr(in);

		h = fnv(h, &va, sizeof(va));
		h = fnv(h, qemu_plugin_insn_data(in), qemu_plugin_insn_size(in));
	}
	return h;
}

static int table_grow(void)
{
	uint32_t size = table_size ? table_size * 2 : 1u << 16;
	uint32_t *t = calloc(size, sizeof(*t));

	if (!t)
		return -1;
	for (uint32_t i = 0; i < nblocks; i++) {
		uint32_t h = (uint32_t)block_at(i)->key & (size - 1);

		while (t[h])
			h = (h + 1) & (size - 1);
		t[h] = i + 1;
	}
	free(table);
	table = t;
	table_size = size;
	return 0;
}

static int addrs_push(uint64_t va)
{
	if (naddrs == addrs_cap) {
		uint64_t cap = addrs_cap ? addrs_cap * 2 : 1u << 16;
		uint64_t *a = realloc(addrs, cap * sizeof(*a));

		if (!a)
			return -1;
		addrs = a;
		addrs_cap = cap;
	}
	addrs[naddrs++] = va;
	return 0;
}

/*
 * The block record for a translation. Retranslations of the same code at
 * the same address (after a TB flush, or icount's shortened blocks of the
 * same length) share one record, so memory stays bounded by the code run.
 */
static struct block *block_get(struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);
	uint64_t key = tb_key(tb, n), va = qemu_plugin_tb_vaddr(tb);
	struct block *b;
	uint32_t h;

	if ((uint64_t)(nblocks + 1) * 2 > table_size && table_grow())
		return NULL;
	for (h = (uint32_t)key & (table_size - 1); table[h];
	     h = (h + 1) & (table_size - 1)) {
		b = block_at(table[h] - 1);
		if (b->key == key && b->vaddr == va && b->n == n)
			return b;
	}
	if (nblocks >= MAX_SLABS * SLAB_SIZE || naddrs + n > UINT32_MAX)
		return NULL;
	if (!slabs[nblocks >> SLAB_BITS]) {
		slabs[nblocks >> SLAB_BITS] = calloc(SLAB_SIZE, sizeof(*b));
		if (!slabs[nblocks >> SLAB_BITS])
			return NULL;
	}
	b = block_at(nblocks);
	b->vaddr = va;
	b->key = key;
	b->n = (uint32_t)n;
	b->addr_off = (uint32_t)naddrs;
	for (size_t i = 0; i < n; i++)
		if (addrs_push(qemu_plugin_insn_vaddr(
				qemu_plugin_tb_get_insn(tb, i))))
			return NULL;
	table[h] = ++nblocks;
	return b;
}

static void snapshot(int start)
{
	for (uint32_t i = 0; i < nblocks; i++) {
		struct block *b = block_at(i);

		if (start)
			b->base = b->count;
		else
			b->win = b->count - b->base;
	}
}

static void dump_to_console(void);

static void on_mark(unsigned int vcpu, void *udata)
{
	const struct mark *m = udata;

	(void)vcpu;
	if (m->kind == 1) {
		win.starts++;
		if (win.state == 0) {
			snapshot(1);
			win.state = 1;
			win.first = *m;
			console_done = 0;
		}
		if (win.state == 1)
			win.open++;
		return;
	}
	win.ends++;
	if (win.state == 1 && --win.open == 0) {
		snapshot(0);
		win.state = 2;
		win.last = *m;
		if (to_console)
			dump_to_console();
	}
}

/*
 * Times instruction k of b ran inside the window: the block's entries,
 * corrected for the mark blocks (see the top of this file).
 */
static uint64_t insn_count(const struct block *b, uint32_t k)
{
	uint64_t c = b->win;

	if (b == win.first.b && k > win.first.idx)
		c++;
	if (b == win.last.b && k >= win.last.idx && c)
		c--;
	return c;
}

/* 1 start, 2 end, 0 not a mark; kernel addresses never mark. */
static int mark_kind(struct qemu_plugin_insn *in)
{
	if (qemu_plugin_insn_vaddr(in) >= USER_TOP)
		return 0;
	return insn_marker_kind(qemu_plugin_insn_data(in),
				qemu_plugin_insn_size(in));
}

static void on_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);
	struct block *b;

	(void)id;
	if (failed)
		return;
	b = block_get(tb);
	if (!b) {
		failed = 1;
		return;
	}
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
						 &b->count, 1);
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *in = qemu_plugin_tb_get_insn(tb, i);
		int k = mark_kind(in);
		struct mark *m;

		if (!k)
			continue;
		/* Never freed: a mark is translated a handful of times. */
		m = malloc(sizeof(*m));
		if (!m) {
			failed = 1;
			return;
		}
		*m = (struct mark){ .kind = k, .b = b, .idx = (uint32_t)i };
		qemu_plugin_register_vcpu_insn_exec_cb(in, on_mark,
						       QEMU_PLUGIN_CB_NO_REGS, m);
	}
}

/* Per-address totals: open addressing over the addresses in the window. */
struct acc {
	uint64_t *key, *val;
	uint64_t size, used;
};

static int acc_add(struct acc *a, uint64_t va, uint64_t c);

static int acc_grow(struct acc *a)
{
	struct acc n = { .size = a->size ? a->size * 2 : 1u << 16 };

	n.key = calloc(n.size, sizeof(*n.key));
	n.val = calloc(n.size, sizeof(*n.val));
	if (!n.key || !n.val) {
		free(n.key);
		free(n.val);
		return -1;
	}
	for (uint64_t i = 0; i < a->size; i++)
		if (a->val[i])
			acc_add(&n, a->key[i], a->val[i]);
	free(a->key);
	free(a->val);
	*a = n;
	return 0;
}

static int acc_add(struct acc *a, uint64_t va, uint64_t c)
{
	uint64_t h;

	if ((a->used + 1) * 2 > a->size && acc_grow(a))
		return -1;
	h = (va * 0x9e3779b97f4a7c15ull) >> 16;
	for (h &= a->size - 1; a->val[h] && a->key[h] != va;
	     h = (h + 1) & (a->size - 1))
		;
	if (!a->val[h]) {
		a->key[h] = va;
		a->used++;
	}
	a->val[h] += c;
	return 0;
}

static void write_profile(FILE *f, const struct acc *a, uint64_t total)
{
	fprintf(f, "perflab-insn 1\n");
	fprintf(f, "markers %" PRIu64 " %" PRIu64 "\n", win.starts, win.ends);
	fprintf(f, "window %s\n", failed ? "failed" : win.state == 2 ?
		"closed" : win.state == 1 ? "open" : "none");
	fprintf(f, "blocks %" PRIu32 "\n", nblocks);
	fprintf(f, "total %" PRIu64 "\n", total);
	fprintf(f, "addrs %" PRIu64 "\n", a->used);
	for (uint64_t i = 0; i < a->size; i++)
		if (a->val[i])
			fprintf(f, "%" PRIx64 " %" PRIu64 "\n", a->key[i],
				a->val[i]);
	fprintf(f, "end\n");
}

/* The window's per-address counts; a.used 0 and total 0 on failure. */
static uint64_t collect(struct acc *a)
{
	uint64_t total = 0;

	for (uint32_t i = 0; i < nblocks && win.state == 2 && !failed; i++) {
		struct block *b = block_at(i);

		for (uint32_t k = 0; k < b->n && !failed; k++) {
			uint64_t c = insn_count(b, k);

			if (c && acc_add(a, addrs[b->addr_off + k], c))
				failed = 1;
			total += c;
		}
	}
	if (failed) {
		free(a->key);
		free(a->val);
		memset(a, 0, sizeof(*a));
		total = 0;
	}
	return total;
}

/*
 * console=on: the profile goes to QEMU's stderr the moment the window
 * closes, framed by INSN_CONSOLE_BEGIN/END lines. Where QEMU's stdio is
 * the console someone else records (LAVA's dispatcher), that is the way
 * out; at exit is too late there, as the guest is killed, not powered
 * off. The vCPU waits while this writes, so no console byte of the guest
 * lands inside the frame; the guest's clock (icount) does not move.
 */
static void dump_to_console(void)
{
	struct acc a = { 0 };
	uint64_t total = collect(&a);
	char *buf = NULL;
	size_t len = 0, off = 0;
	FILE *f = open_memstream(&buf, &len);

	if (f) {
		fprintf(f, "\n" INSN_CONSOLE_BEGIN "\n");
		write_profile(f, &a, total);
		fprintf(f, INSN_CONSOLE_END "\n");
	}
	if (!f || fclose(f)) {
		fprintf(stderr, "perflab-insn: out of memory for the profile\n");
		goto out;
	}
	/* QEMU's stdio is non-blocking: wait for room, never drop a byte. */
	while (off < len) {
		ssize_t n = write(2, buf + off, len - off);
		struct pollfd p = { .fd = 2, .events = POLLOUT };

		if (n > 0)
			off += (size_t)n;
		else if (n < 0 && (errno == EAGAIN || errno == EINTR))
			poll(&p, 1, 1000);
		else
			break;
	}
out:
	free(buf);
	free(a.key);
	free(a.val);
	console_done = 1;
	/* Alone, console=on dumps each window as it closes: a LAVA toggle
	 * boot runs one bench (one window) per run. */
	if (!out_path && win.state == 2) {
		win.state = 0;
		win.starts = win.ends = win.open = 0;
	}
}

static void on_exit_cb(qemu_plugin_id_t id, void *udata)
{
	struct acc a = { 0 };
	uint64_t total;
	FILE *f;

	(void)id;
	(void)udata;
	if (!out_path) {
		/* console=on without out=: a window that never closed. */
		if (!console_done)
			dump_to_console();
		return;
	}
	total = collect(&a);
	f = fopen(out_path, "w");
	if (!f) {
		perror(out_path);
	} else {
		write_profile(f, &a, total);
		if (fclose(f))
			perror(out_path);
	}
	free(a.key);
	free(a.val);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info, int argc,
					   char **argv)
{
	for (int i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4) && argv[i][4]) {
			out_path = argv[i] + 4;
		} else if (!strcmp(argv[i], "console=on")) {
			to_console = 1;
		} else {
			fprintf(stderr, "perflab-insn: unknown argument %s "
				"(want out=FILE or console=on)\n", argv[i]);
			return -1;
		}
	}
	if (!out_path && !to_console) {
		fprintf(stderr, "perflab-insn: out=FILE or console=on is "
			"required\n");
		return -1;
	}
	/* Inline adds are not atomic: exact only with one vCPU thread. */
	if (info->system_emulation && info->system.max_vcpus > 1) {
		fprintf(stderr, "perflab-insn: needs -smp 1\n");
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_trans);
	qemu_plugin_register_atexit_cb(id, on_exit_cb, NULL);
	return 0;
}
