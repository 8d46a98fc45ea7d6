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
 *
 * cache=on adds a cache model (cache_model.h; geometry from l1i=, l1d=,
 * ll= as SIZE:WAYS and line=BYTES, defaults below) fed by a callback per
 * instruction fetch and per memory access. The model runs from the
 * start (the window sees warm caches, as hardware would) but counts only
 * while the window is open, per instruction: data reads and writes and
 * the misses of each level (the events of Cachegrind). Fetches are
 * modelled per line: within a block an instruction in the line the
 * previous one ended in is a certain L1I hit (that line is the most
 * recent one), so it needs no callback. The marks themselves fetch and
 * access nothing (they are the apparatus, not the code measured).
 * System mode models data at guest-physical addresses (the guest's real
 * page mapping; MMIO is not cached and not counted) and code at virtual
 * ones (no physical address of an instruction is offered by the API;
 * kernel text is mapped linearly, so its set indexes are the physical
 * ones); user code gets bit 63 set so it never aliases physical data.
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
#include "runners/insn-plugin/cache_model.h"

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
	uint32_t ev_off;	/* first instruction's events (cache=on) */
	uint8_t tail_at_page_end; /* n > 1, the last ends where a page does */
	uint8_t tail_cut;	/* ... and is a cut copy: never runs here */
};

/* Cache events per instruction, in the order of the output columns. */
enum { EV_DR, EV_DW, EV_I1M, EV_D1RM, EV_D1WM, EV_LLIM, EV_LLDRM, EV_LLDWM,
       EV_N };

struct insn_ev {
	uint64_t ev[EV_N];	/* counted in the window */
	uint64_t vaddr;		/* fetch address (bit 63 for user, system) */
	uint32_t size;
};

/* Default geometry: an Intel Skylake client core's L1s, 2 MiB of LL. */
static struct cache_geom geom_l1i = { 32768, 8 }, geom_l1d = { 32768, 8 },
			 geom_ll = { 2u << 20, 16 };
static unsigned geom_line = 64;
static int cache_on;
static int sys_mode;
static struct cache_model cm;
static struct insn_ev *ev_slabs[MAX_SLABS * 4];
static uint32_t nevs;
static uint64_t ev_total[EV_N];	/* window totals: the output's check */

/*
 * Cut instructions. QEMU 7.2's x86 translator ends a block before an
 * instruction that reaches past the block's first page and translates it
 * again as the first of the next block, but the plugin API still lists
 * its first page's bytes as the last instruction of the first block (its
 * callbacks are dropped, not the entry). Counted there, every page-
 * straddling instruction would run twice (the Cachegrind cross-check,
 * tests/runner/insn-plugin-cachegrind.sh, showed it). A block's last
 * instruction ending at a page end is a cut copy when the same address
 * starts some block as an instruction that does straddle the page.
 */
#define GUEST_PAGE	4096ull

static uint64_t *straddlers;	/* first instructions that cross a page */
static size_t nstraddlers, straddlers_cap;

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

static struct insn_ev *ev_at(uint32_t i)
{
	return &ev_slabs[i >> SLAB_BITS][i & (SLAB_SIZE - 1)];
}

/* n consecutive event records (never moved: callbacks hold them). */
static int ev_alloc(struct block *b, struct qemu_plugin_tb *tb, size_t n)
{
	if ((uint64_t)nevs + n > (uint64_t)MAX_SLABS * 4 * SLAB_SIZE)
		return -1;
	b->ev_off = nevs;
	for (size_t i = 0; i < n; i++, nevs++) {
		struct qemu_plugin_insn *in = qemu_plugin_tb_get_insn(tb, i);
		struct insn_ev *r;

		if (!ev_slabs[nevs >> SLAB_BITS]) {
			ev_slabs[nevs >> SLAB_BITS] =
				calloc(SLAB_SIZE, sizeof(*r));
			if (!ev_slabs[nevs >> SLAB_BITS])
				return -1;
		}
		r = ev_at(nevs);
		r->vaddr = qemu_plugin_insn_vaddr(in);
		if (sys_mode && r->vaddr < USER_TOP)
			r->vaddr |= 1ull << 63;
		r->size = (uint32_t)qemu_plugin_insn_size(in);
	}
	return 0;
}

static int ends_at_page_end(struct qemu_plugin_insn *in)
{
	return !((qemu_plugin_insn_vaddr(in) + qemu_plugin_insn_size(in)) &
		 (GUEST_PAGE - 1));
}

static int crosses_page(struct qemu_plugin_insn *in)
{
	uint64_t va = qemu_plugin_insn_vaddr(in);

	return (va ^ (va + qemu_plugin_insn_size(in) - 1)) & ~(GUEST_PAGE - 1);
}

static int page_marks(struct block *b, struct qemu_plugin_tb *tb, size_t n)
{
	struct qemu_plugin_insn *first = qemu_plugin_tb_get_insn(tb, 0);

	b->tail_at_page_end = n > 1 &&
			      ends_at_page_end(qemu_plugin_tb_get_insn(tb, n - 1));
	if (!crosses_page(first))
		return 0;
	if (nstraddlers == straddlers_cap) {
		size_t cap = straddlers_cap ? straddlers_cap * 2 : 1024;
		uint64_t *s = realloc(straddlers, cap * sizeof(*s));

		if (!s)
			return -1;
		straddlers = s;
		straddlers_cap = cap;
	}
	straddlers[nstraddlers++] = qemu_plugin_insn_vaddr(first);
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Before counting: flag the blocks that end in a cut instruction. */
static void find_cut_tails(void)
{
	qsort(straddlers, nstraddlers, sizeof(*straddlers), cmp_u64);
	for (uint32_t i = 0; i < nblocks; i++) {
		struct block *b = block_at(i);
		uint64_t last = addrs[b->addr_off + b->n - 1];

		b->tail_cut = b->tail_at_page_end &&
			      bsearch(&last, straddlers, nstraddlers,
				      sizeof(*straddlers), cmp_u64);
	}
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
	if (cache_on && ev_alloc(b, tb, n))
		return NULL;
	if (page_marks(b, tb, n))
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

	if (b->tail_cut && k == b->n - 1)
		return 0;
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

static void ev_count(struct insn_ev *r, int e, uint64_t n)
{
	r->ev[e] += n;
	ev_total[e] += n;
}

static void on_fetch(unsigned int vcpu, void *udata)
{
	struct insn_ev *r = udata;
	struct cache_miss m = cache_model_ref(&cm, CACHE_I, r->vaddr, r->size);

	(void)vcpu;
	if (win.state != 1)
		return;
	ev_count(r, EV_I1M, m.l1);
	ev_count(r, EV_LLIM, m.ll);
}

static void on_mem(unsigned int vcpu, qemu_plugin_meminfo_t info,
		   uint64_t vaddr, void *udata)
{
	struct insn_ev *r = udata;
	int w = qemu_plugin_mem_is_store(info);
	uint64_t addr = vaddr;
	struct cache_miss m;

	(void)vcpu;
	if (sys_mode) {
		struct qemu_plugin_hwaddr *hw = qemu_plugin_get_hwaddr(info,
								       vaddr);

		if (!hw || qemu_plugin_hwaddr_is_io(hw))
			return;
		addr = qemu_plugin_hwaddr_phys_addr(hw);
	}
	m = cache_model_ref(&cm, CACHE_D, addr,
			    1u << qemu_plugin_mem_size_shift(info));
	if (win.state != 1)
		return;
	ev_count(r, w ? EV_DW : EV_DR, 1);
	ev_count(r, w ? EV_D1WM : EV_D1RM, m.l1);
	ev_count(r, w ? EV_LLDWM : EV_LLDRM, m.ll);
}

/*
 * Cache callbacks of instruction i: a fetch unless it lies in the line
 * the previous instruction of the block ended in (*line), data always.
 */
static void register_cache(struct qemu_plugin_insn *in, struct insn_ev *r,
			   uint64_t *line)
{
	unsigned lb = cm.line_bits;
	uint64_t first = r->vaddr >> lb, last = (r->vaddr + r->size - 1) >> lb;

	if (first != *line || last != first)
		qemu_plugin_register_vcpu_insn_exec_cb(in, on_fetch,
						       QEMU_PLUGIN_CB_NO_REGS, r);
	*line = last;
	qemu_plugin_register_vcpu_mem_cb(in, on_mem, QEMU_PLUGIN_CB_NO_REGS,
					 QEMU_PLUGIN_MEM_RW, r);
}

static void on_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	uint64_t line = UINT64_MAX;
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

		if (!k) {
			if (cache_on)
				register_cache(in, ev_at(b->ev_off + i), &line);
			continue;
		}
		line = UINT64_MAX;	/* the next fetch is not implied */
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

/*
 * Per-address totals: open addressing over the addresses in the window;
 * each slot holds the instruction count, then (cache=on) the events.
 */
#define ACC_W	(cache_on ? 1 + EV_N : 1)

struct acc {
	uint64_t *key, *val;	/* val: ACC_W per slot */
	unsigned char *full;
	uint64_t size, used;
};

static int acc_add(struct acc *a, uint64_t va, const uint64_t *v);

static void acc_free(struct acc *a)
{
	free(a->key);
	free(a->val);
	free(a->full);
	memset(a, 0, sizeof(*a));
}

static int acc_grow(struct acc *a)
{
	struct acc n = { .size = a->size ? a->size * 2 : 1u << 16 };

	n.key = calloc(n.size, sizeof(*n.key));
	n.val = calloc(n.size * ACC_W, sizeof(*n.val));
	n.full = calloc(n.size, 1);
	if (!n.key || !n.val || !n.full) {
		acc_free(&n);
		return -1;
	}
	for (uint64_t i = 0; i < a->size; i++)
		if (a->full[i])
			acc_add(&n, a->key[i], a->val + i * ACC_W);
	acc_free(a);
	*a = n;
	return 0;
}

static int acc_add(struct acc *a, uint64_t va, const uint64_t *v)
{
	unsigned w = ACC_W;
	uint64_t h;

	if ((a->used + 1) * 2 > a->size && acc_grow(a))
		return -1;
	h = (va * 0x9e3779b97f4a7c15ull) >> 16;
	for (h &= a->size - 1; a->full[h] && a->key[h] != va;
	     h = (h + 1) & (a->size - 1))
		;
	if (!a->full[h]) {
		a->key[h] = va;
		a->full[h] = 1;
		a->used++;
	}
	for (unsigned k = 0; k < w; k++)
		a->val[h * w + k] += v[k];
	return 0;
}

static void write_profile(FILE *f, const struct acc *a, uint64_t total)
{
	unsigned w = ACC_W;

	fprintf(f, "perflab-insn %d\n", cache_on ? 2 : 1);
	fprintf(f, "markers %" PRIu64 " %" PRIu64 "\n", win.starts, win.ends);
	fprintf(f, "window %s\n", failed ? "failed" : win.state == 2 ?
		"closed" : win.state == 1 ? "open" : "none");
	fprintf(f, "blocks %" PRIu32 "\n", nblocks);
	fprintf(f, "total %" PRIu64 "\n", total);
	if (cache_on) {
		fprintf(f, "cache line %u l1i %" PRIu64 " %u l1d %" PRIu64
			" %u ll %" PRIu64 " %u\n", geom_line, geom_l1i.size,
			geom_l1i.ways, geom_l1d.size, geom_l1d.ways,
			geom_ll.size, geom_ll.ways);
		fprintf(f, "events");
		for (int e = 0; e < EV_N; e++)
			fprintf(f, " %" PRIu64, failed ? 0 : ev_total[e]);
		fprintf(f, "\n");
	}
	fprintf(f, "addrs %" PRIu64 "\n", a->used);
	for (uint64_t i = 0; i < a->size; i++) {
		if (!a->full[i])
			continue;
		fprintf(f, "%" PRIx64, a->key[i]);
		for (unsigned k = 0; k < w; k++)
			fprintf(f, " %" PRIu64, a->val[i * w + k]);
		fprintf(f, "\n");
	}
	fprintf(f, "end\n");
}

/* The window's per-address counts; a.used 0 and total 0 on failure. */
static uint64_t collect(struct acc *a)
{
	uint64_t total = 0, v[1 + EV_N];

	find_cut_tails();
	for (uint32_t i = 0; i < nblocks && win.state == 2 && !failed; i++) {
		struct block *b = block_at(i);

		for (uint32_t k = 0; k < b->n && !failed; k++) {
			int any;

			v[0] = insn_count(b, k);
			any = v[0] != 0;
			for (int e = 0; cache_on && e < EV_N; e++) {
				v[1 + e] = ev_at(b->ev_off + k)->ev[e];
				any |= v[1 + e] != 0;
			}
			if (any && acc_add(a, addrs[b->addr_off + k], v))
				failed = 1;
			total += v[0];
		}
	}
	if (failed) {
		acc_free(a);
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
	acc_free(&a);
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
	acc_free(&a);
}

/* One plugin argument of the cache model; 0 taken, 1 not one, -1 bad. */
static int cache_arg(const char *a)
{
	struct cache_geom *g = !strncmp(a, "l1i=", 4) ? &geom_l1i :
			       !strncmp(a, "l1d=", 4) ? &geom_l1d :
			       !strncmp(a, "ll=", 3) ? &geom_ll : NULL;
	char *e;

	if (!strcmp(a, "cache=on") || !strcmp(a, "cache=off")) {
		cache_on = !strcmp(a, "cache=on");
		return 0;
	}
	if (g)
		return cache_geom_parse(strchr(a, '=') + 1, g) ? -1 : 0;
	if (strncmp(a, "line=", 5))
		return 1;
	geom_line = (unsigned)strtoul(a + 5, &e, 10);
	return *e || a[5] < '0' || a[5] > '9' ? -1 : 0;
}

static int cache_setup(void)
{
	char err[160];

	if (!cache_on)
		return 0;
	if (cache_model_init(&cm, geom_line, geom_l1i, geom_l1d, geom_ll, err,
			     sizeof(err))) {
		fprintf(stderr, "perflab-insn: cache model: %s\n", err);
		return -1;
	}
	return 0;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info, int argc,
					   char **argv)
{
	for (int i = 0; i < argc; i++) {
		int c = cache_arg(argv[i]);

		if (c < 0) {
			fprintf(stderr, "perflab-insn: bad %s (want SIZE:WAYS, "
				"SIZE in bytes or with K/M, or line=BYTES)\n",
				argv[i]);
			return -1;
		}
		if (!c)
			continue;
		if (!strncmp(argv[i], "out=", 4) && argv[i][4]) {
			out_path = argv[i] + 4;
		} else if (!strcmp(argv[i], "console=on")) {
			to_console = 1;
		} else {
			fprintf(stderr, "perflab-insn: unknown argument %s "
				"(want out=FILE, console=on, cache=on|off, "
				"l1i=, l1d=, ll=, line=)\n", argv[i]);
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
	sys_mode = info->system_emulation;
	if (cache_setup())
		return -1;
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_trans);
	qemu_plugin_register_atexit_cb(id, on_exit_cb, NULL);
	return 0;
}
