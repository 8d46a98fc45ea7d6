/* SPDX-License-Identifier: MIT */
/*
 * A complete series of a watch becomes an experiment, as 0-day does it:
 * onto the base-commit the series names when that commit is in the
 * history of the watched ref, else onto the ref's head (which one is
 * stored: base_used, base_how); checked with `git apply --check` on that
 * commit first (a series that does not apply is never queued), then
 * submitted (experiments_submit_patch: parsed and checked again, paths
 * inside the tree, no binary patches) with the watch's submit key's
 * rights and under its quota. Git runs on the caller's thread; the
 * writes are short (experiments.h, and one UPDATE of the series).
 */
#ifndef PERFLAB_WATCH_SUBMIT_H
#define PERFLAB_WATCH_SUBMIT_H

#include <stdint.h>

#include "daemon/store/conn.h"

/*
 * Submit every complete series of watch @watch (at most @max). The
 * number queued, or -1 on a database error. A refusal (does not apply,
 * not a usable patch, a backend no host runs) is the series' state and
 * reason; quota and a fetch still running leave it complete, with the
 * reason, tried again a minute later. @max_queued: perflabd
 * --max-queued-runs.
 */
int watch_submit_complete(store_conn *db, int64_t watch, int max,
			  int max_queued);

#endif
