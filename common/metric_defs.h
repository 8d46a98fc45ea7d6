/* SPDX-License-Identifier: MIT */
/*
 * The metrics of a run: one table for everything that names a metric. The
 * daemon's ingest stores each run's values from the table's JSON paths
 * (perflab-bench JSON, docs/contracts.md §1) into run_metrics, the API
 * puts them back at those paths, the verdict and the series take their
 * direction from here, and the daemon serves the table (GET
 * /api/v1/metric-defs) to the web UI and the CLI. A new metric is one row
 * here plus the bench that emits it.
 */
#ifndef PERFLAB_METRIC_DEFS_H
#define PERFLAB_METRIC_DEFS_H

#include <stddef.h>

enum metric_direction {
	METRIC_NEUTRAL = 0,		/* a count: neither way is better */
	METRIC_HIGHER_IS_BETTER = 1,
	METRIC_LOWER_IS_BETTER = -1,
};

struct metric_def {
	const char *name;	/* run_metrics.metric, series and verdict name */
	const char *path;	/* "object.key" in the bench JSON */
	char type;		/* 'n' number, 'i' integer */
	const char *unit;	/* "IO/s", "ns", "IOs" */
	enum metric_direction dir;
	int verdict;		/* 1: a comparison can decide on it */
	const char *label;	/* short display name */
	const char *format;	/* printf format of one value */
};

/*
 * Rows the C code computes with by meaning: the verdict decides on the
 * first two (enum verdict_metric), its LKP rows add up the CPU costs.
 * Every other row is only stored, served and shown.
 */
enum {
	METRIC_IOPS,
	METRIC_NS_PER_IO,
	METRIC_CPU_SYS_NS_PER_IO,
	METRIC_CPU_USER_NS_PER_IO,
};

extern const struct metric_def metric_defs[];
extern const size_t metric_defs_count;

/* The row named @name, or NULL. */
const struct metric_def *metric_def_find(const char *name);

/*
 * 1 when a larger value of @name is a regression. Names outside the table
 * (series pushed through the API) follow the naming rule of
 * docs/verdicts.md: latencies and "*_ns" are worse when higher.
 */
int metric_higher_is_worse(const char *name);

/* "summary.ns_per_io" -> "summary" and "ns_per_io"; 0, or -1 if too long. */
int metric_path_split(const struct metric_def *m, char *obj, size_t objlen,
		      const char **key);

#endif
