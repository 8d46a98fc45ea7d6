// SPDX-License-Identifier: MIT
/*
 * Series of list messages; see mail_series.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "daemon/analysis/mail_series.h"

char *mail_series_key(const struct mail_thread *t)
{
	size_t n;
	char *k;

	if (!t->root || (t->kind != MAIL_PATCH && t->kind != MAIL_COVER))
		return NULL;
	n = strlen(t->root) + 16;
	k = malloc(n);
	if (k)
		snprintf(k, n, "%s#v%d", t->root, t->subj.version);
	return k;
}

const char *mail_series_state_name(enum series_state s)
{
	static const char *const names[] = { "waiting", "complete", "timed_out",
					     "bad" };

	return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] : "?";
}

enum series_state mail_series_state(const bool *have, int total, int dups,
				    bool totals_differ, int64_t first,
				    int64_t now, int timeout, char *missing,
				    size_t len)
{
	size_t o = 0;
	int nmiss = 0;

	if (len)
		missing[0] = '\0';
	if (totals_differ || dups || total < 1 || total > MAIL_MAX_TOTAL)
		return SERIES_BAD;
	for (int i = 1; i <= total; i++) {
		if (have[i])
			continue;
		nmiss++;
		if (o < len) {
			int w = snprintf(missing + o, len - o, "%s%d", o ? ", " : "", i);

			o = w < 0 ? len : o + (size_t)w;
		}
	}
	if (!nmiss)
		return SERIES_COMPLETE;
	return now - first >= timeout ? SERIES_TIMED_OUT : SERIES_WAITING;
}

int mail_series_same(const struct series_ident *earlier,
		     const struct series_ident *later)
{
	if (later->version <= earlier->version)
		return 0;
	if (earlier->change_id && later->change_id)
		return !strcmp(earlier->change_id, later->change_id);
	if (!earlier->subject || !later->subject || !earlier->author ||
	    !later->author || !*earlier->author)
		return 0;
	return !strcmp(earlier->subject, later->subject) &&
	       !strcasecmp(earlier->author, later->author);
}
