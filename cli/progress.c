// SPDX-License-Identifier: MIT
/*
 * progress - progress bar for `perflab watch`.
 */
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cli/progress.h"

#define PROGRESS_MAX_WIDTH 100

void progress_init(struct progress *p, FILE *out, bool tty)
{
	memset(p, 0, sizeof(*p));
	p->out = out;
	p->tty = tty;
	p->width = 30;
	p->cols = 0;
	if (tty) {
		struct winsize ws;

		if (ioctl(fileno(out), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
			p->cols = ws.ws_col;
	}
}

int progress_format(char *buf, size_t len, int done, int total, int width,
		    const char *status)
{
	char bar[PROGRESS_MAX_WIDTH + 1];
	char tot[16];
	int fill = 0, pct = 0, i;

	if (width < 1)
		width = 1;
	if (width > PROGRESS_MAX_WIDTH)
		width = PROGRESS_MAX_WIDTH;
	if (done < 0)
		done = 0;
	if (total > 0) {
		if (done > total)
			done = total;
		fill = (int)((long long)done * width / total);
		pct = (int)((long long)done * 100 / total);
		snprintf(tot, sizeof(tot), "%d", total);
	} else {
		strcpy(tot, "?");
	}
	for (i = 0; i < width; i++)
		bar[i] = i < fill ? '#' : '.';
	bar[width] = '\0';
	return snprintf(buf, len, "[%s] %3d/%s runs %3d%%%s%s", bar, done, tot,
			pct, status && *status ? "  " : "",
			status ? status : "");
}

void progress_update(struct progress *p, int done, int total,
		     const char *status)
{
	char line[sizeof(p->last)];

	progress_format(line, sizeof(line), done, total, p->width, status);
	/* a wrapped line could not be redrawn with \r: cut it to the screen */
	if (p->tty && p->cols > 1 && strlen(line) >= (size_t)p->cols)
		line[p->cols - 1] = '\0';
	if (p->tty) {
		fprintf(p->out, "\r%s\033[K", line);
		p->drawn = true;
	} else if (strcmp(line, p->last)) {
		fprintf(p->out, "%s\n", line);
	}
	fflush(p->out);
	strcpy(p->last, line);
}

void progress_finish(struct progress *p)
{
	if (p->tty && p->drawn)
		fputc('\n', p->out);
	p->drawn = false;
	fflush(p->out);
}
