// SPDX-License-Identifier: MIT
/*
 * Description: list messages as a watch reads them (mail_thread.c) and
 * the series they make (mail_series.c), against an exact enumeration:
 * every fixture of tests/fixtures/mail/ gets its kind, refusal, thread
 * root and series key; subjects with every tag form parse to the listed
 * version and m/n; a message over 1 MiB, one without a Message-ID, a
 * bare "From " line and a header of 20 KiB are refused, never read on;
 * completeness lists the missing patches and times out; v2 is linked to
 * v1 by change-id, else by subject and author, never backwards.
 */
#include <stdbool.h>
#include <string.h>

#include "daemon/analysis/mail_series.h"
#include "daemon/analysis/mail_thread.h"
#include "unit/check.h"

static const struct {
	const char *subject;
	bool patch, reply;
	int version, idx, total;
	const char *norm;
} subjects[] = {
	{ "[PATCH] block: fix", true, false, 1, 1, 1, "block: fix" },
	{ "[PATCH v2 3/5] block: Fix  It", true, false, 2, 3, 5, "block: fix it" },
	{ "[PATCH net-next v3 0/2] net: x", true, false, 3, 0, 2, "net: x" },
	{ "[RFC PATCH 1/1] y", true, false, 1, 1, 1, "y" },
	{ "[RFC][PATCH v10 07/12] z", true, false, 10, 7, 12, "z" },
	{ "Re: [PATCH 2/3] block: tag", true, true, 1, 2, 3, "block: tag" },
	{ "RE: Fwd: [PATCH] a", true, true, 1, 1, 1, "a" },
	{ "io_uring numbers?", false, false, 1, 1, 1, "io_uring numbers?" },
	{ "[syzbot] crash in x", false, false, 1, 1, 1, "crash in x" },
	{ "[PATCH 4/3] too far", true, false, 1, -1, 3, "too far" },
	{ "[PATCH 1/0] zero", true, false, 1, -1, -1, "zero" },
	{ "[PATCH 1/101] many", true, false, 1, -1, -1, "many" },
	{ "[PATCH v0 1/2] v0 is no version", true, false, 1, 1, 2, "v0 is no version" },
};

static const struct {
	const char *file;
	enum mail_kind kind;
	const char *why;	/* part of the refusal */
	const char *msgid, *root;
	int version, idx, total;
} fixtures[] = {
	{ "01-v1-cover.eml", MAIL_COVER, "", "<v1-0@example.org>", "<v1-0@example.org>", 1, 0, 3 },
	{ "02-v1-p1.eml", MAIL_PATCH, "", "<v1-1@example.org>", "<v1-0@example.org>", 1, 1, 3 },
	{ "03-v1-p2.eml", MAIL_PATCH, "", "<v1-2@example.org>", "<v1-0@example.org>", 1, 2, 3 },
	{ "04-v1-p3.eml", MAIL_PATCH, "", "<v1-3@example.org>", "<v1-0@example.org>", 1, 3, 3 },
	{ "05-review.eml", MAIL_REPLY, "", "<review-1@example.org>", "<v1-0@example.org>", 1, 2, 3 },
	{ "06-v2-cover.eml", MAIL_COVER, "", "<v2-0@example.org>", "<v1-0@example.org>", 2, 0, 2 },
	{ "07-v2-p1.eml", MAIL_PATCH, "", "<v2-1@example.org>", "<v1-0@example.org>", 2, 1, 2 },
	{ "08-v2-p2.eml", MAIL_PATCH, "", "<v2-2@example.org>", "<v1-0@example.org>", 2, 2, 2 },
	{ "09-nonpatch.eml", MAIL_REPLY, "", "<question-1@example.org>", "<question-1@example.org>", 1, 1, 1 },
	{ "10-malformed.eml", MAIL_REFUSED, "malformed header line", NULL, NULL, 0, 0, 0 },
	{ "11-base64.eml", MAIL_REFUSED, "base64-encoded body", "<b64-1@example.org>", "<b64-1@example.org>", 1, 1, 1 },
	{ "12-symlink.eml", MAIL_REFUSED, "symlink or submodule mode in a/block/link", "<sym-1@example.org>", "<sym-1@example.org>", 1, 1, 1 },
	{ "13-outside.eml", MAIL_PATCH, "", "<out-1@example.org>", "<out-1@example.org>", 1, 1, 1 },
	{ "14-own-reply.eml", MAIL_OWN, "", "<perflab-1@perflab.example>", "<v1-0@example.org>", 1, 0, 3 },
	{ "15-lonely.eml", MAIL_PATCH, "", "<lonely-1@example.org>", "<lonely-1@example.org>", 1, 1, 2 },
	{ "16-noapply.eml", MAIL_PATCH, "", "<noapply-1@example.org>", "<noapply-1@example.org>", 1, 1, 1 },
};

static void check_subjects(void)
{
	for (size_t i = 0; i < sizeof(subjects) / sizeof(subjects[0]); i++) {
		struct mail_subject s;

		mail_subject_parse(subjects[i].subject, &s);
		CHECK(s.patch == subjects[i].patch, "%s", subjects[i].subject);
		CHECK(s.reply == subjects[i].reply, "%s", subjects[i].subject);
		CHECK(s.version == subjects[i].version, "%s: v%d", subjects[i].subject, s.version);
		CHECK(s.idx == subjects[i].idx && s.total == subjects[i].total,
		      "%s: %d/%d", subjects[i].subject, s.idx, s.total);
		CHECK(!strcmp(s.norm, subjects[i].norm), "%s: '%s'", subjects[i].subject, s.norm);
	}
}

static void check_fixture(const char *dir, size_t i)
{
	struct mail_thread t;
	char path[512];
	size_t len;
	char *raw;

	snprintf(path, sizeof(path), "%s/%s", dir, fixtures[i].file);
	raw = slurp(path, &len);
	CHECK(raw, "%s", path);
	if (!raw)
		return;
	CHECK(!mail_thread_read(raw, len, &t));
	CHECK(t.kind == fixtures[i].kind, "%s: %s (%s)", fixtures[i].file,
	      mail_kind_name(t.kind), t.why);
	CHECK(strstr(t.why, fixtures[i].why) && (*t.why != 0) == (*fixtures[i].why != 0),
	      "%s: '%s'", fixtures[i].file, t.why);
	if (fixtures[i].msgid)
		CHECK(t.message_id && !strcmp(t.message_id, fixtures[i].msgid), "%s", fixtures[i].file);
	if (fixtures[i].root)
		CHECK(t.root && !strcmp(t.root, fixtures[i].root), "%s: %s", fixtures[i].file, t.root);
	if (fixtures[i].version)
		CHECK(t.subj.version == fixtures[i].version && t.subj.idx == fixtures[i].idx &&
		      t.subj.total == fixtures[i].total, "%s", fixtures[i].file);
	mail_thread_free(&t);
	free(raw);
}

/* Keys, change-ids and base-commit of the two versions. */
static void check_versions(const char *dir)
{
	const char *files[] = { "01-v1-cover.eml", "06-v2-cover.eml", "07-v2-p1.eml" };
	struct mail_thread t[3];
	char path[512], *k[3];
	size_t len;

	for (int i = 0; i < 3; i++) {
		char *raw;

		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		raw = slurp(path, &len);
		CHECK(raw && !mail_thread_read(raw, len, &t[i]));
		free(raw);
		k[i] = mail_series_key(&t[i]);
	}
	CHECK(k[0] && !strcmp(k[0], "<v1-0@example.org>#v1"), "%s", k[0]);
	CHECK(k[1] && !strcmp(k[1], "<v1-0@example.org>#v2"), "%s", k[1]);
	CHECK(k[2] && !strcmp(k[1], k[2]), "v2 patch and cover: one series");
	CHECK(t[0].change_id && !strcmp(t[0].change_id, "20261201-tag-fast-1a2b3c"));
	CHECK(t[0].base_commit && strlen(t[0].base_commit) == 40);
	CHECK(!t[2].change_id, "a patch without a change-id line");
	{
		struct series_ident v1 = { t[0].change_id, t[0].subj.norm, t[0].from_addr, 1 };
		struct series_ident v2 = { t[1].change_id, t[1].subj.norm, t[1].from_addr, 2 };
		struct series_ident other = { "20261201-other", t[1].subj.norm, t[1].from_addr, 2 };
		struct series_ident noid = { NULL, t[1].subj.norm, t[1].from_addr, 2 };
		struct series_ident stranger = { NULL, t[1].subj.norm, "eve@example.org", 2 };

		CHECK(!strcmp(t[0].from_addr, "ann@example.org"));
		CHECK(mail_series_same(&v1, &v2), "same change-id");
		CHECK(!mail_series_same(&v2, &v1), "never backwards");
		CHECK(!mail_series_same(&v1, &other), "another change-id");
		CHECK(mail_series_same(&v1, &noid), "subject and author");
		CHECK(!mail_series_same(&v1, &stranger), "another author");
	}
	for (int i = 0; i < 3; i++) {
		free(k[i]);
		mail_thread_free(&t[i]);
	}
}

static void check_hostile(void)
{
	struct mail_thread t;
	size_t big = MAIL_MSG_MAX + 1;
	char *raw = malloc(big + 20000), *p;

	CHECK(raw);
	if (!raw)
		return;
	memset(raw, 'a', big);
	CHECK(!mail_thread_read(raw, big, &t) && t.kind == MAIL_REFUSED &&
	      strstr(t.why, "over the 1048576-byte limit"), "%s", t.why);
	mail_thread_free(&t);
	p = "Subject: [PATCH] x\n\ndiff --git a/x b/x\n";
	CHECK(!mail_thread_read(p, strlen(p), &t) && t.kind == MAIL_REFUSED &&
	      strstr(t.why, "Message-ID"), "%s", t.why);
	mail_thread_free(&t);
	p = "From x@y Mon Jan  1 00:00:00 2026";
	CHECK(!mail_thread_read(p, strlen(p), &t) && t.kind == MAIL_REFUSED, "%s", t.why);
	mail_thread_free(&t);
	/* 20 KiB of References, folded: past a header's limit. */
	strcpy(raw, "Message-Id: <a@b>\nReferences: <r@b>\n");
	for (p = raw + strlen(raw); p - raw < 20000;)
		p += sprintf(p, " <x%ld@example.org>\n", (long)(p - raw));
	strcpy(p, "\nbody\n");
	CHECK(!mail_thread_read(raw, strlen(raw), &t) && t.kind == MAIL_REFUSED &&
	      strstr(t.why, "references too long"), "%s", t.why);
	mail_thread_free(&t);
	/* A [PATCH] body without a diff. */
	p = "Message-Id: <n@b>\nSubject: [PATCH] words\n\nonly words\n";
	CHECK(!mail_thread_read(p, strlen(p), &t) && t.kind == MAIL_REFUSED &&
	      strstr(t.why, "without a diff"), "%s", t.why);
	mail_thread_free(&t);
	free(raw);
}

static void check_states(void)
{
	bool have[4] = { false, true, false, true };
	char miss[64];

	CHECK(mail_series_state(have, 3, 0, false, 100, 150, 3600, miss, sizeof(miss)) ==
	      SERIES_WAITING && !strcmp(miss, "2"), "%s", miss);
	CHECK(mail_series_state(have, 3, 0, false, 100, 3700, 3600, miss, sizeof(miss)) ==
	      SERIES_TIMED_OUT);
	have[2] = true;
	CHECK(mail_series_state(have, 3, 0, false, 100, 150, 3600, miss, sizeof(miss)) ==
	      SERIES_COMPLETE && !miss[0]);
	CHECK(mail_series_state(have, 3, 1, false, 100, 150, 3600, miss, sizeof(miss)) ==
	      SERIES_BAD, "a patch twice");
	CHECK(mail_series_state(have, 3, 0, true, 100, 150, 3600, miss, sizeof(miss)) ==
	      SERIES_BAD, "two totals");
	{
		bool none[6] = { true };

		CHECK(mail_series_state(none, 5, 0, false, 0, 0, 10, miss, sizeof(miss)) ==
		      SERIES_WAITING && !strcmp(miss, "1, 2, 3, 4, 5"), "%s", miss);
	}
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "tests/fixtures/mail";

	check_subjects();
	for (size_t i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++)
		check_fixture(dir, i);
	check_versions(dir);
	check_hostile();
	check_states();
	DONE();
}
