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

#endif
