// SPDX-License-Identifier: MIT
/*
 * util - CLI helpers: files, query strings, numbers, usage errors.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/util.h"

static int read_fd(int fd, const char *path, char **buf, size_t *len)
{
	size_t cap = 65536, n = 0;
	char *p = malloc(cap), *np;
	ssize_t r;

	if (!p)
		goto nomem;
	for (;;) {
		if (n + 1 >= cap) {
			if (cap > CLI_MAX_FILE) {
				fprintf(stderr,
					"perflab: %s: larger than %u MiB\n",
					path, CLI_MAX_FILE >> 20);
				free(p);
				return -1;
			}
			np = realloc(p, cap * 2);
			if (!np)
				goto nomem;
			p = np;
			cap *= 2;
		}
		r = read(fd, p + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			fprintf(stderr, "perflab: %s: %s\n", path,
				strerror(errno));
			free(p);
			return -1;
		}
		if (r == 0)
			break;
		n += r;
	}
	p[n] = '\0';
	*buf = p;
	*len = n;
	return 0;
nomem:
	free(p);
	fprintf(stderr, "perflab: out of memory\n");
	return -1;
}

int cli_read_file(const char *path, char **buf, size_t *len)
{
	struct stat st;
	int fd, ret;

	if (!strcmp(path, "-"))
		return read_fd(0, "<stdin>", buf, len);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "perflab: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		fprintf(stderr, "perflab: %s: is a directory\n", path);
		close(fd);
		return -1;
	}
	ret = read_fd(fd, path, buf, len);
	close(fd);
	return ret;
}

int cli_query_add(char *q, size_t cap, const char *name, const char *value)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t n = strlen(q);
	const unsigned char *v;

	if (n + strlen(name) + 3 > cap)
		return -1;
	q[n] = n ? '&' : '?';
	n++;
	strcpy(q + n, name);
	n += strlen(name);
	q[n++] = '=';
	for (v = (const unsigned char *)value; *v; v++) {
		if (n + 4 > cap)
			return -1;
		if ((*v >= 'a' && *v <= 'z') || (*v >= 'A' && *v <= 'Z') ||
		    (*v >= '0' && *v <= '9') || strchr("-_.~", *v)) {
			q[n++] = *v;
		} else {
			q[n++] = '%';
			q[n++] = hex[*v >> 4];
			q[n++] = hex[*v & 15];
		}
	}
	q[n] = '\0';
	return 0;
}

long long cli_parse_id(const char *s)
{
	long long v;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || *end || v < 1 || v > (1LL << 53))
		return -1;
	return v;
}

int cli_parse_int(const char *s, int min, int max)
{
	long v;
	char *end;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	return (int)v;
}

int cli_usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("perflab: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\n(run 'perflab --help' for usage)\n", stderr);
	return CLI_ERROR;
}
