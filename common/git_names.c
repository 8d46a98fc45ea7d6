// SPDX-License-Identifier: MIT
/*
 * git_names: see git_names.h.
 */
#include "common/git_names.h"

#include <stdio.h>
#include <string.h>

int git_sha_valid(const char *s)
{
	size_t i;

	for (i = 0; s && s[i]; i++)
		if (!strchr("0123456789abcdef", s[i]))
			return 0;
	return s && i == 40;
}

int git_url_check(const char *url, char *why, size_t len)
{
	static const char *const schemes[] = { "https://", "git://",
					       "file://" };
	size_t n = url ? strlen(url) : 0;
	const char *bad = NULL;

	if (!n || n > GIT_URL_MAX)
		bad = "empty or longer than 1024 bytes";
	else if (url[0] == '-')
		bad = "starts with '-'";
	else if (strstr(url, "::"))
		bad = "transport helper syntax (::) is not allowed";
	for (size_t i = 0; !bad && i < n; i++)
		if ((unsigned char)url[i] <= ' ' || url[i] == 0x7f ||
		    url[i] == '\\')
			bad = "control character, space or backslash";
	if (!bad && url[0] != '/') {
		bad = "not an absolute path or an https://, git:// or "
		      "file:// URL";
		for (size_t i = 0; i < 3; i++)
			if (!strncmp(url, schemes[i], strlen(schemes[i])) &&
			    url[strlen(schemes[i])])
				bad = NULL;
	}
	if (bad && why)
		snprintf(why, len, "%s", bad);
	return bad ? -1 : 0;
}

/* The authority of @url: [*b, *e) after "scheme://", up to the path. */
static int authority(const char *url, const char **b, const char **e)
{
	const char *p = url ? strstr(url, "://") : NULL;

	if (!p)
		return -1;
	*b = p + 3;
	*e = *b + strcspn(*b, "/?#");
	return 0;
}

int git_url_has_secret(const char *url)
{
	const char *b, *e;

	if (authority(url, &b, &e))
		return 0;
	return memchr(b, '@', e - b) || strchr(e, '?');
}

void git_url_redact(const char *url, char *out, size_t len)
{
	const char *b, *e, *at = NULL, *q;

	if (!len)
		return;
	if (authority(url, &b, &e)) {
		snprintf(out, len, "%s", url ? url : "");
		return;
	}
	for (const char *p = b; p < e; p++)
		if (*p == '@')
			at = p;
	q = strchr(e, '?');
	snprintf(out, len, "%.*s%s%.*s%.*s%s", (int)(b - url), url,
		 at ? "***@" : "", (int)(e - (at ? at + 1 : b)),
		 at ? at + 1 : b, (int)(q ? (size_t)(q - e) : strlen(e)), e,
		 q ? "?***" : "");
}
