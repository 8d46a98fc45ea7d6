// SPDX-License-Identifier: MIT
/*
 * Description: lei's mboxrd output split into messages (watch_poll.c):
 * three messages in, three out, each with its own bytes; body lines
 * ">From " and ">>From " lose exactly one '>' (mboxrd), ">Fromage" and
 * "From:" headers are left alone; the blank line mboxrd puts after each
 * message is not part of it; a message without a Message-ID gets the
 * "sha256:" id of its bytes (the hash of the same bytes computed here
 * with OpenSSL, an independent reference); NUL bytes inside a message
 * do not cut the batch short.
 */
#include <string.h>
#include <openssl/evp.h>

#include "daemon/lab/watch_poll.h"
#include "unit/check.h"

static const char mbox[] =
	"From mboxrd@z Thu Jan  1 00:00:00 1970\n"
	"From: A <a@x.org>\nSubject: [PATCH] one\nMessage-Id: <1@x>\n\n"
	"body\n>From the start\n>>From twice\n>Fromage\n\n"
	"From mboxrd@z Thu Jan  1 00:00:00 1970\n"
	"From: B <b@x.org>\nSubject: hello\n\nno id\n\n"
	"From mboxrd@z Thu Jan  1 00:00:00 1970\n"
	"From: C <c@x.org>\nSubject: Re: x\nMessage-Id: <3@x>\n\nnul\0inside\n\n";

int main(void)
{
	char *buf = malloc(sizeof(mbox));
	struct watch_batch b = { 0 };
	unsigned char md[32];
	unsigned int mdlen = 0;
	char hex[65], want[80];
	const char *m0;

	memcpy(buf, mbox, sizeof(mbox));
	CHECK(!watch_batch_split(buf, sizeof(mbox) - 1, &b));
	CHECK(b.n == 3, "%d messages", b.n);
	if (b.n != 3)
		DONE();
	m0 = "From: A <a@x.org>\nSubject: [PATCH] one\nMessage-Id: <1@x>\n\n"
	     "body\nFrom the start\n>From twice\n>Fromage\n";
	CHECK(b.m[0].len == strlen(m0) && !memcmp(b.m[0].raw, m0, b.m[0].len),
	      "'%.*s'", (int)b.m[0].len, b.m[0].raw);
	CHECK(!strcmp(b.m[0].id, "<1@x>"));
	CHECK(b.m[0].t.kind == MAIL_REFUSED && strstr(b.m[0].t.why, "without a diff"),
	      "%s", b.m[0].t.why);
	EVP_Digest(b.m[1].raw, b.m[1].len, md, &mdlen, EVP_sha256(), NULL);
	for (unsigned int i = 0; i < mdlen; i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
	snprintf(want, sizeof(want), "sha256:%s", hex);
	CHECK(!strcmp(b.m[1].id, want), "%s", b.m[1].id);
	CHECK(b.m[1].t.kind == MAIL_REFUSED && strstr(b.m[1].t.why, "Message-ID"));
	CHECK(b.m[2].len == strlen("From: C <c@x.org>\nSubject: Re: x\nMessage-Id: <3@x>\n\nnul") + 8,
	      "%zu", b.m[2].len);
	CHECK(b.m[2].t.kind == MAIL_REPLY && !strcmp(b.m[2].id, "<3@x>"));
	b.buf = buf;
	watch_batch_free(&b);
	DONE();
}
