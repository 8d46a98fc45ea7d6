/* SPDX-License-Identifier: MIT */
/*
 * exact_load - the exact profiles of an experiment's variants as perf diff
 * sides (perfdiff_exact.h): for the perf-diff endpoint and for reports.
 */
#ifndef PERFLAB_EXACT_LOAD_H
#define PERFLAB_EXACT_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "daemon/store/conn.h"

#include "daemon/analysis/perfdiff_exact.h"

#define EXACT_LOAD_MAX_SIDES 16

struct pdx_variant {
	int64_t id;
	const char *name;
};

struct xload {
	struct pdx_side sides[EXACT_LOAD_MAX_SIDES];
	size_t nsides;
};

/*
 * The control @v[0] and @v[pick] (every variant with exact profiles when
 * @pick is 0) into @l. 0 loaded, 1 nothing to diff (@why names the
 * variant without exact profiles, or is NULL), -1 database error. Free
 * @l with xload_free() in every case.
 */
int xload_sides(store_conn *db, const struct pdx_variant *v, size_t nv,
		size_t pick, struct xload *l, const char **why);
void xload_free(struct xload *l);

#endif /* PERFLAB_EXACT_LOAD_H */
