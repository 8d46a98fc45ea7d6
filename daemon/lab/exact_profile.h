/* SPDX-License-Identifier: MIT */
/*
 * Exact profiles: instructions executed per symbol in the
 * measured window of one run, counted by the QEMU TCG plugin and uploaded
 * as bench.exact_profile (docs/contracts.md section 1):
 *
 *	{"kind": "instructions", "source": "qemu-tcg-plugin", "ios": N,
 *	 "total": T, "kernel": K, "user": U, "unattributed": X,
 *	 "symbols": [{"dso": D, "sym": S, "insns": I}, ...]}
 *
 * Validation is strict because the body comes from a runner: every field
 * typed and bounded, no unknown keys, ios > 0, kernel + user <= total and
 * sum(insns) + unattributed <= total. Storage happens inside the caller's
 * transaction, so a refused or failed profile stores nothing of the run.
 */
#ifndef PERFLAB_EXACT_PROFILE_H
#define PERFLAB_EXACT_PROFILE_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "daemon/store/conn.h"
#include "daemon/lab/status.h"

#define EXACT_MAX_SYMBOLS 200000
#define EXACT_MAX_NAME 1024 /* dso or symbol name, bytes */
#define EXACT_MAX_SOURCE 64
#define EXACT_MAX_COUNT (INT64_C(1) << 53) /* exact in a JSON double */

/* 0, or -1 LAB_INVALID naming the offending field. */
int exact_profile_validate(json_t *p, struct lab_err *e);

/*
 * Store the totals of a validated profile of run @run (ingest stores its
 * symbols with the sampled profiles' counts); 0 or -1 (database error).
 */
int exact_profile_store_head(store_conn *db, int64_t run, json_t *p);

#endif
