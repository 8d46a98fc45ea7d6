/* SPDX-License-Identifier: MIT */
/*
 * mail_header - decode mail header values (used by patch_parse).
 */
#ifndef PERFLAB_MAIL_HEADER_H
#define PERFLAB_MAIL_HEADER_H

#include <stdbool.h>
#include <stddef.h>

/* Strict UTF-8: no overlongs, surrogates or code points past U+10FFFF. */
bool mail_utf8_valid(const unsigned char *s, size_t n);

/*
 * Decode the RFC 2047 encoded words (Q/B; UTF-8, US-ASCII, ISO-8859-1) in
 * the n bytes at s; other charsets are left as they are.  Returns a
 * malloc'd NUL-terminated string with control characters replaced by
 * spaces, or NULL: *bad_utf8 is then set if the result is not UTF-8,
 * otherwise allocation failed.
 */
char *mail_decode_header(const char *s, size_t n, bool *bad_utf8);

/*
 * Skip leading "[PATCH ...]" / "[RFC ...]" groups of a NUL-terminated
 * subject; *cover is set if one numbers the patch 0/N (a cover letter).
 */
const char *mail_strip_subject(const char *s, bool *cover);

#endif /* PERFLAB_MAIL_HEADER_H */
