/* SPDX-License-Identifier: MIT */
/*
 * The lab's one error convention. A lab function that can refuse takes a
 * struct lab_err * (its last argument); refusing, it fills it and returns
 * -1 (or NULL), succeeding it returns 0, an id or a count. The status
 * says what kind of refusal it is in the lab's own words; the message
 * says why, for a person. Only the HTTP layer turns a status into an HTTP
 * status (http_lab_error() in http/http.c, one table); the CLI and the
 * tools print the message.
 *
 *	struct lab_err e;
 *
 *	if (bases_lookup(db, "linux-6.1", &b, &e))
 *		return http_lab_error(resp, &e);
 *
 * A function that cannot refuse, only fail (a database error, no memory),
 * may still return plain -1: there is nothing to tell but "internal".
 */
#ifndef PERFLAB_LAB_STATUS_H
#define PERFLAB_LAB_STATUS_H

#include "daemon/store/conn.h"

enum lab_status {
	LAB_OK = 0,
	LAB_INVALID,		/* malformed input: a bad name, value, patch */
	LAB_FORBIDDEN,		/* the caller's key or role may not do this */
	LAB_NOT_FOUND,		/* the thing addressed does not exist */
	LAB_CONFLICT,		/* clashes with what is stored: a name taken,
				 * a stale lease, already finished */
	LAB_REJECTED,		/* well-formed, but it names what the lab does
				 * not have (a base, patch, commit, backend) or
				 * breaks one of its rules */
	LAB_QUOTA,		/* past the key's quota of queued work */
	LAB_UPSTREAM,		/* git, which the lab calls, failed */
	LAB_PENDING,		/* the git fetch it needs is still running
				 * (it goes on): ask again later */
	LAB_UNAVAILABLE,	/* the store cannot be used right now (disk
				 * full, read-only, I/O error, busy) */
	LAB_INTERNAL,		/* a bug, no memory, an unexpected database
				 * error: the message is for the log only */
	LAB_NR_STATUS
};

struct lab_err {
	enum lab_status st;
	char msg[512];
};

/* Fill @e (may be NULL) with @st and the message; returns -1. */
int lab_fail(struct lab_err *e, enum lab_status st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Put "@fmt..: " before @e's message (a variant's name, a field). -1. */
int lab_prefix(struct lab_err *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * The last operation on @db failed: LAB_UNAVAILABLE with SQLite's reason
 * when the store cannot be written or read right now, else LAB_INTERNAL
 * (db_error_status). Call before a rollback, which clears the error. -1.
 */
int lab_fail_db(struct lab_err *e, store_conn *db);

/* "invalid", "not_found", ... (logs and tests). */
const char *lab_status_name(enum lab_status st);

#endif
