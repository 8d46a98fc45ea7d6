/* SPDX-License-Identifier: MIT */
/*
 * insn_profile: exact instruction profiles of the qemu-icount tier.
 *
 * The perflab-insn QEMU plugin (runners/insn-plugin) writes, at exit:
 *
 *   perflab-insn 1
 *   markers STARTS ENDS        marker instructions executed
 *   window closed|open|none|failed
 *   blocks N                   translated blocks seen (informational)
 *   total T                    instructions executed in the window
 *   addrs N                    number of lines that follow
 *   <hex address> <count>      N lines, any order, distinct addresses
 *   end
 *
 * With the plugin's cache model on (cache=on) the first line says
 * "perflab-insn 2", two lines follow "total":
 *
 *   cache line L l1i SIZE WAYS l1d SIZE WAYS ll SIZE WAYS
 *   events DR DW I1M D1RM D1WM LLIM LLDRM LLDWM    window totals
 *
 * and each address line carries those eight events after its count:
 * data reads and writes, L1I misses, L1D read and write misses, LL
 * misses of fetches, reads and writes (Cachegrind's events, whose model
 * this is: runners/insn-plugin/cache_model.h). Each column must add up
 * to its total, and per address no level may miss more than it was
 * accessed (an LL miss is an L1 miss first; an access straddles at most
 * two lines).
 *
 * With console=on the plugin writes the same text to QEMU's stderr when
 * the window closes, between two lines INSN_CONSOLE_BEGIN and
 * INSN_CONSOLE_END (a LAVA-driven guest's console is the only channel
 * back; daemon/lab/lava_console.h reads it there).
 *
 * That file is hostile input (the guest runs a patch under test and
 * decides what executes), so the parser is strict: bounded sizes, exact
 * syntax, no overflow, the counts must add up to the total.
 *
 * Symbol tables come in System.map / `nm -n` format ("addr type name");
 * only text symbols (t, T, w, W) are kept, each covering up to the next
 * text symbol's address.
 */
#ifndef PERFLAB_INSN_PROFILE_H
#define PERFLAB_INSN_PROFILE_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#define INSN_CONSOLE_BEGIN "==PERFLAB-INSN-BEGIN=="
#define INSN_CONSOLE_END "==PERFLAB-INSN-END=="

/* Guest addresses at or above this are kernel (x86-64 canonical split). */
#define INSN_PROF_KERNEL_START	0xffff800000000000ull
/* Refuse plugin output larger than this (a few MB in practice). */
#define INSN_PROF_MAX_BYTES	(256u << 20)
#define INSN_PROF_MAX_ADDRS	(8u << 20)

enum insn_window { INSN_WIN_NONE, INSN_WIN_OPEN, INSN_WIN_CLOSED,
		   INSN_WIN_FAILED };

/* The cache events of a v2 profile, in the order of its columns. */
enum insn_event { INSN_EV_DR, INSN_EV_DW, INSN_EV_I1M, INSN_EV_D1RM,
		  INSN_EV_D1WM, INSN_EV_LLIM, INSN_EV_LLDRM, INSN_EV_LLDWM,
		  INSN_EV_N };

struct insn_cache_geom {
	uint64_t line, l1i_size, l1i_ways, l1d_size, l1d_ways, ll_size,
		ll_ways;
};

struct insn_prof {
	uint64_t starts, ends, blocks, total;
	enum insn_window window;
	size_t n;
	uint64_t *addr;		/* ascending */
	uint64_t *count;
	int cache;		/* a v2 profile: the fields below are set */
	struct insn_cache_geom geom;
	uint64_t ev_total[INSN_EV_N];
	uint64_t *ev;		/* n * INSN_EV_N, in addr's order */
};

struct insn_symtab {
	size_t n;
	uint64_t *start;	/* ascending, distinct */
	uint64_t *end;		/* start of the next symbol; last: start */
	char **name;
};

/* 0 ok; -1 with a message in err (p is then empty). */
int insn_prof_parse(const char *text, size_t len, struct insn_prof *p,
		    char *err, size_t errlen);
void insn_prof_free(struct insn_prof *p);

/* 0 ok (lines that are not text symbols are skipped); -1 out of memory. */
int insn_symtab_parse(const char *text, size_t len, struct insn_symtab *t);
/* Index of the symbol covering addr, or -1. */
long insn_symtab_find(const struct insn_symtab *t, uint64_t addr);
void insn_symtab_free(struct insn_symtab *t);

/*
 * The "exact_profile" object of the bench JSON (docs/contracts.md §1):
 * kernel addresses resolved in ksyms as "[kernel.kallsyms]", user ones
 * in usyms as udso; symbols of one name merged; sorted by insns
 * descending. Needs a closed window with as many end as start marks.
 * NULL with err otherwise. A v2 profile adds the cache model's fields
 * (daemon/lab/exact_cache.h) with estimated cycles (common/cache_cost.h).
 */
json_t *insn_prof_json(const struct insn_prof *p, uint64_t ios,
		       const struct insn_symtab *ksyms,
		       const struct insn_symtab *usyms, const char *udso,
		       char *err, size_t errlen);

/*
 * bench["exact_cost"] of an exact_profile with the cache model: the
 * per-IO figures the metric table names, {"est_cycles_per_io",
 * "l1_misses_per_io", "ll_misses_per_io"} (totals over ios). NULL
 * without the cache model.
 */
json_t *insn_prof_cost_json(const json_t *exact);

/* bench["exact_profile"] = exact (stolen), and its exact_cost if any. */
void insn_prof_attach(json_t *bench, json_t *exact);

#endif
