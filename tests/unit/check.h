/* SPDX-License-Identifier: MIT */
/*
 * Shared helpers for the unit test programs: a CHECK macro that counts
 * failures (with an optional printf-style message), DONE() to finish with
 * the right exit code, and slurp() to read a fixture file.
 */
#ifndef PERFLAB_TEST_CHECK_H
#define PERFLAB_TEST_CHECK_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* CHECK(cond) without a message passes "" as the format. */
#pragma GCC diagnostic ignored "-Wformat-zero-length"

static int fails;

static inline __attribute__((format(printf, 5, 6))) void
check_report(int ok, const char *file, int line, const char *cond,
	     const char *fmt, ...)
{
	va_list ap;

	if (ok)
		return;
	fails++;
	fprintf(stderr, "%s:%d: FAILED: %s", file, line, cond);
	if (fmt[0]) {
		fputs(": ", stderr);
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
	}
	fputc('\n', stderr);
}

/* CHECK(cond) or CHECK(cond, "fmt", args...) */
#define CHECK(cond, ...)                                                   \
	check_report(!!(cond), __FILE__, __LINE__, #cond, "" __VA_ARGS__)

#define DONE()                                                             \
	do {                                                               \
		printf("%s\n", fails ? "FAIL" : "ok");                     \
		return fails ? 1 : 0;                                      \
	} while (0)

/* The whole file, NUL-terminated (not counted in *len), or NULL. */
static inline char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 &&
	    fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n + 1)) &&
	    fread(buf, 1, (size_t)n, f) == (size_t)n) {
		buf[n] = '\0';
		*len = (size_t)n;
	} else {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

#endif
