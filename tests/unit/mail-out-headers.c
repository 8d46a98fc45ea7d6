// SPDX-License-Identifier: MIT
/*
 * Description: outgoing report mail headers (mail_out.c) against hostile
 * commit data: a subject with CR/LF + "Bcc:" stays one Subject header
 * (only known header names start a line), a non-ASCII subject becomes
 * RFC 2047 encoded words of at most 75 characters that decode back to the
 * subject (mail_decode_header), invalid UTF-8 becomes U+FFFD, recipients
 * and Message-IDs holding CR/LF/brackets/commas are left out, an
 * In-Reply-To that passes also goes into References, and body lines end
 * in CRLF.
 */
#include <stdbool.h>
#include <string.h>

#include "daemon/analysis/mail_header.h"
#include "daemon/analysis/mail_out.h"
#include "unit/check.h"

static const char *const known[] = {
	"From: ", "To: ", "Subject: ", "Message-ID: ", "In-Reply-To: ",
	"References: ", "Date: ", "MIME-Version: ", "Content-Type: ",
	"Content-Transfer-Encoding: ", " ", NULL,
};

/* Header lines: each known or a continuation, CRLF-ended, <= 78 wide. */
static int headers_ok(const char *m, size_t maxw)
{
	const char *p = m;

	while (*p && strncmp(p, "\r\n", 2)) {
		const char *e = strstr(p, "\r\n");
		int ok = 0;

		if (!e)
			return 0;
		for (int i = 0; known[i]; i++)
			ok |= !strncmp(p, known[i], strlen(known[i]));
		if (!ok || memchr(p, '\n', e - p) || memchr(p, '\r', e - p) ||
		    (size_t)(e - p) > maxw) {
			fprintf(stderr, "bad header line: %.*s\n", (int)(e - p), p);
			return 0;
		}
		p = e + 2;
	}
	return !strncmp(p, "\r\n", 2);
}

/* The Subject value unfolded (encoded words joined), decoded. */
static char *subject_of(const char *m)
{
	const char *p = strstr(m, "\r\nSubject: ") + 11, *e = p;
	char raw[4096];
	size_t n = 0;
	bool bad;

	while ((e = strstr(e, "\r\n")) && e[2] == ' ')
		e += 2;
	for (const char *q = p; q < e && n < sizeof(raw) - 1; q++)
		if (*q != '\r' && *q != '\n')
			raw[n++] = *q;
	raw[n] = '\0';
	return mail_decode_header(raw, n, &bad);
}

int main(void)
{
	const char *to[] = { "jane@dev.test", "list@lab.test\r\nBcc: evil@x",
			     "a,b@x", "<x@y>", "ok2@lab.test" };
	struct mail_out m = {
		.from = "perflab@lab.test",
		.from_name = "perflab",
		.to = to,
		.nr_to = 5,
		.subject = "[perflab] 0123456789ab block: x\r\nBcc: evil@x: -3.1% iops regression",
		.message_id = "<perflab-bisect-1@lab.test>",
		.in_reply_to = "<20261201.canary@dev.test>",
	};
	char *msg, *s;

	msg = mail_build(&m, "line one\nline two\n.\n");
	CHECK(msg);
	if (!msg)
		DONE();
	CHECK(headers_ok(msg, 998), "%s", msg);
	CHECK(!strstr(msg, "\r\nBcc:"));
	CHECK(strstr(msg, "Subject: [perflab] 0123456789ab block: x  Bcc: evil@x: -3.1% iops regression\r\n"));
	CHECK(strstr(msg, "To: jane@dev.test,\r\n ok2@lab.test\r\n"), "%s", msg);
	CHECK(!strstr(msg, "evil@x>") && !strstr(msg, "<x@y>"));
	CHECK(strstr(msg, "In-Reply-To: <20261201.canary@dev.test>\r\n"));
	CHECK(strstr(msg, "References: <20261201.canary@dev.test>\r\n"));
	CHECK(strstr(msg, "Message-ID: <perflab-bisect-1@lab.test>\r\n"));
	CHECK(strstr(msg, "\r\n\r\nline one\r\nline two\r\n.\r\n"));
	free(msg);

	/* non-ASCII: encoded words, folded, decoding to the subject */
	m.subject = "[perflab] 0123456789ab блок: ускорить отправку запросов "
		    "для очень длинной темы ünd ümlaut: -3.1% iops regression";
	m.in_reply_to = "<a@b>\r\nBcc: evil@x";
	m.message_id = "no-brackets@x";
	msg = mail_build(&m, "x");
	CHECK(msg && headers_ok(msg, 78), "%s", msg ? msg : "");
	CHECK(msg && strstr(msg, "Subject: =?UTF-8?B?"));
	CHECK(msg && !strstr(msg, "In-Reply-To") && !strstr(msg, "References"));
	CHECK(msg && !strstr(msg, "Message-ID"));
	s = msg ? subject_of(msg) : NULL;
	CHECK(s && !strcmp(s, m.subject), "decoded \"%s\"", s ? s : "(null)");
	free(s);
	free(msg);

	/* invalid UTF-8 and a control byte */
	m.subject = "bad \xff\xfe byte\x1b[31m";
	msg = mail_build(&m, "x");
	s = msg ? subject_of(msg) : NULL;
	CHECK(s && !strcmp(s, "bad \xef\xbf\xbd\xef\xbf\xbd byte [31m"),
	      "decoded \"%s\"", s ? s : "(null)");
	free(s);
	free(msg);

	/* no valid recipient: no message */
	m.nr_to = 2;
	m.to = to + 1;
	CHECK(!mail_build(&m, "x"));
	CHECK(mail_addr_ok("jane@dev.test") && !mail_addr_ok("-o@x") &&
	      !mail_addr_ok("a b@x") && !mail_addr_ok("a@") && !mail_addr_ok("@x"));
	DONE();
}
