// SPDX-License-Identifier: MIT
/*
 * Description: what the daemon hands to git from a request. Git URLs: an
 * absolute path or an https://, git:// or file:// URL; refused are
 * relative paths, a leading '-', ssh and other schemes, remote helpers
 * (ext::, "::"), spaces and control characters, an empty scheme body and
 * over-long URLs. Ref and commit names: [A-Za-z0-9._/-], refused with a
 * leading '-' or '/', "..", "//", "@{", a ".lock" or '/' or '.' ending,
 * other characters (^ ~ : space) or over 200 bytes. 40-hex commit ids:
 * lower case only, exactly 40.
 */
#include <string.h>

#include "common/git_names.h"
#include "daemon/lab/gitmirror.h"
#include "unit/check.h"

int main(void)
{
	static const char *const good_urls[] = { "/srv/linux.git", "/a",
		"https://git.kernel.org/pub/scm/linux/kernel/git/axboe/linux.git",
		"git://git.kernel.org/x.git", "file:///srv/linux.git", NULL };
	static const char *const bad_urls[] = { "", "relative/path", "./x", "-x",
		"--upload-pack=touch /tmp/pwned", "ext::sh -c id", "ext::x",
		"ssh://host/repo", "git@host:repo", "http://host/x", "https://",
		"/srv/a b", "/srv/a\tb", "/srv/a\nb", "/srv/\x7f", "fd::3",
		"https://host/x::y", NULL };
	static const char *const good_refs[] = { "master", "for-next",
		"refs/heads/master", "v6.1", "a1b2c3d", "origin/for-6.2/block",
		"x_y.z", NULL };
	static const char *const bad_refs[] = { "", "-x", "--all", "/master",
		"master/", "a..b", "a//b", "HEAD@{1}", "x.lock", "x.", "a^", "a~1",
		"a:b", "a b", "a\\b", "$(id)", "a*", NULL };
	char why[256], longurl[1100], longref[210];
	size_t i;

	for (i = 0; good_urls[i]; i++)
		CHECK(git_url_check(good_urls[i], why, sizeof(why)) == 0,
		      "url '%s' refused: %s", good_urls[i], why);
	for (i = 0; bad_urls[i]; i++) {
		why[0] = '\0';
		CHECK(git_url_check(bad_urls[i], why, sizeof(why)) == -1,
		      "url '%s' accepted", bad_urls[i]);
		CHECK(why[0] != '\0', "no reason for '%s'", bad_urls[i]);
	}
	memset(longurl, 'a', sizeof(longurl) - 1);
	longurl[0] = '/';
	longurl[sizeof(longurl) - 1] = '\0';
	CHECK(git_url_check(longurl, why, sizeof(why)) == -1);

	for (i = 0; good_refs[i]; i++)
		CHECK(gitmirror_check_ref(good_refs[i]) == 0, "ref '%s' refused",
		      good_refs[i]);
	for (i = 0; bad_refs[i]; i++)
		CHECK(gitmirror_check_ref(bad_refs[i]) == -1, "ref '%s' accepted",
		      bad_refs[i]);
	memset(longref, 'a', sizeof(longref) - 1);
	longref[sizeof(longref) - 1] = '\0';
	CHECK(gitmirror_check_ref(longref) == -1);
	longref[200] = '\0';
	CHECK(gitmirror_check_ref(longref) == 0);

	CHECK(git_sha_valid("0123456789abcdef0123456789abcdef01234567"));
	CHECK(!git_sha_valid("0123456789ABCDEF0123456789abcdef01234567"));
	CHECK(!git_sha_valid("0123456789abcdef0123456789abcdef0123456"));
	CHECK(!git_sha_valid("0123456789abcdef0123456789abcdef012345678"));
	CHECK(!git_sha_valid("0123456789abcdef0123456789abcdef0123456g"));
	DONE();
}
