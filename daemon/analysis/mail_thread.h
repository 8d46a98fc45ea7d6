/* SPDX-License-Identifier: MIT */
/*
 * mail_thread - one message read from a watched list archive: the
 * headers that place it in a thread (Message-ID, In-Reply-To,
 * References), the tags of its subject ("[PATCH v2 3/5]") and what kind
 * of message it is for the lab. Every message is hostile: the reader
 * never reads past len, bounds every header, and says in @why why it
 * refused one. The diff itself is parsed later (patch_parse.h).
 */
#ifndef PERFLAB_MAIL_THREAD_H
#define PERFLAB_MAIL_THREAD_H

#include <stdbool.h>
#include <stddef.h>

/* One message of a list; a larger one is refused unread. */
#define MAIL_MSG_MAX (1u << 20)
/* The header the lab sets on its own replies: a message carrying it is
 * never tested nor answered (no reply loops). */
#define MAIL_LAB_HEADER "X-Perflab-Reply"
/* Patches in a series, as its subject numbers them. */
#define MAIL_MAX_TOTAL 100

enum mail_kind {
	MAIL_PATCH,	/* "[PATCH .. m/n]" (or none) with a diff */
	MAIL_COVER,	/* "[PATCH .. 0/n]" */
	MAIL_REPLY,	/* "Re:", or no [PATCH] tag: a review or discussion */
	MAIL_OWN,	/* one of the lab's own replies (MAIL_LAB_HEADER) */
	MAIL_REFUSED,	/* hostile or malformed: @why says why */
};

/* The tags of a subject. */
struct mail_subject {
	bool patch;	/* a [PATCH ...] or [RFC ...] tag */
	bool reply;	/* starts with Re:/Fwd:/Aw: */
	int version;	/* vN, 1 without one */
	int idx, total;	/* m/n; 1/1 without one */
	char norm[256];	/* lowercased, tags stripped, spaces collapsed */
};

/* Parse @subject (decoded, NUL-terminated); bad numbers give idx 0. */
void mail_subject_parse(const char *subject, struct mail_subject *s);

struct mail_thread {
	enum mail_kind kind;
	char why[256];		/* MAIL_REFUSED: the refusal for the log */
	char *message_id;	/* "<..>"; NULL only when refused for it */
	char *in_reply_to;	/* "<..>" or NULL */
	char *root;		/* the thread's first message: the first
				 * References entry, else In-Reply-To, else
				 * the message itself */
	char *subject;		/* decoded */
	char *from;		/* decoded */
	char *from_addr;	/* the addr-spec of From, or "" */
	char *change_id;	/* b4's "change-id:" line, or NULL */
	char *base_commit;	/* "base-commit: <sha>" (40 hex), or NULL */
	struct mail_subject subj;
	size_t body_off;	/* where the body starts in the raw bytes */
};

/*
 * Read the @len bytes at @raw (not NUL-terminated) into @t. Always fills
 * t->kind (and t->why when refused); returns -1 only without memory.
 * mail_thread_free(@t) after.
 */
int mail_thread_read(const char *raw, size_t len, struct mail_thread *t);
void mail_thread_free(struct mail_thread *t);

/* "patch", "cover", "reply", "own", "refused" */
const char *mail_kind_name(enum mail_kind k);

#endif /* PERFLAB_MAIL_THREAD_H */
