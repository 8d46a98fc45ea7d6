/* SPDX-License-Identifier: MIT */
/*
 * mail_series - the rules that make series of list messages (after b4
 * and the 0-day robot): which series a message belongs to, when a series
 * is complete, and which earlier series it is a new version of.
 *
 * A series is the messages of one thread root (mail_thread.h: the first
 * References entry, which git send-email sets to the cover letter or the
 * first patch, shallow or deep threading alike) with one version: a v2
 * sent in reply to v1's cover has the same root but its own version.
 */
#ifndef PERFLAB_MAIL_SERIES_H
#define PERFLAB_MAIL_SERIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/analysis/mail_thread.h"

/* Series key of a patch or cover @t: "<root>#v<N>" (malloc'd) or NULL. */
char *mail_series_key(const struct mail_thread *t);

enum series_state {
	SERIES_WAITING,		/* patches missing, within the timeout */
	SERIES_COMPLETE,	/* patches 1..n all there */
	SERIES_TIMED_OUT,	/* patches missing past the timeout */
	SERIES_BAD,		/* numbered inconsistently (two totals, a
				 * patch twice) */
};

/*
 * The state of a series of @total patches of which @have[1..total]
 * arrived (@have has total + 1 entries; [0] is the cover), first seen
 * at @first and @timeout seconds allowed; @dups patches came twice and
 * @totals_differ when its messages disagree on n. The missing numbers
 * ("2, 3") go into @missing.
 */
enum series_state mail_series_state(const bool *have, int total, int dups,
				    bool totals_differ, int64_t first,
				    int64_t now, int timeout, char *missing,
				    size_t len);

const char *mail_series_state_name(enum series_state s);

/* What links two versions of a series: change-id, else subject+author. */
struct series_ident {
	const char *change_id;	/* NULL if none */
	const char *subject;	/* the normalised subject (mail_subject) of
				 * the cover, else of patch 1 */
	const char *author;	/* From's addr-spec */
	int version;
};

/*
 * 1 when @later is a newer version of @earlier: the same change-id when
 * both carry one, else the same normalised subject from the same
 * author; and a higher version number.
 */
int mail_series_same(const struct series_ident *earlier,
		     const struct series_ident *later);

#endif /* PERFLAB_MAIL_SERIES_H */
