/* SPDX-License-Identifier: MIT */
/*
 * The trust model of docs/security.md, for the code that makes
 * experiments: what a key's role may make a test host do.
 *
 * A submit key's variants may only use kernel command-line parameters
 * that match the admins' allowlist (table cmdline_allowlist) and setup
 * scripts that an admin stored (table setup_scripts), by name. Admin keys
 * may use any parameter and raw setup text. Every key is held to the
 * known backends and, unless admin, to a quota of queued runs.
 */
#ifndef PERFLAB_TRUST_H
#define PERFLAB_TRUST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/store/conn.h"

#include "daemon/lab/planner.h"
#include "daemon/lab/status.h"

/* Jobs (variants x runs) one request may queue. */
#define TRUST_MAX_REQUEST_RUNS 256
/* Default of perflabd --max-queued-runs: queued or running jobs per key. */
#define TRUST_DEFAULT_QUEUED_RUNS 1000

/* Who is asking: the request's key. */
struct trust_who {
	int role;		/* ROLE_* of roles.h */
	int64_t key_id;
	const char *key_name;
	int max_queued;		/* perflabd --max-queued-runs; 0: no quota */
};

/*
 * 0 when a registered host runs @backend: runners register the backends
 * they have (local, qemu, ...), the daemon keeps no list of its own.
 * Else -1, LAB_REJECTED naming the backends registered hosts run.
 */
int trust_backend_check(store_conn *db, const char *backend,
			struct lab_err *e);

/*
 * A cmdline pattern an admin may store: 1-128 printable characters
 * without spaces or quotes; '*' only at the end; not "*" alone.
 * 0 ok, -1 LAB_REJECTED with the reason.
 */
int trust_pattern_check(const char *pattern, struct lab_err *e);
/* 1 if the one parameter @param (@len bytes) matches @pattern. */
bool trust_pattern_match(const char *pattern, const char *param, size_t len);
/*
 * Every whitespace-separated parameter of @cmdline matches one of
 * @patterns[0..n): 0, or -1 LAB_FORBIDDEN naming the first parameter
 * that does not. Characters are checked separately (common/kcmdline.h).
 */
int trust_cmdline_allowed(const char *const *patterns, size_t n,
			  const char *cmdline, struct lab_err *e);

/*
 * Check variant @v of a request from @who and resolve its setup script:
 * @script_name (may be NULL) is looked up in setup_scripts and its text
 * put into v->setup (the text lives in @buf, which the caller frees).
 * 0, or -1: LAB_FORBIDDEN (a parameter off the allowlist, raw setup from
 * a submit key), LAB_REJECTED (bad characters, an unknown script, both
 * setup and setup_script).
 */
int trust_variant(store_conn *db, const struct trust_who *who,
		  struct variant_spec *v, const char *script_name, char **buf,
		  struct lab_err *e);
/*
 * A request from @who queues @runs more jobs: 0, or -1: LAB_REJECTED
 * (more than TRUST_MAX_REQUEST_RUNS in one request), LAB_QUOTA (past the
 * key's quota), with the numbers.
 */
int trust_quota(store_conn *db, const struct trust_who *who, int runs,
		struct lab_err *e);
/*
 * The checks every request that queues work shares: @backend (may be
 * NULL) is one a registered host runs, and @runs more jobs fit the
 * request cap and the key's quota. Run it on the writer, in the
 * transaction that queues the jobs, so that concurrent requests cannot
 * all pass it.
 */
int trust_request(store_conn *db, const struct trust_who *who,
		  const char *backend, int runs, struct lab_err *e);
/*
 * trust_request() before any git work, under the writer lock (taken and
 * let go here): a key that may not queue the work never makes the daemon
 * fetch. Not the last word: the transaction that queues the jobs checks
 * again, counting what others queued meanwhile.
 */
int trust_precheck(store_conn *db, const struct trust_who *who,
		   const char *backend, int runs, struct lab_err *e);

#endif
