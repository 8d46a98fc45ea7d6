// SPDX-License-Identifier: MIT
/*
 * Description: git_url_has_secret() and git_url_redact() (issue 27
 * finding 6) against hand-written expectations: userinfo (user@,
 * user:password@) and query strings are secrets and redacted as "***@"
 * and "?***"; an '@' or '?' in the path of a plain path or after the
 * host is not userinfo; URLs without secrets come back unchanged; a
 * short buffer truncates without overflow.
 */
#include <string.h>

#include "common/git_names.h"
#include "unit/check.h"

static const struct {
	const char *url, *redacted;
	int secret;
} cases[] = {
	{ "https://u:tok@h.example/r.git", "https://***@h.example/r.git", 1 },
	{ "https://tok@h.example/r.git", "https://***@h.example/r.git", 1 },
	{ "https://a@b:c@h.example:8443/r", "https://***@h.example:8443/r", 1 },
	{ "https://h.example/r.git?private_token=t", "https://h.example/r.git?***", 1 },
	{ "https://u:p@h.example?x=1", "https://***@h.example?***", 1 },
	{ "git://u@h.example/r", "git://***@h.example/r", 1 },
	{ "https://h.example/r@v2.git", "https://h.example/r@v2.git", 0 },
	{ "https://h.example/r.git", "https://h.example/r.git", 0 },
	{ "file:///srv/git/a@b", "file:///srv/git/a@b", 0 },
	{ "/srv/git/a@b?c", "/srv/git/a@b?c", 0 },
};

int main(void)
{
	char out[256], small[12];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CHECK(git_url_has_secret(cases[i].url) == cases[i].secret, "%s",
		      cases[i].url);
		git_url_redact(cases[i].url, out, sizeof(out));
		CHECK(!strcmp(out, cases[i].redacted), "%s -> %s", cases[i].url, out);
	}
	git_url_redact("https://u:tok@h.example/r.git", small, sizeof(small));
	CHECK(strlen(small) == sizeof(small) - 1 && !strstr(small, "tok"), "%s", small);
	CHECK(!git_url_has_secret(NULL));
	DONE();
}
