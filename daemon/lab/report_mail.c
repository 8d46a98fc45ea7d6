// SPDX-License-Identifier: MIT
/*
 * report_mail - the mail of a stored bisection report; see report_mail.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <jansson.h>

#include "daemon/analysis/mail_out.h"
#include "daemon/lab/report_mail.h"

static const char *jstr(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* Recipients: the commit's author, then the configured list. */
static size_t recipients(json_t *rep, char *list, const char **to,
			 size_t max)
{
	size_t n = 0;
	char *save = NULL;

	if (jstr(rep, "to"))
		to[n++] = jstr(rep, "to");
	for (char *t = strtok_r(list, ", ", &save); t && n < max;
	     t = strtok_r(NULL, ", ", &save))
		to[n++] = t;
	return n;
}

char *report_mail_rcpt(const char *report, const char *list)
{
	json_t *rep = json_loads(report ? report : "", 0, NULL);
	const char *author = jstr(rep, "to");

	list = list ? list : "";
	char *out = NULL;

	if (mail_addr_ok(author)) {
		if (asprintf(&out, "%s%s%s", author, *list ? "," : "", list) < 0)
			out = NULL;
	} else {
		out = strdup(list);
	}
	json_decref(rep);
	return out;
}

char *report_mail_build(const char *report, int64_t alert_id,
			const char *from, const char *list)
{
	json_t *rep = json_loads(report ? report : "", 0, NULL);
	char *copy = strdup(list ? list : ""), *msg = NULL;
	const char *to[64];
	char mid[96], date[64];
	struct mail_out m;
	time_t now = time(NULL);
	struct tm tm;

	if (!rep || !copy)
		goto out;
	snprintf(mid, sizeof(mid), "<perflab-bisection-%lld-alert-%lld@perflab>",
		 (long long)json_integer_value(json_object_get(
			 json_object_get(rep, "bisection"), "id")),
		 (long long)alert_id);
	strftime(date, sizeof(date), "%a, %d %b %Y %H:%M:%S +0000",
		 gmtime_r(&now, &tm));
	m = (struct mail_out){
		.date = date,
		.from = from ? from : "perflab@localhost",
		.from_name = "perflab",
		.to = to,
		.nr_to = recipients(rep, copy, to, 64),
		.subject = jstr(rep, "subject"),
		.message_id = mid,
		.in_reply_to = jstr(rep, "in_reply_to"),
	};
	msg = mail_build(&m, jstr(rep, "text") ? jstr(rep, "text") : "");
out:
	free(copy);
	json_decref(rep);
	return msg;
}
