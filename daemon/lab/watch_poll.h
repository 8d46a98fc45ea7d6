/* SPDX-License-Identifier: MIT */
/*
 * The slow half of a watch's poll, before any write lock: lei reads the
 * messages of the archive that match the watch's search within its
 * window, with their whole threads (covers, reviews, the lab's own
 * replies), as an mboxrd; each message is split out and read as hostile
 * input (analysis/mail_thread.h).
 *
 *	lei q --no-save --only INBOX -f mboxrd -t -n MAX -- "(QUERY) AND rt:@T.."
 *
 * lei runs with a fixed argv (no shell), PATH and its own XDG
 * directories under the lab's lei directory only, a timeout and a cap
 * on its output (gitmirror_run_env).
 */
#ifndef PERFLAB_WATCH_POLL_H
#define PERFLAB_WATCH_POLL_H

#include <stddef.h>
#include <time.h>

#include "daemon/analysis/mail_thread.h"
#include "daemon/lab/status.h"
#include "daemon/lab/watches.h"

/* Messages one poll reads at most (lei -n); output kept at most. */
#define WATCH_POLL_MAX_MESSAGES 5000
#define WATCH_POLL_MAX_BYTES (256u << 20)
#define WATCH_POLL_TIMEOUT_S 300

struct watch_msg {
	const char *raw;	/* into the batch's buffer */
	size_t len;
	char id[80];		/* t.message_id, or "sha256:<hex>" without one */
	struct mail_thread t;
};

struct watch_batch {
	char *buf;		/* lei's output, unescaped in place */
	struct watch_msg *m;
	int n;
};

/* Where lei keeps its state (XDG dirs) and its daemon's socket; set once
 * at start, beside the database like the git mirrors. */
void watch_poll_set_dir(const char *dir);
const char *watch_poll_dir(void);

/*
 * Run lei for watch @w at @now into @b. 0, or -1: LAB_UPSTREAM with
 * lei's message (the watch's poll_error). watch_batch_free() after.
 */
int watch_poll_read(const struct watch_row *w, time_t now,
		    struct watch_batch *b, struct lab_err *e);

/* Split @len bytes of mboxrd at @buf (modified: ">From " unescaped)
 * into @b's messages and read each (@b->buf is not set). 0 or -1. */
int watch_batch_split(char *buf, size_t len, struct watch_batch *b);

void watch_batch_free(struct watch_batch *b);

/* Stop lei's daemon (perflabd stops). */
void watch_poll_stop(void);

#endif
