/* SPDX-License-Identifier: MIT */
/*
 * Shared helpers for the unit test programs: a CHECK macro that counts
 * failures (with an optional printf-style message), DONE() to finish with
 * the right exit code, slurp() to read a fixture file, and at()/put()/
 * sums() for fixture trees under a scratch directory (fixture_root).
 */
#ifndef PERFLAB_TEST_CHECK_H
#define PERFLAB_TEST_CHECK_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

/*
 * Fixture trees: a test sets fixture_root to its scratch directory
 * (after mkdtemp); at() names a file below it (eight names live at
 * once), put() writes one, making its directories.
 */
static const char *fixture_root;

static inline char *at(const char *rel)
{
	static char buf[8][4096];
	static int k;

	k = (k + 1) % 8;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", fixture_root, rel);
	return buf[k];
}

/* mkdir -p of @path's parent directories. */
static inline int fixture_mkdirs(char *path)
{
	for (char *p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST) {
			*p = '/';
			return -1;
		}
		*p = '/';
	}
	return 0;
}

static inline void put_bytes(const char *rel, const void *data, size_t len)
{
	char *p = at(rel);
	FILE *f = fixture_mkdirs(p) ? NULL : fopen(p, "wb");
	int ok = f && fwrite(data, 1, len, f) == len;

	if (f)
		ok &= !fclose(f);
	CHECK(ok, "writing fixture %s", p);
}

static inline void put(const char *rel, const char *text)
{
	put_bytes(rel, text, strlen(text));
}

/*
 * The tree @rel as text: every entry's type, path, link, mode and size,
 * then every file's sha256 (two trees are equal when these are).
 */
static inline char *sums(const char *rel)
{
	char cmd[4300];
	FILE *f;
	char *out = calloc(1, 1 << 20);

	snprintf(cmd, sizeof(cmd),
		 "cd %s && find . -printf '%%y %%p %%l %%m %%s\\n' "
		 "| sort; find . -type f -exec sha256sum {} + | sort", at(rel));
	f = popen(cmd, "r");
	if (f && out)
		out[fread(out, 1, (1 << 20) - 1, f)] = '\0';
	if (f)
		pclose(f);
	return out;
}

#endif
