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
#include "daemon/lab/status.h"
#include "daemon/store/conn.h"

#define PROFILES_MAX_SIDES 16

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
 * The perf diff of experiment @exp with options @o: the control, then the
 * variant named @variant, or every other variant with profiles of the
 * kind when @variant is NULL (one whose build failed is left out); @kind
 * NULL picks it. Its strings live in @d: free the result with
 * perfdiff_free(), then @d with profiles_diff_free(), in every case. NULL
 * with @e: not found (experiment, variant), invalid (the control named,
 * @o's order beyond the variants), conflict (nothing to diff yet),
 * rejected (profiles that cannot be compared), internal.
 */
struct perfdiff_result *profiles_perfdiff(store_conn *db, int64_t exp,
					  const char *variant,
					  const struct perfdiff_kind *kind,
					  const struct perfdiff_opts *o,
					  struct profiles_diff *d,
					  struct lab_err *e);
void profiles_diff_free(struct profiles_diff *d);

struct profiles_stacks {
	const char *base_name, *new_name;
	struct fg_stack *base, *new; /* summed over each variant's runs */
	size_t nr_base, nr_new;
	struct profiles_arena strings;
};

/*
 * The call stacks of the control and @variant (NULL: the only other
 * one). 0, or -1 with @e as profiles_perfdiff() (conflict: no stacks).
 * Free @s with profiles_stacks_free() in every case.
 */
int profiles_stacks(store_conn *db, int64_t exp, const char *variant,
		    struct profiles_stacks *s, struct lab_err *e);
void profiles_stacks_free(struct profiles_stacks *s);

#endif /* PERFLAB_PROFILES_H */
