// SPDX-License-Identifier: MIT
/*
 * Description: the LKP-style bisection report (lkp_report.c) from a fixed
 * struct: the 0-day greeting line with the headline delta (%+.1f), every
 * number of the struct formatted as lkp_report.h specifies (deltas and CI
 * %+.2f%%, MDE %.2f%%, runs, per-IO %.2f), the full culprit sha, every
 * step's commit, the perf diff rows, the reproduce commands, and no line
 * outside the two tables wider than 80 columns; a subject with CR/LF and
 * a 120-character word stays on its own (wrapped) lines.
 */
#include <math.h>
#include <string.h>

#include "daemon/analysis/lkp_report.h"
#include "unit/check.h"

#define CULPRIT "0123456789abcdef0123456789abcdef01234567"
#define PARENT "89abcdef0123456789abcdef0123456789abcdef"

static const struct lkp_kv params[] = {
	{ "rw", "randread" }, { "bs", "4096" }, { "iodepth", "32" },
};

static const struct lkp_step steps[] = {
	{ "aaaaaaaaaaaa1111", "block: first", "done", 3, -3.11, -3.14, -3.08,
	  0.05, "regression", 1 },
	{ "bbbbbbbbbbbb2222", "block: does not build", "skipped", 0, NAN, NAN,
	  NAN, NAN, NULL, -1 },
	{ "cccccccccccc3333", "block: neutral", "done", 3, 0.01, -0.02, 0.04,
	  0.06, "no change", 0 },
	{ CULPRIT, "block: canary on\r\nBcc: evil@x", "done", 3, -3.07, -3.12,
	  -3.02, 0.07, "regression", 1 },
};

static const struct lkp_pd_row rows[] = {
	{ "[kernel.kallsyms]", "blk_canary_check", 0, 87.25, 87.25, 2.71 },
	{ "[kernel.kallsyms]", "blk_mq_submit_bio", 412.5, 413.75, 1.25, 12.83 },
	{ "perflab-bench", "submit_loop", 55.5, 55.5, 0, 1.72 },
};

static char long_word[121];

static struct lkp_report fixture(void)
{
	memset(long_word, 'x', 120);
	return (struct lkp_report){
		.lab_url = "http://lab.test:8080",
		.bisection_id = 42,
		.experiment_id = 1234,
		.metric = "iops",
		.direction = "regression",
		.commit = CULPRIT,
		.subject = "block: canary on\r\nBcc: evil@x",
		.author = "Jane Dev",
		.email = "jane@dev.test",
		.parent = PARENT,
		.base = "linux-git",
		.url = "/srv/linux.git",
		.ref = "master",
		.good = "aaaa0000aaaa0000",
		.bad = "bbbb0000bbbb0000",
		.label = "randread-4k",
		.backend = "qemu-icount",
		.step_pct = -3.11,
		.nr_params = 3,
		.params = params,
		.runs = 3,
		.delta_pct = -3.07,
		.ci_lo = -3.12,
		.ci_hi = -3.02,
		.mde_pct = 0.07,
		.verdict = "regression",
		.nr_steps = 4,
		.steps = steps,
		.nr_rows = 3,
		.rows = rows,
		.in_reply_to = "<20261201.canary@dev.test>",
	};
}

static int has(const char *text, const char *fmt, double v)
{
	char want[64];

	snprintf(want, sizeof(want), fmt, v);
	if (strstr(text, want))
		return 1;
	fprintf(stderr, "missing \"%s\"\n", want);
	return 0;
}

static int has_s(const char *text, const char *s)
{
	if (strstr(text, s))
		return 1;
	fprintf(stderr, "missing \"%s\"\n", s);
	return 0;
}

/* Lines wider than 80 outside the tables; tables start after their header
 * row and end at a blank line. */
static int wide_lines(const char *text)
{
	int bad = 0, in_table = 0;

	for (const char *p = text; *p;) {
		const char *e = strchr(p, '\n');
		size_t n = e ? (size_t)(e - p) : strlen(p);

		if (!strncmp(p, "  #  commit", 11) || !strncmp(p, "# ....", 6))
			in_table = 1;
		if (!n)
			in_table = 0;
		else if (!in_table && n > 80) {
			fprintf(stderr, "line of %zu columns: %.*s\n", n, (int)n, p);
			bad++;
		}
		if (memchr(p, '\r', n) || memchr(p, '\t', n))
			bad++;
		p += n + (e ? 1 : 0);
	}
	return bad;
}

int main(void)
{
	struct lkp_report r = fixture();
	char *t = lkp_report_text(&r);
	size_t i;

	CHECK(t);
	if (!t)
		DONE();
	CHECK(!strncmp(t, "Greeting,\n\nFYI, we noticed a -3.1% regression of "
		       "perflab.iops due to commit:\n", 75), "%.120s", t);
	CHECK(has_s(t, "commit: " CULPRIT "\n"));
	CHECK(has_s(t, "author: Jane Dev <jane@dev.test>"));
	CHECK(has_s(t, "in: linux-git master (/srv/linux.git)"));
	CHECK(has_s(t, "<20261201.canary@dev.test>"));
	CHECK(has_s(t, "http://lab.test:8080/#/bisections/42"));
	for (i = 0; i < r.nr_params; i++) {
		char kv[64];

		snprintf(kv, sizeof(kv), "%s: %s", params[i].key, params[i].value);
		CHECK(has_s(t, kv));
	}
	CHECK(has(t, "%+.2f%%", r.delta_pct));
	CHECK(has(t, "[%+.2f%%, ", r.ci_lo));
	CHECK(has(t, ", %+.2f%%]", r.ci_hi));
	CHECK(has(t, "MDE: %.2f%%", r.mde_pct));
	CHECK(has(t, "step bisected: %+.2f%%", r.step_pct));
	CHECK(has(t, "%g runs a side", r.runs));
	CHECK(has_s(t, "verdict: regression"));
	for (i = 0; i < r.nr_steps; i++) {
		const struct lkp_step *s = &steps[i];
		char c[16];

		snprintf(c, sizeof(c), "%.12s", s->commit);
		CHECK(has_s(t, c));
		if (isnan(s->delta_pct))
			continue;
		CHECK(has(t, "%+.2f%%", s->delta_pct));
		CHECK(has(t, "[%+.2f%%, ", s->ci_lo));
		CHECK(has(t, ", %+.2f%%]", s->ci_hi));
		CHECK(has(t, "%.2f%%", s->mde_pct));
	}
	CHECK(has_s(t, " skip "), "the broken step is marked skip");
	for (i = 0; i < r.nr_rows; i++) {
		CHECK(has(t, " %.2f ", rows[i].base));
		CHECK(has(t, " %.2f ", rows[i].new_));
		CHECK(has(t, " %+.2f ", rows[i].delta));
		CHECK(has(t, " %.2f%% ", rows[i].share));
		CHECK(has_s(t, rows[i].sym));
	}
	CHECK(has_s(t, "[k] blk_canary_check"));
	/* An exact tier's MDE is far below 0.01 %: never "0.00%". */
	free(t);
	r.mde_pct = 1.3e-5;
	t = lkp_report_text(&r);
	CHECK(t && has_s(t, "MDE: <0.01%\n"), "tiny MDE");
	CHECK(t && !strstr(t, "MDE: 0.00%"), "tiny MDE printed as zero");
	free(t);
	r.mde_pct = 0;
	t = lkp_report_text(&r);
	CHECK(t && has_s(t, "MDE: exact\n"), "zero MDE");
	CHECK(has_s(t, "[.] submit_loop"));
	CHECK(has_s(t, "git format-patch -1 --stdout 0123456789ab > culprit.patch\n"));
	CHECK(has_s(t, "--base linux-git@89abcdef0123 "));
	CHECK(has_s(t, "perflab perf-diff 1234 --kind instructions"));
	CHECK(has_s(t, "perflab bisect show 42"));
	CHECK(has_s(t, "        git clone /srv/linux.git linux\n        cd linux\n"));
	CHECK(has_s(t, "--runs 3 --label randread-4k\n"));
	CHECK(!strstr(t, "\nBcc:"), "subject's CR/LF starts no line");
	CHECK(!wide_lines(t));
	if (getenv("LKP_SHOW"))
		fputs(t, stdout);
	free(t);

	/* text ending in spaces or empty values: nothing after the end is read */
	{
		static const struct lkp_kv odd[] = { { "submit_batch", "32" }, { "target", "" } };

		r.params = odd;
		r.nr_params = 2;
		r.backend = NULL;
		t = lkp_report_text(&r);
		CHECK(t && strstr(t, "        target:\n"), "%s", t ? t : "");
		CHECK(t && strstr(t, " on any backend\n"));
		free(t);
		r.label = "track it's";
		t = lkp_report_text(&r);
		CHECK(t && strstr(t, "--label 'track it'\\''s'\n"), "%s", t ? t : "");
		free(t);
	}

	/* a word longer than a line is broken, not overflowing */
	r.subject = long_word;
	r.nr_steps = 0;
	r.nr_rows = 0;
	t = lkp_report_text(&r);
	CHECK(t && !wide_lines(t));
	CHECK(t && has_s(t, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"));
	free(t);
	DONE();
}
