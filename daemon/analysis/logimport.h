/* SPDX-License-Identifier: MIT */
/*
 * Import benchmark output into runs of per-second samples, so results
 * produced outside the lab can be compared (POST /api/v1/compare).
 *
 * Recognised, detected from the text:
 *   - t/io_uring and perflab-bench text: one line a second, old form
 *     "IOPS=3536512, IOS/call=32/31, inflight=(75)" or new form
 *     "IOPS=3.54M, BW=1728MiB/s, IOS/call=32/31" (K/M/G suffixes).
 *     Every maximal block of consecutive IOPS lines is one run; any other
 *     line (blank, header, "Exiting on timeout") ends the block.
 *     "Maximum IOPS=..." summary lines are not samples. Quoted mail
 *     ("> IOPS=...") is accepted. The last non-blank other line before
 *     a block ("Old behavior:") becomes the run's label.
 *   - perflab-bench JSON (docs/contracts.md section 1): one run with its
 *     samples, warm-up, ns/IO, CPU per IO and profile symbols.
 *   - fio JSON (--output-format=json): fio reports no per-second data by
 *     default, only whole-job averages. A single fio JSON document is one
 *     run whose value is the summed read+write IOPS of all jobs and which
 *     has no per-second samples (so at least two such runs per side are
 *     needed for a verdict). Several documents one after the other, as
 *     written with --status-interval=1, become one run whose per-interval
 *     IOPS are the differences of the cumulative IO counts over the
 *     differences of "timestamp_ms".
 */
#ifndef PERFLAB_LOGIMPORT_H
#define PERFLAB_LOGIMPORT_H

#include <stddef.h>

#include "daemon/analysis/verdict.h"

enum li_format {
	LI_UNKNOWN,
	LI_TEXT,		/* t/io_uring or perflab-bench lines */
	LI_BENCH_JSON,
	LI_FIO_JSON,
};

struct li_sym {
	char *name;		/* "dso:symbol" as "symbol" when kernel */
	double samples;
};

struct li_run {
	char label[64];		/* text: the last other line before the block */
	double *iops;		/* per-second samples */
	size_t n, cap;
	int warmup;		/* seconds to drop */
	double mean;		/* run value without samples (fio), else 0 */
	double ns_per_io, cpu_ns_per_io;
	struct li_sym *syms;
	size_t nsyms;
	double prof_total;
};

struct li_log {
	enum li_format format;
	struct li_run *runs;
	size_t nruns;
};

const char *logimport_format_str(enum li_format f);

/*
 * Parse @len bytes of @text. @warmup (>= 0) applies to text runs, which
 * carry no warm-up information; JSON carries its own. Returns 0, or -1
 * with a message in @err (no IOPS lines, malformed JSON, ...).
 */
int logimport_parse(const char *text, size_t len, int warmup,
		    struct li_log *out, char *err, size_t errlen);
void logimport_free(struct li_log *log);

/* View of a run for verdict_compare_runs (borrows @run's arrays). */
void logimport_verdict_run(const struct li_run *run, struct verdict_run *out);

/*
 * Parse one IOPS value with an optional K/M/G suffix ("3536512",
 * "3.54M", "86.40K"); returns 0 and the value, or -1.
 */
int logimport_iops_value(const char *s, double *out, const char **end);

#endif
