// SPDX-License-Identifier: MIT
/*
 * Description: the guest console reader takes only the bytes added since
 * its last poll (bytes it already has are not read again: rewriting them
 * on disk changes nothing), stops at the cap with "over" set and memory
 * bounded by the cap, also for a stream past the real 64 MiB cap; the
 * markers are still found in the capture.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runners/runner/console.h"
#include "runners/runner/serial.h"
#include "unit/check.h"

static void append(int fd, const char *s, size_t n)
{
	CHECK(write(fd, s, n) == (ssize_t)n);
}

int main(void)
{
	char path[] = "/tmp/perflab-console.XXXXXX", chunk[4096];
	struct console c;
	size_t len;
	char *cap;
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	CHECK(CONSOLE_CAP == (size_t)64 << 20, "the cap is 64 MiB");

	/* Incremental: a poll reads only what was appended. */
	console_init(&c, path, 1 << 20);
	append(fd, "booting\n", 8);
	CHECK(console_poll(&c) == 1);
	CHECK(c.len == 8 && !strcmp(c.buf, "booting\n"));
	CHECK(console_poll(&c) == 0, "nothing new");
	CHECK(pwrite(fd, "BOOTING\n", 8, 0) == 8);	/* rewrite old bytes */
	append(fd, SERIAL_BENCH_BEGIN "\n", strlen(SERIAL_BENCH_BEGIN) + 1);
	CHECK(console_poll(&c) == 1);
	CHECK(!strncmp(c.buf, "booting\n", 8), "old bytes were read again");
	CHECK(serial_phase(c.buf, c.len) == SERIAL_RUNNING);

	/* Past the cap: the capture stops at it, memory too. */
	memset(chunk, 'x', sizeof(chunk));
	chunk[sizeof(chunk) - 1] = '\n';
	for (int i = 0; i < 300; i++)	/* 1.2 MiB */
		append(fd, chunk, sizeof(chunk));
	CHECK(console_poll(&c) == 1);
	CHECK(c.len == 1 << 20, "capture %zu bytes", c.len);
	CHECK(c.over, "over the cap");
	CHECK(c.alloc <= (1 << 20) + 1, "buffer %zu bytes", c.alloc);
	append(fd, chunk, sizeof(chunk));
	CHECK(console_poll(&c) == 0, "nothing more is taken");
	cap = console_take(&c, &len);
	CHECK(len == 1 << 20 && strlen(cap) == len);
	free(cap);
	console_free(&c);

	/* The real cap with a 70 MiB (sparse) stream. */
	CHECK(ftruncate(fd, (off_t)70 << 20) == 0);
	console_init(&c, path, CONSOLE_CAP);
	CHECK(console_poll(&c) == 1);
	CHECK(c.len == CONSOLE_CAP && c.over, "len %zu", c.len);
	CHECK(c.alloc <= CONSOLE_CAP + 1);
	console_free(&c);

	/* A missing file is "nothing yet", not an error. */
	unlink(path);
	console_init(&c, path, CONSOLE_CAP);
	CHECK(console_poll(&c) == 0);
	cap = console_take(&c, &len);
	CHECK(cap && len == 0);
	free(cap);
	console_free(&c);
	close(fd);
	DONE();
}
