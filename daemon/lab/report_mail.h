/* SPDX-License-Identifier: MIT */
/*
 * report_mail - the mail of a bisection report stored with its alert
 * (alerts.report: {"to", "subject", "in_reply_to", "text", "bisection"},
 * built by bisect_report.c), for the alert delivery: headers made safe
 * by analysis/mail_out.c.
 */
#ifndef PERFLAB_REPORT_MAIL_H
#define PERFLAB_REPORT_MAIL_H

#include <stdint.h>

/* The message of alert @alert_id's @report from @from to the commit's
 * author and the comma-separated @list (malloc'd), or NULL. */
char *report_mail_build(const char *report, int64_t alert_id,
			const char *from, const char *list);

/* SMTP recipients of that mail: the author when the address is usable,
 * then @list; comma-separated (malloc'd). */
char *report_mail_rcpt(const char *report, const char *list);

#endif /* PERFLAB_REPORT_MAIL_H */
