/* SPDX-License-Identifier: MIT */
/*
 * culprit_mail - who a bisection's report may mail (docs/security.md,
 * "Outbound mail"). The lab mails the configured list for any alert; it
 * mails a third party, the culprit commit's author, only when
 *   - an admin key or a track (admin-made) started the bisection, or an
 *     admin opted the base in (bases.mail_authors), and
 *   - no report of the same (base, culprit, metric) was mailed before
 *     (culprit_mails; a repeat is not mailed at all, to anyone), and
 *   - the author got fewer than CULPRIT_MAILS_PER_DAY reports in the
 *     last 24 hours.
 * The plan is made and recorded under the writer lock, in the transaction
 * that raises the alert (bisect_report.c).
 */
#ifndef PERFLAB_CULPRIT_MAIL_H
#define PERFLAB_CULPRIT_MAIL_H

#include <stdint.h>
#include <time.h>

#include "daemon/store/conn.h"

#define CULPRIT_MAILS_PER_DAY 3

struct culprit_mail_plan {
	int64_t base_id;	/* 0: the bisection's base is unknown */
	int email;		/* queue a mail at all */
	const char *to;		/* the author's address, or NULL: list only */
	char note[160];		/* why the author (or the mail) is left out */
};

/*
 * Plan the mail of bisection @bisection_id (base @base_name when it has no
 * row) whose culprit @culprit by @author_addr moved @metric; @email: the
 * caller wants a mail at all. 0, or -1 on a database error.
 */
int culprit_mail_plan(store_conn *db, int64_t bisection_id,
		      const char *base_name, const char *culprit,
		      const char *metric, const char *author_addr, int email,
		      time_t now, struct culprit_mail_plan *p);

/* Record a planned mail (p->email) of alert @alert_id: 0 or -1. */
int culprit_mail_record(store_conn *db, const struct culprit_mail_plan *p,
			const char *culprit, const char *metric,
			int64_t bisection_id, int64_t alert_id, time_t now);

#endif /* PERFLAB_CULPRIT_MAIL_H */
