/* SPDX-License-Identifier: MIT */
/*
 * progress - one-line progress display for `perflab watch`.
 *
 * On a terminal the line is redrawn in place ("\r" + clear to end of
 * line), cut to the terminal's width so it never wraps; otherwise a new
 * line is printed only when the text changes, so logs of CI jobs stay
 * short.
 */
#ifndef PERFLAB_CLI_PROGRESS_H
#define PERFLAB_CLI_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct progress {
	FILE *out;
	bool tty;
	int width;		/* bar cells */
	int cols;		/* terminal columns (tty), 0 if unknown */
	bool drawn;		/* a line is on screen (tty) */
	char last[512];		/* last text printed */
};

void progress_init(struct progress *p, FILE *out, bool tty);

/*
 * Format "[#######.......]  7/40 runs  18%  STATUS" into @buf: @width
 * cells, '#' for done, '.' for the rest.  @total <= 0 draws an empty bar
 * and "?" for the total.  Returns the snprintf() length.
 */
int progress_format(char *buf, size_t len, int done, int total, int width,
		    const char *status);

/* Show @done of @total with a status text (may be NULL). */
void progress_update(struct progress *p, int done, int total,
		     const char *status);

/* End the line on a terminal so the next output starts clean. */
void progress_finish(struct progress *p);

#endif /* PERFLAB_CLI_PROGRESS_H */
