/* SPDX-License-Identifier: MIT */
/*
 * proto: runner protocol client (docs/contracts.md section 2).
 */
#ifndef PERFLAB_PROTO_H
#define PERFLAB_PROTO_H

#include <jansson.h>
#include <signal.h>

struct proto {
	const char *server;	/* "http://127.0.0.1:8080" */
	const char *key;	/* runner key */
	const char *name;	/* host name */
	/* Build once (registration): builder|test|any, and the config hash
	 * of each fragment; NULL: registered without (older daemons). */
	const char *role;
	json_t *configs;
	const volatile sig_atomic_t *stop; /* give up retries when set */
};

enum {
	PROTO_OK = 0,
	PROTO_NONE = 1,		/* claim: nothing within wait */
	PROTO_LOST = 2,		/* 409: lease not current, drop the job */
	PROTO_REFUSED = 3,	/* other 4xx but 408/429: final, see err */
	PROTO_ERR = -1,		/* transport or unexpected status */
};

/* Register; err gets the server's message on failure. */
int proto_register(const struct proto *p, const char *backend,
		   const char *const *labels, int nlabels, json_t *facts,
		   char *err, size_t errlen);
/* Long-poll claim: PROTO_OK with *job (text) | PROTO_NONE | PROTO_ERR. */
int proto_claim(const struct proto *p, int wait, char **job, char *err,
		size_t errlen);
/* One heartbeat: PROTO_OK | PROTO_LOST (409) | PROTO_ERR; prints nothing. */
int proto_heartbeat(const struct proto *p, long long job, const char *lease,
		    const char *phase, const char *message, char *err,
		    size_t errlen);
/*
 * Retries until acknowledged, LOST, REFUSED or stop (then PROTO_ERR).
 * Transport errors, 5xx, 408 and 429 are retried; any other 4xx is the
 * daemon's final word on this body (retrying would loop for ever while
 * heartbeats keep the lease): PROTO_REFUSED with the reason in @err.
 * Steals body.
 */
int proto_result(const struct proto *p, long long job, json_t *body,
		 char *err, size_t errlen);
int proto_fail(const struct proto *p, long long job, const char *lease,
	       const char *reason, const char *log);
/* Build tasks (/api/v1/builds/ID/...): like the job calls. */
int proto_build_heartbeat(const struct proto *p, long long id, const char *lease,
			  const char *phase, const char *message, char *err,
			  size_t errlen);
int proto_build_fail(const struct proto *p, long long id, const char *lease,
		     const char *reason, const char *log);

/* JSON string of arbitrary log text: bytes that are not printable ASCII,
 * newline or tab become '?', so logs never break the JSON encoder. */
json_t *proto_text(const char *s);

/* POST JSON, answer status; body (may be NULL) stolen. For tests too. */
long proto_post(const struct proto *p, const char *path, json_t *body,
		json_t **answer, char *err, size_t errlen);

#endif
