// SPDX-License-Identifier: MIT
/*
 * Description: a claimed job's git base (base.kind "git", url, commit) is
 * accepted only with a 40 lower-case hex commit and a url that is an
 * absolute path or an https/git/file URL; hostile urls (leading '-',
 * control characters, "::" transport helpers such as ext::, scp-like or
 * relative paths, other schemes) and bad commits fail the parse with a
 * reason naming the field; tarball bases keep their shape.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/git_names.h"
#include "runners/runner/gitbase.h"
#include "runners/runner/job.h"
#include "unit/check.h"

#define C40 "0123456789abcdef0123456789abcdef01234567"

static int parse(const char *base, struct job *j, char *err, size_t len)
{
	char *text = malloc(strlen(base) + 256);
	int ret;

	sprintf(text, "{\"job_id\":1,\"lease\":\"l\",\"variant\":{\"name\":"
		"\"v\"},\"bench\":{},\"base\":%s}", base);
	ret = job_parse(text, j, err, len);
	free(text);
	return ret;
}

int main(void)
{
	static const char *const good[] = {
		"/srv/linux.git", "/tmp/r", "https://git.kernel.org/a/b.git",
		"git://host/linux.git", "file:///srv/linux.git",
		"https://host:8443/x",
	};
	static const char *const bad[] = {
		"", "-uhelp", "--upload-pack=touch /tmp/pwn", "ext::sh -c id",
		"fd::17", "https::x", "/srv/a::b", "relative/path", "./x",
		"host:linux.git", "user@host:linux.git", "ssh://host/x",
		"http://host/x", "https://", "git://", "file://",
		"/srv/linux\n.git", "/srv/linux\t.git", "/srv/lin ux",
		"/srv/\x7f", "/srv/a\\b", "HTTPS://host/x", "ftp://host/x",
	};
	static const char *const badc[] = {
		"", "0123", C40 "8", "0123456789ABCDEF0123456789abcdef01234567",
		"0123456789abcdef0123456789abcdef0123456g", "HEAD", "master",
		"-0123456789abcdef0123456789abcdef0123456",
	};
	char err[512], why[256], buf[1200];
	struct job j;

	for (size_t i = 0; i < sizeof(good) / sizeof(*good); i++)
		CHECK(git_url_check(good[i], why, sizeof(why)) == 0,
		      "%s: %s", good[i], why);
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++)
		CHECK(git_url_check(bad[i], why, sizeof(why)) == -1,
		      "%s accepted", bad[i]);
	memset(buf, 'a', sizeof(buf));
	buf[0] = '/';
	buf[sizeof(buf) - 1] = 0;
	CHECK(git_url_check(buf, why, sizeof(why)) == -1);
	CHECK(git_url_check(NULL, why, sizeof(why)) == -1);
	CHECK(git_sha_valid(C40));
	for (size_t i = 0; i < sizeof(badc) / sizeof(*badc); i++)
		CHECK(!git_sha_valid(badc[i]), "%s", badc[i]);
	CHECK(!git_sha_valid(NULL));

	/* Job parsing. */
	CHECK(parse("{\"name\":\"g\",\"kind\":\"git\",\"url\":\"/srv/l.git\","
		    "\"ref\":\"master\",\"commit\":\"" C40 "\"}", &j, err,
		    sizeof(err)) == 0, "%s", err);
	CHECK(j.base_git && !strcmp(j.base_url, "/srv/l.git") &&
	      !strcmp(j.base_commit, C40) && !strcmp(j.base_name, "g"));
	job_free(&j);
	CHECK(parse("{\"name\":\"linux-6.1\",\"kind\":\"tarball\",\"tree\":"
		    "\"debian-linux-source-6.1\",\"ref\":\"\"}", &j, err,
		    sizeof(err)) == 0, "%s", err);
	CHECK(!j.base_git && !j.base_url && !j.base_commit);
	job_free(&j);
	CHECK(parse("{\"name\":\"linux-6.1\"}", &j, err, sizeof(err)) == 0);
	CHECK(!j.base_git);
	job_free(&j);
	CHECK(parse("{\"name\":\"g\",\"kind\":\"svn\"}", &j, err,
		    sizeof(err)) == -1 && strstr(err, "base.kind"));
	CHECK(parse("{\"name\":\"g\",\"kind\":\"git\",\"commit\":\"" C40
		    "\"}", &j, err, sizeof(err)) == -1 &&
	      strstr(err, "base url"), "%s", err);
	CHECK(parse("{\"name\":\"g\",\"kind\":\"git\",\"url\":\"/srv/l\"}",
		    &j, err, sizeof(err)) == -1 &&
	      strstr(err, "base.commit"), "%s", err);
	CHECK(parse("{\"name\":\"g\",\"kind\":\"git\",\"url\":\"ext::sh\","
		    "\"commit\":\"" C40 "\"}", &j, err, sizeof(err)) == -1 &&
	      strstr(err, "base url"), "%s", err);
	CHECK(parse("{\"name\":\"g\",\"kind\":\"git\",\"url\":"
		    "\"--upload-pack=x\",\"commit\":\"" C40 "\"}", &j, err,
		    sizeof(err)) == -1);
	CHECK(parse("{\"name\":\"g\",\"kind\":\"git\",\"url\":\"/srv/l\","
		    "\"commit\":\"--output=/etc/x\"}", &j, err,
		    sizeof(err)) == -1);
	CHECK(parse("{\"name\":\"g\",\"kind\":\"git\",\"url\":\"/srv/l\","
		    "\"commit\":7}", &j, err, sizeof(err)) == -1);
	/* An embedded NUL cannot shorten what git would see. */
	CHECK(parse("{\"name\":\"g\",\"kind\":\"git\",\"url\":\"/srv/l\\u0000"
		    "::x\",\"commit\":\"" C40 "\"}", &j, err,
		    sizeof(err)) == -1, "NUL in url accepted");
	DONE();
}
