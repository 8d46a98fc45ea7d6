// SPDX-License-Identifier: MIT
/*
 * perfdiff_opts - the options of a perf diff (perfdiff.h) by name: perf
 * diff's -c (compute) and -s (sort keys) as the API and the CLI spell them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/analysis/perfdiff.h"

void perfdiff_default_opts(struct perfdiff_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->compute = PERFDIFF_DELTA;
	o->w1 = 1;
	o->w2 = 1;
	o->sort = PERFDIFF_SORT_DEFAULT;
	o->sort_idx = 1;
	o->tol_abs = PERFDIFF_TOL_ABS;
	o->tol_rel = PERFDIFF_TOL_REL;
}

static int parse_weight(const char *s, char **end, int64_t *w)
{
	long long v;

	errno = 0;
	v = strtoll(s, end, 10);
	if (errno || *end == s || v == 0 || v > 1000000 || v < -1000000)
		return -1;
	*w = v;
	return 0;
}

static const char *const compute_names[] = {
	[PERFDIFF_DELTA] = "delta",
	[PERFDIFF_DELTA_ABS] = "delta-abs",
	[PERFDIFF_RATIO] = "ratio",
	[PERFDIFF_WDIFF] = "wdiff",
};

int perfdiff_parse_compute(const char *s, struct perfdiff_opts *o)
{
	char *end;
	int i;

	if (!strncmp(s, "wdiff:", 6)) {
		if (parse_weight(s + 6, &end, &o->w1) || *end != ',' ||
		    parse_weight(end + 1, &end, &o->w2) || *end)
			return -1;
		o->compute = PERFDIFF_WDIFF;
		return 0;
	}
	for (i = PERFDIFF_DELTA; i < PERFDIFF_WDIFF; i++) {
		if (!strcmp(s, compute_names[i])) {
			o->compute = i;
			return 0;
		}
	}
	return -1;
}

const char *perfdiff_compute_name(const struct perfdiff_opts *o, char *buf,
				  size_t size)
{
	if (o->compute != PERFDIFF_WDIFF)
		return compute_names[o->compute];
	snprintf(buf, size, "wdiff:%" PRId64 ",%" PRId64, o->w1, o->w2);
	return buf;
}

static const char *const sort_names[] = {
	[PERFDIFF_SORT_DEFAULT] = "default",
	[PERFDIFF_SORT_BASELINE] = "baseline",
	[PERFDIFF_SORT_NEW] = "new",
	[PERFDIFF_SORT_DELTA] = "delta",
	[PERFDIFF_SORT_DELTA_ABS] = "delta-abs",
	[PERFDIFF_SORT_RATIO] = "ratio",
	[PERFDIFF_SORT_WDIFF] = "wdiff",
	[PERFDIFF_SORT_STDDEV] = "stddev",
	[PERFDIFF_SORT_SAMPLES] = "samples",
	[PERFDIFF_SORT_DSO] = "dso",
	[PERFDIFF_SORT_SYMBOL] = "symbol",
};

const char *perfdiff_sort_name(enum perfdiff_sort s)
{
	return sort_names[s];
}

int perfdiff_parse_sort(const char *s, enum perfdiff_sort *out)
{
	size_t i;

	for (i = 0; i < sizeof(sort_names) / sizeof(sort_names[0]); i++) {
		if (!strcmp(s, sort_names[i])) {
			*out = i;
			return 0;
		}
	}
	return -1;
}
