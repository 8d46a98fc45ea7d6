// SPDX-License-Identifier: MIT
/*
 * Description: patch_parse decodes RFC 2047 encoded words in From: and
 * Subject: (Q and B encodings, UTF-8 and ISO-8859-1, adjacent words joined,
 * unknown charsets left as is), unfolds continuation lines and strips
 * "[PATCH v2 3/7]" / "[RFC PATCH]" prefixes but not other brackets; an
 * in-body "From:" (git send-email on behalf of an author) wins.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/analysis/patch_parse.h"
#include "unit/check.h"

#define FX "tests/fixtures/patches/"

#define DIFF "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n"

static void check(const char *hdrs, const char *author, const char *subject)
{
	struct patch_series s;
	char in[1024], err[256];

	snprintf(in, sizeof(in), "%s\n" DIFF, hdrs);
	if (patch_parse(in, strlen(in), &s, err, sizeof(err))) {
		printf("rejected: %s\n%s\n", err, in);
		fails++;
		return;
	}
	if (strcmp(s.patches[0].author, author) ||
	    strcmp(s.patches[0].subject, subject)) {
		printf("got author '%s' subject '%s'\nwant author '%s' subject '%s'\n",
		       s.patches[0].author, s.patches[0].subject, author,
		       subject);
		fails++;
	}
	patch_series_free(&s);
}

int main(void)
{
	check("From: =?UTF-8?q?J=C3=B6hn=20D=C5=93?= <john@example.org>\n"
	      "Subject: [PATCH v2 3/7] blk-mq: x\n",
	      "J\xc3\xb6hn D\xc5\x93 <john@example.org>", "blk-mq: x");
	check("From: =?utf-8?b?SsO2aG4=?= <j@e>\nSubject: [RFC PATCH] y\n",
	      "J\xc3\xb6hn <j@e>", "y");
	check("From: =?iso-8859-1?q?J=F6hn?= <j@e>\nSubject: [PATCH] [SCSI] z\n",
	      "J\xc3\xb6hn <j@e>", "[SCSI] z");
	check("From: =?utf-8?q?Ab?= =?utf-8?q?_Cd?= <a@b>\nSubject: s\n",
	      "Ab Cd <a@b>", "s");
	check("From: =?koi8-r?q?abc?= <a@b>\nSubject: =?UTF-8?q?caf=C3=A9?=\n",
	      "=?koi8-r?q?abc?= <a@b>", "caf\xc3\xa9");
	check("From: Plain Name <p@n>\nSubject: [PATCH 01/10] a long\n"
	      "  subject\n\tfolded\n",
	      "Plain Name <p@n>", "a long subject folded");
	check("From: =?utf-8?q?broken <a@b>\nSubject: s\n",
	      "=?utf-8?q?broken <a@b>", "s");
	check("From: Sender <s@x>\nSubject: [PATCH] t\n\n"
	      "From: =?utf-8?q?R=C3=A9al?= Author <r@a>\n",
	      "R\xc3\xa9"
	      "al Author <r@a>",
	      "t");
	if (fails)
		printf("%d checks failed\n", fails);
	return fails ? 1 : 0;
}
