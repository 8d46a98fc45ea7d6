// SPDX-License-Identifier: MIT
/*
 * console: incremental, capped reader of the guest console capture.
 */
#include "runners/runner/console.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void console_init(struct console *c, const char *path, size_t cap)
{
	memset(c, 0, sizeof(*c));
	c->path = path;
	c->cap = cap;
	c->fd = -1;
}

/* Room for @want more bytes (and the NUL), growing geometrically. */
static int reserve(struct console *c, size_t want)
{
	size_t need = c->len + want + 1, n = c->alloc ? c->alloc : 65536;
	char *b;

	if (need <= c->alloc)
		return 0;
	while (n < need)
		n *= 2;
	if (n > c->cap + 1)
		n = c->cap + 1;
	b = realloc(c->buf, n);
	if (!b)
		return -1;
	c->buf = b;
	c->alloc = n;
	return 0;
}

int console_poll(struct console *c)
{
	size_t before = c->len, want;
	struct stat st;

	if (c->fd < 0) {
		c->fd = open(c->path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
		if (c->fd < 0)
			return errno == ENOENT ? 0 : -1;
	}
	if (fstat(c->fd, &st))
		return -1;
	if ((size_t)st.st_size > c->cap)
		c->over = true;
	/* Only what was added since the last poll, never past the cap. */
	want = (size_t)st.st_size > c->len ? (size_t)st.st_size - c->len : 0;
	if (want > c->cap - c->len)
		want = c->cap - c->len;
	if (want && reserve(c, want))
		return -1;
	while (want) {
		ssize_t n = pread(c->fd, c->buf + c->len, want, (off_t)c->len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		c->len += (size_t)n;
		want -= (size_t)n;
		c->buf[c->len] = '\0';
	}
	return c->len > before;
}

char *console_take(struct console *c, size_t *len)
{
	char *b = c->buf ? c->buf : strdup("");

	*len = c->buf ? c->len : 0;
	c->buf = NULL;
	c->len = c->alloc = 0;
	return b;
}

void console_free(struct console *c)
{
	if (c->fd >= 0)
		close(c->fd);
	free(c->buf);
	c->fd = -1;
	c->buf = NULL;
}
