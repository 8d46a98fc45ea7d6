// SPDX-License-Identifier: MIT
/*
 * lava_result: LAVA health + error type + console -> run or reason.
 */
#include "daemon/lab/lava_result.h"

#include <stdio.h>
#include <string.h>

/* The lava/job result of the log (the last one), or NULL. */
static const json_t *job_result(const json_t *results)
{
	const json_t *r, *found = NULL;
	size_t i;

	json_array_foreach(results, i, r) {
		const char *def = json_string_value(json_object_get(r, "definition"));
		const char *cs = json_string_value(json_object_get(r, "case"));

		if (def && cs && !strcmp(def, "lava") && !strcmp(cs, "job"))
			found = r;
	}
	return found;
}

static int infra_type(const char *t)
{
	static const char *const infra[] = { "Infrastructure", "Configuration",
					     "Bug", "ObjectNotPersisted",
					     "Canceled", NULL };

	for (int i = 0; t && infra[i]; i++)
		if (!strcmp(t, infra[i]))
			return 1;
	return 0;
}

int lava_classify(const char *health, const char *failure_comment,
		  const json_t *results, const struct lava_console *con,
		  struct lava_verdict *v)
{
	const json_t *jr = job_result(results);
	const char *type = jr ? json_string_value(json_object_get(jr, "error_type")) : NULL;
	const char *emsg = jr ? json_string_value(json_object_get(jr, "error_msg")) : NULL;
	char lava[600];

	memset(v, 0, sizeof(*v));
	if (!health || (strcmp(health, "Complete") && strcmp(health, "Incomplete") &&
			strcmp(health, "Canceled")))
		return -1;
	if (con->status == LAVA_CON_OK) {
		v->ok = 1;
		snprintf(v->message, sizeof(v->message), "LAVA: %s", health);
		return 0;
	}
	snprintf(lava, sizeof(lava), "LAVA job %s%s%s%s%s%s%s", health,
		 type && *type ? " (" : "", type && *type ? type : "",
		 type && *type ? ")" : "", emsg && *emsg ? ": " : "",
		 emsg && *emsg ? emsg : "",
		 failure_comment && *failure_comment &&
		 (!emsg || !strstr(failure_comment, emsg)) ? "; " : "");
	if (failure_comment && *failure_comment &&
	    (!emsg || !strstr(failure_comment, emsg)))
		snprintf(lava + strlen(lava), sizeof(lava) - strlen(lava), "%s",
			 failure_comment);
	if (!strcmp(health, "Canceled") || infra_type(type))
		v->reason = "infrastructure";
	else if (con->status == LAVA_CON_NO_BENCH)
		v->reason = "boot";
	else
		v->reason = "bench";
	snprintf(v->message, sizeof(v->message), "%s; console: %s", lava,
		 con->msg[0] ? con->msg : "no perflab markers");
	return 0;
}
