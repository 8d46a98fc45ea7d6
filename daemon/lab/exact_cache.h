/* SPDX-License-Identifier: MIT */
/*
 * Exact profiles' cache model: the fields the perflab-insn plugin's
 * cache model adds to bench.exact_profile (docs/contracts.md section 1,
 * common/insn_profile_json.c):
 *
 *	"cache": {"model": "lru-write-allocate", "line": 64,
 *		  "l1i": {"size": S, "ways": W}, "l1d": {...}, "ll": {...},
 *		  "weights": {"l1_hit": 1, "ll_hit": 5, "ram": 35}},
 *	"data_reads", "data_writes", "l1i_misses", "l1d_read_misses",
 *	"l1d_write_misses", "ll_misses", "est_cycles"   (window totals)
 *
 * and the same seven counts on every symbol; the per-IO figures the
 * metric table names sit in bench.exact_cost ("est_cycles_per_io",
 * "l1_misses_per_io", "ll_misses_per_io"; one-level metric paths). Refused unless every count
 * is an integer in [0, 2^53], the geometry is a real cache (power-of-two
 * sets, 1-64 ways), the weights are ordered, no LL misses more than its
 * L1s, no L1 misses more than two lines per access, est_cycles is what
 * the weights give, the per-IO figures are the totals over ios, and the
 * symbols' counts do not exceed the totals.
 */
#ifndef PERFLAB_EXACT_CACHE_H
#define PERFLAB_EXACT_CACHE_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "daemon/store/conn.h"

/* The profile-level keys this module owns (NULL-terminated). */
extern const char *const exact_cache_keys[];
/* The symbol-level keys (NULL-terminated). */
extern const char *const exact_cache_symbol_keys[];

/*
 * Profile @p (its base fields already checked: ios, total, symbols an
 * array of objects): 0 when it has no cache fields at all or valid ones;
 * -1 with the reason in @err.
 */
int exact_cache_check(json_t *p, char *err, size_t errlen);

/*
 * bench.exact_cost against bench.exact_profile: required with a cache
 * model and equal to its totals over ios, refused with a profile without
 * one; alone (no exact profile) only its shape is checked. 0 or -1.
 */
int exact_cache_check_cost(json_t *bench, char *err, size_t errlen);

/* Store a validated profile's cache fields (none: nothing); 0 or -1. */
int exact_cache_store(store_conn *db, int64_t run, json_t *p);

#endif
