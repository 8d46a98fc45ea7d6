/* SPDX-License-Identifier: MIT */
/*
 * The lab's reply in a posted series' thread (issue 32): when a series'
 * experiment is analysed, one reply is planned (analysis/watch_reply.h
 * builds its body) to the series' author and the watch's list, with
 * In-Reply-To/References of the cover letter (else patch 1), "Re:" of
 * its subject and X-Perflab-Reply, which makes the lab never test nor
 * answer it (no loops). It is withheld, with the reason, when the
 * experiment failed, when the verdict is not a regression and the watch
 * does not mail "no change", when no SMTP is configured, or past the
 * rate limits: WATCH_REPLIES_PER_AUTHOR replies to one author and
 * WATCH_REPLIES_PER_THREAD in one thread per 24 hours. Planned replies
 * are sent over SMTP off every lock (alerts_send_mail), retried up to
 * WATCH_REPLY_ATTEMPTS times.
 */
#ifndef PERFLAB_WATCH_REPLY_LAB_H
#define PERFLAB_WATCH_REPLY_LAB_H

#include <time.h>

#include "daemon/lab/alerts.h"
#include "daemon/store/conn.h"

#define WATCH_REPLIES_PER_AUTHOR 4
#define WATCH_REPLIES_PER_THREAD 3
#define WATCH_REPLY_ATTEMPTS 5

/* Plan the replies of series whose experiment ended. The number
 * planned (sent or withheld), -1 on a database error. */
int watch_reply_plan(store_conn *db, const struct alerts_smtp *smtp,
		     time_t now);
/*
 * Send the planned ones; the number sent. With @inbox (perflabd
 * --reply-inbox, a public-inbox directory of the lab's own), each sent
 * reply is also delivered there with public-inbox-mda, so lei q finds
 * the lab's answers beside the lists'.
 */
int watch_reply_send(store_conn *db, const struct alerts_smtp *smtp,
		     const char *inbox, time_t now);

#endif
