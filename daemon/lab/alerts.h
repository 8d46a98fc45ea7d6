/* SPDX-License-Identifier: MIT */
/*
 * Alerts: created for regression verdicts beyond the host's MDE and for
 * change points that lower a series (worse for the metric); triaged
 * through PATCH /api/v1/alerts/{id} (new, acknowledged, investigating,
 * invalid, fixed, wontfix; every change kept in alert_history with who
 * and when).
 *
 * Delivery: every enabled row of `webhooks` gets a POST of the alert JSON
 * with "X-Perflab-Signature: sha256=<hex HMAC-SHA256 of the body with the
 * webhook's secret>"; failures are retried with exponential backoff
 * (30 s, 60 s, 120 s, ... up to ALERTS_MAX_ATTEMPTS), and every attempt
 * is a row in `deliveries`. Email goes over SMTP with libcurl to the
 * configured recipients, in the LKP "kernel test robot" style.
 */
#ifndef PERFLAB_ALERTS_H
#define PERFLAB_ALERTS_H

#include <stdint.h>
#include <time.h>
#include <jansson.h>

#include "daemon/store/conn.h"
#include "daemon/lab/status.h"

#define ALERTS_MAX_ATTEMPTS 5
#define ALERTS_BACKOFF_S 30
/* perflabd --delivery-timeout: connect (at most 10 s) and each answer. */
#define ALERTS_DEFAULT_TIMEOUT_S 20

struct alerts_smtp {
	const char *url;	/* smtp://host:port, NULL: no email */
	const char *from;
	const char *to;		/* comma-separated recipients */
	const char *user, *password;	/* optional */
	const char *base_url;	/* link target, e.g. http://lab:8080 */
	int timeout_s;		/* SMTP and webhooks; 0: the default */
};

/*
 * Raise an alert for comparison @comparison_id (a regression). Queues a
 * delivery for every enabled webhook (and email when @email). Returns the
 * alert id, 0 when an alert for this comparison exists already, -1.
 */
int64_t alerts_raise_verdict(store_conn *db, int64_t comparison_id, int email,
			     time_t now);

/* The same for change point @cp_id of a series. */
int64_t alerts_raise_change_point(store_conn *db, int64_t cp_id, int email,
				  time_t now);

/*
 * The alert of a bisection that found its culprit, with its @report
 * (bisect_report.c builds it); in one transaction. The alert id or -1.
 */
int64_t alerts_raise_bisection(store_conn *db, int64_t bisection_id,
			       const char *title, const char *metric,
			       double delta, int64_t exp, const char *report,
			       int email, time_t now);

/* The stored report of a bisection alert (malloc'd JSON) or NULL. */
char *alerts_report(store_conn *db, int64_t alert_id);

/* 1 when @state is one of the triage states, else 0. */
int alerts_state_valid(const char *state);
/* 1 when @kind is an alert kind (verdict, change_point, bisection). */
int alerts_kind_valid(const char *kind);

/* Set @state (validated) with @who and an optional @note, on the writer.
 * 0, or -1: LAB_INVALID (not a triage state), LAB_NOT_FOUND. */
int alerts_set_state(store_conn *db, int64_t alert_id, const char *state,
		     const char *who, const char *note, time_t now,
		     struct lab_err *e);

/* The alert as JSON (with history and deliveries), or NULL. */
json_t *alerts_json(store_conn *db, int64_t alert_id);
/*
 * GET /api/v1/alerts: newest first, at most @limit, of @state and @kind
 * (NULL: any), ids below @before (0: no bound); *@next is the cursor of
 * the next page, 0 on the last. Keyset pages: one index search each.
 */
json_t *alerts_list_json(store_conn *db, const char *state, const char *kind,
			 int limit, int64_t before, int64_t *next);

/*
 * Attempt every delivery that is pending and due at @now (webhooks and
 * email). Network I/O: call without holding locks others need. Returns
 * the number of attempts made, -1 on a database error.
 */
int alerts_deliver_due(store_conn *db, const struct alerts_smtp *smtp,
		       time_t now);
/*
 * The same for one @channel ("email" or "webhook"; NULL: both), which is
 * what the mail and webhook workers run. A receiver that timed out or
 * could not be reached is not tried again in the same round: its other
 * deliveries wait for the next. Every attempt has connect and answer
 * timeouts (smtp->timeout_s); alerts_stop_delivery() aborts the one in
 * hand.
 */
int alerts_deliver_channel(store_conn *db, const struct alerts_smtp *smtp,
			   const char *channel, time_t now);
void alerts_stop_delivery(void);

/*
 * Send the whole message @msg through @smtp to @rcpts (comma-separated
 * addr-specs), with the deliveries' timeouts, cut short by
 * alerts_stop_delivery(). 0, -1 (failed: @err), -2 (unreachable).
 */
int alerts_send_mail(const struct alerts_smtp *smtp, const char *rcpts,
		     const char *msg, char *err, size_t errlen);

/* HMAC-SHA256 of @body with @secret as lowercase hex into @hex[65]. */
void alerts_signature(const char *secret, const char *body, size_t len,
		      char hex[65]);

/* LKP-style mail text for an alert (malloc'd), or NULL. */
char *alerts_email_text(store_conn *db, int64_t alert_id,
			const struct alerts_smtp *smtp);

#endif
