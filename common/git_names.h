/* SPDX-License-Identifier: MIT */
/*
 * git_names: the checks a git URL and a commit id pass before git sees
 * them, shared by the daemon's mirror (POST /api/v1/bases) and the
 * runner's clone (the claimed job), so both refuse the same inputs.
 */
#ifndef PERFLAB_GIT_NAMES_H
#define PERFLAB_GIT_NAMES_H

#include <stddef.h>

#define GIT_URL_MAX 1024

/* 1 when @s (may be NULL) is a full commit id: 40 lower-case hex. */
int git_sha_valid(const char *s);

/*
 * 0 if @url is an absolute path or an https://, git:// or file:// URL of
 * at most GIT_URL_MAX bytes, without a leading '-', a transport helper
 * ("::", e.g. ext::), spaces, control characters or backslashes; else -1
 * with the reason in @why (may be NULL).
 */
int git_url_check(const char *url, char *why, size_t len);

/*
 * 1 when @url carries a secret: a user or password before the host
 * (https://user:token@host/...) or a query string (?private_token=...).
 * A new base with such a URL is refused; the daemon's git user keeps
 * credentials in its own helper or .netrc instead.
 */
int git_url_has_secret(const char *url);

/*
 * @url for readers into @out: its userinfo as "***@" and its query as
 * "?***"; other URLs and paths unchanged (truncated to @len).
 */
void git_url_redact(const char *url, char *out, size_t len);

#endif
