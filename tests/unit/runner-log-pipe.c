// SPDX-License-Identifier: MIT
/*
 * Description: a child's stdout and stderr reach the log through a pipe
 * that the runner reads and appends; the child is never given the log's
 * path, and a log path that is a symlink (a build user's trick to make
 * root write elsewhere) is not followed: the run fails to start and the
 * link's target is unchanged.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runners/runner/rutil.h"
#include "unit/check.h"

static char root[] = "/tmp/perflab-logpipe-XXXXXX";

int main(void)
{
	char *argv[] = { "sh", "-c",
			 "echo out; echo err >&2; ls -l /proc/self/fd/1", NULL };
	char log[4200], target[4200], *text;
	struct rutil_cmd c;
	int st;

	if (!mkdtemp(root))
		return 1;
	snprintf(log, sizeof(log), "%s/build.log", root);
	snprintf(target, sizeof(target), "%s/victim", root);
	rutil_cmd_init(&c, argv);
	c.log = log;
	CHECK(rutil_run(&c, &st) == RUTIL_EXITED && st == 0);
	text = rutil_read_file(log, NULL);
	CHECK(text && strstr(text, "out\n") && strstr(text, "err\n"), "%s",
	      text ? text : "");
	/* The child's stdout is a pipe, not the log file. */
	CHECK(text && strstr(text, "pipe:") && !strstr(text, "build.log"),
	      "%s", text ? text : "");
	free(text);

	unlink(log);
	CHECK(rutil_write_file(target, "keep\n", 5) == 0);
	CHECK(symlink(target, log) == 0);
	CHECK(rutil_run(&c, &st) == RUTIL_ERROR);
	text = rutil_read_file(target, NULL);
	CHECK(text && !strcmp(text, "keep\n"));
	free(text);
	rutil_rm_rf(root);
	DONE();
}
