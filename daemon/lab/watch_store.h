/* SPDX-License-Identifier: MIT */
/*
 * The short half of a watch's poll, in one write transaction: every new
 * message of the batch (watch_poll.h) is stored once with its kind and
 * refusal, patches and covers join their series (analysis/mail_series.h),
 * a refused patch refuses its whole series, and every waiting series of
 * the watch gets its state again (complete, timed out, inconsistent),
 * with a complete one linked to the version before it.
 */
#ifndef PERFLAB_WATCH_STORE_H
#define PERFLAB_WATCH_STORE_H

#include <stdint.h>
#include <time.h>

#include "daemon/store/conn.h"
#include "daemon/lab/watch_poll.h"

struct watch_store_stats {
	int read;	/* messages in the batch */
	int added;	/* new ones stored */
	int refused;	/* of them refused */
	int complete;	/* series that became complete */
};

/*
 * Store @b (may be NULL: a poll that failed with @poll_error) for watch
 * @row on writer connection @w (the caller holds the lock), and mark the
 * watch polled at @now. 0, or -1 (database error; nothing stored).
 */
int watch_store_batch(store_conn *w, const struct watch_row *row,
		      const struct watch_batch *b, const char *poll_error,
		      time_t now, struct watch_store_stats *st);

#endif
