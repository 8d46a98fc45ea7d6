// SPDX-License-Identifier: MIT
/*
 * Metric table; see metric_defs.h. Rows stay in display order: the web UI
 * and the CLI list metrics as they come. The named rows (METRIC_*) come
 * first.
 */
#include <string.h>

#include "common/metric_defs.h"

const struct metric_def metric_defs[] = {
	[METRIC_IOPS] = { "iops", "summary.mean", 'n', "IO/s",
			  METRIC_HIGHER_IS_BETTER, 1, "IOPS", "%.0f" },
	[METRIC_NS_PER_IO] = { "ns_per_io", "summary.ns_per_io", 'n', "ns",
			       METRIC_LOWER_IS_BETTER, 1, "ns/IO", "%.2f" },
	[METRIC_CPU_SYS_NS_PER_IO] = { "cpu_sys_ns_per_io", "cpu.sys_ns_per_io",
				       'n', "ns", METRIC_LOWER_IS_BETTER, 0,
				       "CPU sys ns/IO", "%.1f" },
	[METRIC_CPU_USER_NS_PER_IO] = { "cpu_user_ns_per_io", "cpu.user_ns_per_io",
					'n', "ns", METRIC_LOWER_IS_BETTER, 0,
					"CPU user ns/IO", "%.1f" },
	{ "iops_median", "summary.median", 'n', "IO/s",
	  METRIC_HIGHER_IS_BETTER, 0, "IOPS median", "%.0f" },
	{ "iops_stddev", "summary.stddev", 'n', "IO/s",
	  METRIC_LOWER_IS_BETTER, 0, "IOPS sd", "%.1f" },
	{ "total_ios", "summary.total_ios", 'i', "IOs",
	  METRIC_NEUTRAL, 0, "IOs", "%.0f" },
	{ "ios_measured", "summary.ios_measured", 'i', "IOs",
	  METRIC_NEUTRAL, 0, "IOs timed", "%.0f" },
	{ "eagain", "summary.eagain", 'i', "IOs",
	  METRIC_LOWER_IS_BETTER, 0, "EAGAIN", "%.0f" },
	/* The cache model of qemu-icount (docs/methodology.md): estimates. */
	{ "est_cycles_per_io", "exact_cost.est_cycles_per_io", 'n', "cycles",
	  METRIC_LOWER_IS_BETTER, 1, "est. cycles/IO", "%.1f" },
	{ "l1_misses_per_io", "exact_cost.l1_misses_per_io", 'n', "misses",
	  METRIC_LOWER_IS_BETTER, 0, "L1 misses/IO", "%.2f" },
	{ "ll_misses_per_io", "exact_cost.ll_misses_per_io", 'n', "misses",
	  METRIC_LOWER_IS_BETTER, 0, "LL misses/IO", "%.2f" },
};

const size_t metric_defs_count = sizeof(metric_defs) / sizeof(metric_defs[0]);

const struct metric_def *metric_def_find(const char *name)
{
	size_t i;

	for (i = 0; name && i < metric_defs_count; i++)
		if (!strcmp(metric_defs[i].name, name))
			return &metric_defs[i];
	return NULL;
}

int metric_higher_is_worse(const char *name)
{
	const struct metric_def *m = metric_def_find(name);
	size_t n;

	if (m)
		return m->dir == METRIC_LOWER_IS_BETTER;
	n = strlen(name);
	return strstr(name, "latency") || (n > 3 && !strcmp(name + n - 3, "_ns"));
}

int metric_path_split(const struct metric_def *m, char *obj, size_t objlen,
		      const char **key)
{
	const char *dot = strchr(m->path, '.');
	size_t n = dot ? (size_t)(dot - m->path) : 0;

	if (n >= objlen)
		return -1;
	memcpy(obj, m->path, n);
	obj[n] = '\0';
	*key = dot ? dot + 1 : m->path;
	return 0;
}
