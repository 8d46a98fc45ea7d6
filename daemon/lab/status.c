// SPDX-License-Identifier: MIT
/*
 * The lab's error convention; see status.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "daemon/lab/status.h"
#include "daemon/store/db.h"

int lab_fail(struct lab_err *e, enum lab_status st, const char *fmt, ...)
{
	va_list ap;

	if (!e)
		return -1;
	e->st = st;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return -1;
}

int lab_prefix(struct lab_err *e, const char *fmt, ...)
{
	char old[sizeof(e->msg)];
	va_list ap;
	int n;

	if (!e)
		return -1;
	memcpy(old, e->msg, sizeof(old));
	va_start(ap, fmt);
	n = vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n + 2 < sizeof(e->msg))
		snprintf(e->msg + n, sizeof(e->msg) - n, ": %.*s",
			 (int)(sizeof(e->msg) - n - 3), old);
	return -1;
}

int lab_fail_db(struct lab_err *e, store_conn *db)
{
	if (db && db_error_status(db) == 503)
		return lab_fail(e, LAB_UNAVAILABLE, "database unavailable: %s",
				db_errmsg(db));
	return lab_fail(e, LAB_INTERNAL, "database error: %s",
			db ? db_errmsg(db) : "no connection");
}

const char *lab_status_name(enum lab_status st)
{
	static const char *const names[LAB_NR_STATUS] = {
		[LAB_OK] = "ok",
		[LAB_INVALID] = "invalid",
		[LAB_FORBIDDEN] = "forbidden",
		[LAB_NOT_FOUND] = "not_found",
		[LAB_CONFLICT] = "conflict",
		[LAB_REJECTED] = "rejected",
		[LAB_QUOTA] = "quota",
		[LAB_UPSTREAM] = "upstream",
		[LAB_PENDING] = "pending",
		[LAB_UNAVAILABLE] = "unavailable",
		[LAB_INTERNAL] = "internal",
	};

	return st < LAB_NR_STATUS && names[st] ? names[st] : "?";
}
