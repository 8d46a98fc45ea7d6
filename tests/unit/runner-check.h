/* SPDX-License-Identifier: MIT */
/* Shared CHECK macro for the runner unit tests. */
#ifndef PERFLAB_RUNNER_CHECK_H
#define PERFLAB_RUNNER_CHECK_H

#include <stdio.h>

static int fails;

#define CHECK(cond)                                                        \
	do {                                                               \
		if (!(cond)) {                                             \
			fprintf(stderr, "%s:%d: FAILED: %s\n", __FILE__,   \
				__LINE__, #cond);                          \
			fails++;                                           \
		}                                                          \
	} while (0)

#define DONE()                                                             \
	do {                                                               \
		printf("%s\n", fails ? "FAIL" : "ok");                     \
		return fails ? 1 : 0;                                      \
	} while (0)

#endif
