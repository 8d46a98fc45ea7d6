// SPDX-License-Identifier: MIT
/*
 * githook - signed push hooks of git hosts; see githook.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include <openssl/crypto.h>

#include "daemon/lab/alerts.h"
#include "daemon/lab/githook.h"
#include "daemon/lab/validate.h"
#include "daemon/store/sql.h"

static int copy(char *dst, size_t len, json_t *v, const char *what,
		struct lab_err *e)
{
	const char *s = json_string_value(v);

	if (!v || json_is_null(v))
		return 0;
	if (!s || strlen(s) >= len)
		return lab_fail(e, LAB_INVALID, "'%s' must be a string of at"
				" most %zu bytes", what, len - 1);
	snprintf(dst, len, "%s", s);
	return 0;
}

int githook_parse(const char *body, size_t len, const char *base_q,
		  struct githook_push *p, struct lab_err *e)
{
	json_t *o = json_loadb(body, len, 0, NULL), *kind;
	const char *k;
	json_t *v;
	int rc = -1;

	memset(p, 0, sizeof(*p));
	if (!json_is_object(o)) {
		lab_fail(e, LAB_INVALID, "the body must be a JSON object");
		goto out;
	}
	kind = json_object_get(o, "object_kind");
	if (json_object_get(o, "repository") || json_object_get(o, "project") ||
	    kind) {
		/* a forge's push event: the base is the hook URL's */
		if (kind && (!json_is_string(kind) ||
			     strcmp(json_string_value(kind), "push")))
			p->ignored = 1;
		if (!json_object_get(o, "ref"))
			p->ignored = 1;	/* GitHub's ping, other events */
	} else {
		json_object_foreach(o, k, v)
			if (strcmp(k, "base") && strcmp(k, "ref") &&
			    strcmp(k, "after")) {
				lab_fail(e, LAB_INVALID, "unknown field '%.64s'", k);
				goto out;
			}
		if (copy(p->base, sizeof(p->base), json_object_get(o, "base"),
			 "base", e))
			goto out;
	}
	if (copy(p->ref, sizeof(p->ref), json_object_get(o, "ref"), "ref", e) ||
	    copy(p->after, sizeof(p->after), json_object_get(o, "after"),
		 "after", e))
		goto out;
	if (!p->base[0] && base_q)
		snprintf(p->base, sizeof(p->base), "%.64s", base_q);
	if (!p->base[0] || !lab_valid_name(p->base)) {
		lab_fail(e, LAB_INVALID, "'base' (or ?base=NAME in the hook's"
			 " URL) is required: a base name");
		goto out;
	}
	rc = 0;
out:
	json_decref(o);
	return rc;
}

int githook_verify(sqlite3 *db, const char *base, const char *body,
		   size_t len, const char *sig, const char *token,
		   struct lab_err *e)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT hook_secret FROM bases WHERE"
				      " name = ? AND hook_secret IS NOT NULL");
	char *secret = NULL, want[65];
	int ok = 0;

	if (!st)
		return lab_fail_db(e, db);
	sqlite3_bind_text(st, 1, base, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		secret = strdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	if (!secret)
		return lab_fail(e, LAB_FORBIDDEN, "base '%s' takes no signed"
				" hooks (no such base, or no hook secret set):"
				" use an admin key", base);
	if (sig && !strncmp(sig, "sha256=", 7) && strlen(sig + 7) == 64) {
		alerts_signature(secret, body, len, want);
		ok = !CRYPTO_memcmp(want, sig + 7, 64);
	} else if (token && strlen(token) == strlen(secret)) {
		ok = !CRYPTO_memcmp(token, secret, strlen(secret));
	}
	OPENSSL_cleanse(secret, strlen(secret));
	free(secret);
	return ok ? 0 : lab_fail(e, LAB_FORBIDDEN, "the hook's signature does"
				 " not match base '%s''s hook secret", base);
}
