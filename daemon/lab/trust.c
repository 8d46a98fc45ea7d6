// SPDX-License-Identifier: MIT
/*
 * The trust model for experiment requests; see trust.h and
 * docs/security.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "daemon/store/writer.h"
#include "daemon/lab/roles.h"
#include "daemon/lab/trust.h"
#include "kcmdline.h"

#define MAX_PATTERNS 256

int trust_backend_check(sqlite3 *db, const char *backend, struct lab_err *e)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT DISTINCT backend,"
				      " backend = ?1 FROM hosts ORDER BY 1");
	char names[256] = "";
	size_t n = 0;
	int found = 0;

	if (!st)
		return lab_fail_db(e, db);
	sqlite3_bind_text(st, 1, backend, -1, SQLITE_STATIC);
	while (!found && sqlite3_step(st) == SQLITE_ROW) {
		found = sqlite3_column_int(st, 1);
		if (n < sizeof(names))
			n += (size_t)snprintf(names + n, sizeof(names) - n,
					      "%s%s", n ? ", " : "",
					      sqlite3_column_text(st, 0));
	}
	sqlite3_finalize(st);
	if (found)
		return 0;
	return lab_fail(e, LAB_REJECTED, "unknown backend '%s': no registered"
			" host runs it (hosts run: %s)", backend, n ? names :
			"none registered yet");
}

int trust_pattern_check(const char *pattern, struct lab_err *e)
{
	size_t n = strlen(pattern);
	char why[256];

	if (n == 0 || n > 128)
		return lab_fail(e, LAB_REJECTED, "'pattern' must be 1 to 128"
				" characters");
	if (kcmdline_check(pattern, why, sizeof(why)))
		return lab_fail(e, LAB_REJECTED, "%s", why);
	if (strchr(pattern, ' '))
		return lab_fail(e, LAB_REJECTED, "'pattern' is one parameter:"
				" no spaces");
	if (strchr(pattern, '*') && strchr(pattern, '*') != pattern + n - 1)
		return lab_fail(e, LAB_REJECTED, "'*' may only end a pattern");
	/* "*" or "=..." would allow init=, systemd.run= and the like. */
	if (pattern[0] == '*' || pattern[0] == '=')
		return lab_fail(e, LAB_REJECTED, "a pattern must start with a"
				" parameter name");
	return 0;
}

bool trust_pattern_match(const char *pattern, const char *param, size_t len)
{
	size_t n = strlen(pattern);

	if (n && (pattern[n - 1] == '*' || pattern[n - 1] == '=')) {
		if (pattern[n - 1] == '*')
			n--;
		return len >= n && !memcmp(pattern, param, n);
	}
	return len == n && !memcmp(pattern, param, n);
}

int trust_cmdline_allowed(const char *const *patterns, size_t n,
			  const char *cmdline, struct lab_err *e)
{
	const char *w = cmdline;

	while (*w) {
		size_t len, i;

		w += strspn(w, " \t\n");
		len = strcspn(w, " \t\n");
		if (!len)
			break;
		for (i = 0; i < n; i++)
			if (trust_pattern_match(patterns[i], w, len))
				break;
		if (i == n)
			return lab_fail(e, LAB_FORBIDDEN, "kernel parameter '%.*s'"
					" is not on the allowlist (GET /api/v1/"
					"allowlist/cmdline; an admin adds patterns)",
					(int)(len > 128 ? 128 : len), w);
		w += len;
	}
	return 0;
}

/* The allowlist patterns, heap strings; the count or -1. */
static int load_patterns(sqlite3 *db, char **out, int cap)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT pattern FROM cmdline_allowlist"
				      " ORDER BY id");
	int n = 0;

	if (!st)
		return -1;
	while (n < cap && sqlite3_step(st) == SQLITE_ROW) {
		out[n] = strdup((const char *)sqlite3_column_text(st, 0));
		if (!out[n])
			break;
		n++;
	}
	sqlite3_finalize(st);
	return n;
}

static int check_cmdline(sqlite3 *db, const struct trust_who *who,
			 const char *cmdline, struct lab_err *e)
{
	char *pat[MAX_PATTERNS], why[256];
	int n, ret;

	if (!cmdline || !*cmdline)
		return 0;
	if (kcmdline_check(cmdline, why, sizeof(why)))
		return lab_fail(e, LAB_REJECTED, "%s", why);
	if (who->role == ROLE_ADMIN)
		return 0;
	n = load_patterns(db, pat, MAX_PATTERNS);
	if (n < 0)
		return lab_fail_db(e, db);
	ret = trust_cmdline_allowed((const char *const *)pat, (size_t)n,
				    cmdline, e);
	while (n--)
		free(pat[n]);
	return ret;
}

static int resolve_script(sqlite3 *db, struct variant_spec *v,
			  const char *name, char **buf, struct lab_err *e)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT script FROM setup_scripts"
				      " WHERE name = ?");
	int ret = 0;

	if (!st)
		return lab_fail_db(e, db);
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		*buf = strdup((const char *)sqlite3_column_text(st, 0));
		ret = *buf ? 0 : lab_fail(e, LAB_INTERNAL, "out of memory");
		v->setup = *buf;
		v->setup_script = name;
	} else {
		ret = lab_fail(e, LAB_REJECTED, "no stored setup script named"
			       " '%.64s' (GET /api/v1/setup-scripts)", name);
	}
	sqlite3_finalize(st);
	return ret;
}

int trust_variant(sqlite3 *db, const struct trust_who *who,
		  struct variant_spec *v, const char *script_name, char **buf,
		  struct lab_err *e)
{
	*buf = NULL;
	if (check_cmdline(db, who, v->cmdline, e))
		return -1;
	if (script_name && v->setup && *v->setup)
		return lab_fail(e, LAB_REJECTED, "give 'setup' or"
				" 'setup_script', not both");
	if (script_name)
		return resolve_script(db, v, script_name, buf, e);
	if (v->setup && *v->setup && who->role != ROLE_ADMIN)
		return lab_fail(e, LAB_FORBIDDEN, "raw 'setup' runs as root on"
				" the test host and needs an admin key; name a"
				" stored script with 'setup_script' (GET"
				" /api/v1/setup-scripts)");
	return 0;
}

int trust_quota(sqlite3 *db, const struct trust_who *who, int runs,
		struct lab_err *e)
{
	int64_t queued;

	if (runs > TRUST_MAX_REQUEST_RUNS)
		return lab_fail(e, LAB_REJECTED, "this request queues %d runs"
				" (variants x runs); at most %d may be queued per"
				" request", runs, TRUST_MAX_REQUEST_RUNS);
	if (who->role == ROLE_ADMIN || who->max_queued <= 0)
		return 0;
	queued = db_int(db, -1, "SELECT count(*) FROM jobs j JOIN experiments e"
			" ON e.id = j.experiment_id WHERE e.submitter_key_id = ?"
			" AND j.state IN ('queued', 'claimed', 'running')", 1,
			who->key_id);
	if (queued < 0)
		return lab_fail_db(e, db);
	if (queued + runs > who->max_queued)
		return lab_fail(e, LAB_QUOTA, "key '%s' has %lld runs queued or"
				" running and this request adds %d: the quota is"
				" %d per key (perflabd --max-queued-runs); retry"
				" when some finished", who->key_name,
				(long long)queued, runs, who->max_queued);
	return 0;
}

int trust_request(sqlite3 *db, const struct trust_who *who,
		  const char *backend, int runs, struct lab_err *e)
{
	if (backend && trust_backend_check(db, backend, e))
		return -1;
	return trust_quota(db, who, runs, e);
}

int trust_precheck(sqlite3 *db, const struct trust_who *who,
		   const char *backend, int runs, struct lab_err *e)
{
	sqlite3 *w = db_write_lock(db);
	int rc = trust_request(w, who, backend, runs, e);

	db_write_unlock(db, w);
	return rc;
}
