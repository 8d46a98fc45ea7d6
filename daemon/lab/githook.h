/* SPDX-License-Identifier: MIT */
/*
 * githook - POST /api/v1/hooks/git without an admin key: a git host's
 * push hook, trusted by a per-base secret (bases.hook_secret) and able
 * only to make the lab poll that base's tracks (docs/security.md).
 *
 * Payloads: perflab's own {"base", "ref", "after"}, a GitHub push event
 * ("ref", "after", "repository") and a GitLab push hook ("object_kind":
 * "push", "ref", "after", "project"); for the last two the base is the
 * URL's ?base=NAME. Signatures: GitHub's "X-Hub-Signature-256:
 * sha256=<hex HMAC-SHA256 of the body>" or perflab's own
 * "X-Perflab-Signature" of the same form (the lab's outgoing webhooks
 * sign the same way, alerts_signature), or GitLab's "X-Gitlab-Token:
 * <secret>".
 */
#ifndef PERFLAB_GITHOOK_H
#define PERFLAB_GITHOOK_H

#include <stddef.h>

#include "daemon/lab/status.h"
#include "daemon/store/conn.h"

struct githook_push {
	char base[65];
	char ref[257];		/* "" : every track of the base */
	char after[65];
	int ignored;		/* not a push (a ping, a tag event...) */
};

/*
 * Parse @len bytes of @body; @base_q is the query's base (may be NULL).
 * 0, or -1 LAB_INVALID with the reason.
 */
int githook_parse(const char *body, size_t len, const char *base_q,
		  struct githook_push *p, struct lab_err *e);

/*
 * Does @sig ("sha256=<hex>", may be NULL) sign @body with @base's hook
 * secret, or is @token (may be NULL) that secret? 0, or -1 LAB_FORBIDDEN
 * (no such base, no secret set, wrong signature).
 */
int githook_verify(store_conn *db, const char *base, const char *body,
		   size_t len, const char *sig, const char *token,
		   struct lab_err *e);

#endif /* PERFLAB_GITHOOK_H */
