/* SPDX-License-Identifier: MIT */
/*
 * bisect_report - the report of a bisection that found its culprit: the
 * LKP-style text (analysis/lkp_report.c) with the culprit experiment's
 * exact perf diff, mailed to the commit's author and the configured list,
 * and a webhook event with the bisection JSON (alerts.c delivers both,
 * the mail through report_mail.c).
 *
 * bisect_notify_culprit() is the driver's (bisect_run.c) entry: it reads
 * the bisection and raises the report with `git patch-id --stable` run by
 * the mirrors' git runner (gitmirror_run).
 *
 * Threading: when the culprit's `git patch-id --stable` equals that of a
 * stored patch (patches.raw), the mail carries In-Reply-To and References
 * with the patch's Message-ID, so it lands in the patch's thread.
 */
#ifndef PERFLAB_BISECT_REPORT_H
#define PERFLAB_BISECT_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <jansson.h>

#include "daemon/store/conn.h"

/* `git patch-id --stable` of @len bytes of patch text into @out (40 hex
 * + NUL): 0, or -1 when git failed or found no patch. */
typedef int (*bisect_patch_id_fn)(void *arg, const char *text, size_t len,
				  char out[41]);

struct bisect_report_opts {
	const char *lab_url;	/* links in the text; may be NULL */
	int email;		/* queue a mail as well as the webhooks */
	bisect_patch_id_fn patch_id;	/* NULL: no thread matching */
	void *arg;
};

/* Stored patches looked at for a match, newest first. */
#define BISECT_REPORT_MAX_PATCHES 500

/*
 * Message-ID (malloc'd) of the newest stored patch whose patch-id is
 * @pid, or NULL (none, or no usable Message-ID).
 */
char *bisect_report_thread(store_conn *db, const char *pid,
			   bisect_patch_id_fn fn, void *arg);

/*
 * Raise the "bisection" alert for @bisection (the GET /api/v1/bisections/
 * {id} JSON; culprit.patch_id, when set, is the culprit commit's patch-id).
 * The report is built now and stored with the alert. Returns the alert
 * id, 0 when this bisection has one already or no culprit, -1 on error.
 */
int64_t bisect_report_raise(store_conn *db, json_t *bisection,
			    const struct bisect_report_opts *o, time_t now);

/*
 * A bisection found its culprit: raise the "bisection" alert (report
 * mail and webhook event). Returns the alert id, 0 for none, -1.
 */
int64_t bisect_notify_culprit(store_conn *db, int64_t bisection_id);

/* The lab's public URL for links in reports (perflabd --public-url). */
void bisect_report_set_url(const char *url);

#endif /* PERFLAB_BISECT_REPORT_H */
