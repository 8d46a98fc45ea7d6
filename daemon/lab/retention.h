/* SPDX-License-Identifier: MIT */
/*
 * Retention (docs/operating.md "Retention"): after an admin's age
 * (--retention-days) the detail of an old experiment's runs is compacted
 * into what the verdicts and pages still need. Deleted: the per-second
 * samples and the folded stacks; of the sampled and the exact profiles
 * only the experiment's top symbols stay (by samples or instructions
 * over all its runs, the same set in every run, so the perf diff of
 * those symbols is unchanged). Kept: the runs, their values
 * (run_metrics), the profiles' totals, the stored comparisons.
 *
 * Due: a finished experiment (done, failed, cancelled; not waiting for
 * its analysis) that finished before now - age. Never: one that is
 * pinned, or that a track point, a bisection step, an alert or a series
 * point refers to.
 *
 * A background worker (workers.h, "retention") makes passes over the
 * due experiments, oldest first: the runs of one experiment a few per
 * transaction on the writer, each transaction checking again that the
 * experiment is due (a pin or an alert in between wins), so a claim
 * waits at most for one small transaction. The work left is counted at
 * the start of each pass on a read connection and shown in /metrics.
 */
#ifndef PERFLAB_RETENTION_H
#define PERFLAB_RETENTION_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "daemon/store/conn.h"

#define RETENTION_TOP_SYMBOLS 50
#define RETENTION_RUNS_PER_TXN 4

struct retention {
	int64_t age_s;		/* 0: every detail is kept forever */
	int top_symbols;	/* 0: RETENTION_TOP_SYMBOLS */
	int runs_per_txn;	/* 0: RETENTION_RUNS_PER_TXN */
	/* The worker's pass. */
	bool in_pass;
	time_t next_pass;
	int64_t cur_finished, cur_id;
	/* For /metrics (read by other threads: atomics). */
	int64_t pending;	/* due at the pass's start, less those done */
	int64_t oldest;		/* finished_at of the oldest due, 0: none */
	uint64_t experiments, runs;	/* compacted since the start */
};

/*
 * One step of the worker on the read connection @db: start a pass if
 * one is due, compact the next due experiment (or end the pass).
 * Returns the runs compacted (0: nothing to do), -1 on error.
 */
int retention_step(struct retention *r, store_conn *db, time_t now);

/*
 * Compact experiment @id now if it is due at @now: the runs compacted
 * (0 when it is not due), *@compacted true when it is marked done; -1
 * on error.
 */
int retention_compact(struct retention *r, store_conn *db, int64_t id,
		      time_t now, bool *compacted);

/* Experiments due at @now, and the finished_at of the oldest (0: none). */
int64_t retention_due(store_conn *db, int64_t age_s, time_t now,
		      int64_t *oldest);

struct retention_stats {
	int64_t pending, oldest;
	uint64_t experiments, runs;
};
void retention_stats(const struct retention *r, struct retention_stats *s);

#endif
