/* SPDX-License-Identifier: MIT */
/*
 * console: the guest's serial console capture, read as it grows.
 *
 * qemu appends the console to a file; the runner watches it for the
 * perflab markers while the guest runs. The guest is the patched kernel
 * plus whatever it prints, so the capture is read incrementally (only
 * the bytes added since the last poll) and kept to a cap: past it the
 * reader stops taking bytes and says so, and the caller stops the guest.
 */
#ifndef PERFLAB_CONSOLE_H
#define PERFLAB_CONSOLE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* What one guest boot may print (the bench JSON is well below 1 MiB). */
#define CONSOLE_CAP ((size_t)64 << 20)

struct console {
	const char *path;
	size_t cap;
	int fd;			/* -1 until the file exists */
	char *buf;		/* the capture, NUL-terminated; may be NULL */
	size_t len, alloc;
	bool over;		/* the file holds more than cap bytes */
};

void console_init(struct console *c, const char *path, size_t cap);
/*
 * Take the bytes the file gained since the last call (up to the cap).
 * 1 if there were new bytes, 0 if none, -1 on a read error.
 */
int console_poll(struct console *c);
/* Hand the capture over (heap, NUL-terminated, never NULL on success). */
char *console_take(struct console *c, size_t *len);
void console_free(struct console *c);

#endif
