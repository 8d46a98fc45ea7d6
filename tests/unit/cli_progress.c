// SPDX-License-Identifier: MIT
/*
 * Description: `perflab watch` progress bar: exact text of the bar for
 * done/total, clamping, unknown totals; on a non-terminal an unchanged
 * state is printed only once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/progress.h"

static int fails;

static void expect(const char *got, const char *want)
{
	if (strcmp(got, want)) {
		fprintf(stderr, "got  '%s'\nwant '%s'\n", got, want);
		fails++;
	}
}

int main(void)
{
	struct progress p;
	char buf[256], *mem = NULL;
	size_t memlen = 0;
	FILE *f;

	progress_format(buf, sizeof(buf), 10, 40, 8, "running");
	expect(buf, "[##......]  10/40 runs  25%  running");
	progress_format(buf, sizeof(buf), 0, 40, 8, NULL);
	expect(buf, "[........]   0/40 runs   0%");
	progress_format(buf, sizeof(buf), 50, 40, 4, "done");
	expect(buf, "[####]  40/40 runs 100%  done");
	progress_format(buf, sizeof(buf), 3, 0, 4, "queued");
	expect(buf, "[....]   3/? runs   0%  queued");

	f = open_memstream(&mem, &memlen);
	if (!f)
		return 1;
	progress_init(&p, f, false);
	p.width = 4;
	progress_update(&p, 1, 4, "a");
	progress_update(&p, 1, 4, "a");
	progress_update(&p, 2, 4, "a");
	progress_finish(&p);
	fclose(f);
	expect(mem, "[#...]   1/4 runs  25%  a\n[##..]   2/4 runs  50%  a\n");
	free(mem);

	mem = NULL;
	f = open_memstream(&mem, &memlen);
	if (!f)
		return 1;
	progress_init(&p, f, true);
	p.width = 4;
	progress_update(&p, 4, 4, NULL);
	progress_finish(&p);
	fclose(f);
	expect(mem, "\r[####]   4/4 runs 100%\033[K\n");
	free(mem);

	if (fails)
		return 1;
	printf("ok\n");
	return 0;
}
