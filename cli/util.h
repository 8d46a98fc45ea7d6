/* SPDX-License-Identifier: MIT */
/*
 * util - small helpers shared by the CLI commands: exit codes, reading
 * files, query-string encoding.
 */
#ifndef PERFLAB_CLI_UTIL_H
#define PERFLAB_CLI_UTIL_H

#include <stdbool.h>
#include <stddef.h>

/* Exit codes of build/perflab. */
enum {
	CLI_OK = 0,
	CLI_REGRESSION = 1,	/* a regression verdict (watch/compare) */
	CLI_ERROR = 2,		/* usage, connection, HTTP error */
};

/* Largest file the CLI reads (patches, logs, series). */
#define CLI_MAX_FILE (16u << 20)

/*
 * Read all of @path into a malloc'd NUL-terminated buffer.  Returns 0, or
 * -1 with a message on stderr ("perflab: PATH: reason").
 */
int cli_read_file(const char *path, char **buf, size_t *len);

/*
 * Append "&name=value" (or "?name=value" for the first one) to the query
 * string @q of capacity @cap, percent-encoding @value.  Returns 0, or -1
 * when it does not fit.
 */
int cli_query_add(char *q, size_t cap, const char *name, const char *value);

/* Parse a positive decimal id (1 .. 2^53); -1 if malformed. */
long long cli_parse_id(const char *s);

/* Parse a positive int within [min, max]; -1 if malformed or outside. */
int cli_parse_int(const char *s, int min, int max);

/* Print "perflab: " + message + "\n" + a hint to run --help; returns 2. */
int cli_usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

#endif /* PERFLAB_CLI_UTIL_H */
