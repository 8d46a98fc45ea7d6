/* SPDX-License-Identifier: MIT */
/*
 * profiles - the stored profiles of an experiment's variants, loaded for
 * the perf diff (the sides of one profile kind, analysis/perfdiff.h) and
 * for the differential flame graph (the call stacks of two variants).
 *
 * Each kind the lab stores is one entry of a table in profiles.c: the
 * analysis kind and two SELECTs, its runs' counters and its runs'
 * per-symbol figures. Without ?kind= the first kind in that table whose
 * profiles the sides have is served (exact counts before samples).
 */
#ifndef PERFLAB_PROFILES_H
#define PERFLAB_PROFILES_H

#include <stddef.h>
#include <stdint.h>

#include "daemon/analysis/flamegraph.h"
#include "daemon/analysis/perfdiff.h"

#define PROFILES_MAX_SIDES 16

struct sqlite3; /* the store's connection; http/ never sees inside */

/* Why a load gave nothing; the message says it to the client. */
enum profiles_status {
	PROFILES_OK,
	PROFILES_NOT_FOUND, /* no such experiment or variant */
	PROFILES_INVALID, /* a request that cannot be answered (the control) */
	PROFILES_CONFLICT, /* nothing to diff yet */
	PROFILES_ERROR, /* database error or out of memory */
};

/* The kind named @name, or NULL; its names "a, b or c" into @buf. */
const struct perfdiff_kind *profiles_kind(const char *name);
void profiles_kind_names(char *buf, size_t size);

struct profiles_arena {
	char *blk;
	size_t used, cap;
	char **old;
	size_t nold;
};

struct profiles_diff {
	const struct perfdiff_kind *kind;
	struct perfdiff_side sides[PROFILES_MAX_SIDES];
	size_t nr_sides;
	int64_t sampled_runs; /* the experiment's runs with sampled profiles */
	struct profiles_arena strings;
};

/*
 * The sides of the perf diff of experiment @exp: the control, then the
 * variant named @variant, or every other variant with profiles of the
 * kind when @variant is NULL (one whose build failed is left out). @kind
 * NULL picks it. Free @d with profiles_diff_free() in every case.
 */
enum profiles_status profiles_diff(struct sqlite3 *db, int64_t exp,
				   const char *variant,
				   const struct perfdiff_kind *kind,
				   struct profiles_diff *d, char *err,
				   size_t errlen);
void profiles_diff_free(struct profiles_diff *d);

struct profiles_stacks {
	const char *base_name, *new_name;
	struct fg_stack *base, *new; /* summed over each variant's runs */
	size_t nr_base, nr_new;
	struct profiles_arena strings;
};

/*
 * The call stacks of the control and @variant (NULL: the only other
 * one). Free @s with profiles_stacks_free() in every case.
 */
enum profiles_status profiles_stacks(struct sqlite3 *db, int64_t exp,
				     const char *variant,
				     struct profiles_stacks *s, char *err,
				     size_t errlen);
void profiles_stacks_free(struct profiles_stacks *s);

#endif /* PERFLAB_PROFILES_H */
