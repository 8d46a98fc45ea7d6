/* SPDX-License-Identifier: MIT */
/*
 * Watches: a list archive as a source of patches (issue 32). An admin
 * registers a public-inbox archive, a search in lei's query language, a
 * git base and the experiment defaults, and names the submit key whose
 * rights and quota the posted series run under. The watch worker
 * (watch_worker.h) polls it: lei reads the messages that match and their
 * threads (watch_poll.h), each is classified as hostile input
 * (analysis/mail_thread.h) and stored with its series in one short
 * write (watch_store.h); a complete series becomes an experiment
 * (watch_submit.h).
 */
#ifndef PERFLAB_WATCHES_H
#define PERFLAB_WATCHES_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include <jansson.h>

#include "daemon/store/conn.h"
#include "daemon/lab/status.h"

#define WATCH_QUERY_MAX 1024
#define WATCH_INBOX_MAX 1024

/* 1 when @dir is a public-inbox directory (v2: inbox.lock; v1). */
int watches_inbox_dir_ok(const char *dir);

struct watch_spec {
	const char *name;	/* [A-Za-z0-9._+-], unique */
	const char *inbox;	/* public-inbox directory, or https:// URL */
	const char *query;	/* lei search, e.g. "dfn:block/" */
	const char *base;	/* git base name */
	const char *ref;	/* NULL: the base's ref */
	const char *submit_key;	/* name of a submit key */
	const char *label, *backend;	/* NULL: any */
	int runs;
	int poll_seconds;	/* the timer */
	int window_seconds;	/* lei's rt: look-back per poll */
	int complete_timeout;	/* how long a series may wait for patches */
	bool mail_no_change;
	const char *list;	/* the list's address: replies go there too */
	bool mail_apply_note;	/* a short reply when a series does not apply */
	int64_t created_by;
};

/*
 * Check and store a watch. Its id, or -1: LAB_INVALID (a field),
 * LAB_REJECTED (no such git base or submit key, not a public-inbox
 * directory), LAB_CONFLICT (the name is taken).
 */
int64_t watches_create(store_conn *db, const struct watch_spec *s,
		       struct lab_err *e);

/* Ask for a poll at once (POST /api/v1/watches/{id}/poll): its
 * poll_requested counts up until a poll is done. 0, or -1 LAB_NOT_FOUND. The caller kicks the worker (watch_worker_kick). */
int watches_request_poll(store_conn *db, int64_t id, struct lab_err *e);

/* GET /api/v1/watches/{id}: the watch, its series (with their messages
 * and experiments) and its log (the last messages read), or NULL. */
json_t *watches_json(store_conn *db, int64_t id);
/* GET /api/v1/watches: every watch with counts of its series. */
json_t *watches_list_json(store_conn *db);

/* What the worker needs of one watch. */
struct watch_row {
	int64_t id;
	char inbox[WATCH_INBOX_MAX + 1];
	char query[WATCH_QUERY_MAX + 1];
	int window_seconds;
	int complete_timeout;
	int64_t requested;	/* poll requests counted when it was read */
};

/*
 * The watches due at @now (poll requested, or not polled for their
 * poll_seconds), at most @max, oldest poll first. The count or -1.
 */
int watches_due(store_conn *db, time_t now, struct watch_row *out, int max);

/*
 * The poll of @r (stored, its series submitted) is over: the requests
 * it answered are cleared, not one that came in since. 0 or -1.
 */
int watches_poll_done(store_conn *db, const struct watch_row *r);

#endif
