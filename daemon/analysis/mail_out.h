/* SPDX-License-Identifier: MIT */
/*
 * mail_out - build an outgoing RFC 5322 message from untrusted parts
 * (commit subjects and authors come from whoever wrote the commit).
 *
 * Header safety: a header value never carries CR, LF or another control
 * character (they become spaces), so no text can start a header of its
 * own; a value with non-ASCII bytes is sent as RFC 2047 "B" encoded
 * words of UTF-8 (invalid UTF-8 becomes U+FFFD first), at most 75
 * characters each, folded onto continuation lines. Addresses and
 * Message-IDs are not encoded but checked: one that fails the check is
 * left out rather than repaired.
 */
#ifndef PERFLAB_MAIL_OUT_H
#define PERFLAB_MAIL_OUT_H

#include <stddef.h>

/* 1 when @s is a plain addr-spec local@domain: printable ASCII without
 * spaces, quotes, brackets, commas, ';', ':' or '\', at most 254 bytes. */
int mail_addr_ok(const char *s);

/* 1 when @s is "<id-left@id-right>" of printable ASCII (no spaces or
 * further angle brackets), at most 250 bytes. */
int mail_msgid_ok(const char *s);

/* "Name: value\r\n" with @value made safe as above (malloc'd) or NULL. */
char *mail_header_line(const char *name, const char *value);

struct mail_out {
	const char *from;		/* addr-spec */
	const char *from_name;		/* display name, may be NULL */
	const char *const *to;		/* addr-specs; bad ones are left out */
	size_t nr_to;
	const char *subject;
	const char *message_id;		/* "<..>"; left out when not ok */
	const char *in_reply_to;	/* "<..>" or NULL; also References */
	const char *date;		/* RFC 5322 date or NULL */
	const char *lab_reply;		/* non-NULL: "X-Perflab-Reply: <it>",
					 * the mark of the lab's own list
					 * replies (mail_thread.h) */
};

/*
 * The whole message: headers, blank line, @body with every line ending
 * in CRLF (malloc'd), or NULL when out of memory or no recipient is ok.
 */
char *mail_build(const struct mail_out *m, const char *body);

#endif /* PERFLAB_MAIL_OUT_H */
