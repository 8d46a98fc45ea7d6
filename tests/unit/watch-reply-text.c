// SPDX-License-Identifier: MIT
/*
 * Description: the body of the lab's reply in a series' thread
 * (analysis/watch_reply.c), line by line against the formats its header
 * names: one verdict line per prefix of the series ("patch 1",
 * "patches 1-2"), "%+.2f%%" delta and CI, "%.2f%%" MDE, a NAN as "-";
 * which base and why; the v1 comparison line only with a measured
 * previous version; Reported-by/Closes when any prefix regressed, not
 * for "no change"; the note of a series that does not apply names the
 * base and git's message.
 */
#include <math.h>
#include <string.h>

#include "daemon/analysis/watch_reply.h"
#include "unit/check.h"

static int has_line(const char *text, const char *line)
{
	size_t n = strlen(line);

	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, line, n) && (p[n] == '\n' || !p[n]))
			return 1;
	return 0;
}

int main(void)
{
	struct watch_reply_row rows[2] = {
		{ 1, "no change", 0.114, -0.2, 0.43, 0.4, 5 },
		{ 2, "regression", -3.214, -3.5, -2.9, 0.4, 5 },
	};
	struct watch_reply r = {
		.author_name = "Ann Author", .subject = "[PATCH v2 0/2] block: x",
		.version = 2, .npatches = 2, .base = "g",
		.commit = "0123456789abcdef0123456789abcdef01234567",
		.base_how = "base-commit", .ref = "master", .metric = "iops",
		.rows = rows, .nrows = 2, .lkp = "TABLE\n",
		.prev_version = 1, .prev_verdict = "no change",
		.prev_delta_pct = -0.356, .lab_url = "http://lab",
		.experiment_id = 42, .from = "lab@x.org",
	};
	char *t = watch_reply_text(&r);

	CHECK(t);
	CHECK(has_line(t, "Hi Ann Author,"));
	CHECK(has_line(t, "  [PATCH v2 0/2] block: x"));
	CHECK(has_line(t, "base: g@0123456789ab (the series' base-commit)"), "%s", t);
	CHECK(has_line(t, "verdict (iops, against the base):"), "%s", t);
	CHECK(has_line(t, "  patch 1      no change  +0.11% [-0.20%, +0.43%] (95% CI)  MDE 0.40%  5 runs"), "%s", t);
	CHECK(has_line(t, "  patches 1-2  regression  -3.21% [-3.50%, -2.90%] (95% CI)  MDE 0.40%  5 runs"), "%s", t);
	CHECK(has_line(t, "perflab ran your series through its peak IOPS test, each"));
	CHECK(has_line(t, "v2 against v1: v1 measured -0.36% (no change) on the same test."));
	CHECK(has_line(t, "TABLE"));
	CHECK(has_line(t, "  http://lab/#/experiments/42"));
	CHECK(has_line(t, "| Reported-by: perflab <lab@x.org>"));
	CHECK(has_line(t, "| Closes: http://lab/#/experiments/42"));
	free(t);

	rows[1].verdict = "no change";
	rows[1].mde_pct = NAN;
	r.rows = rows + 1;
	r.nrows = 1;
	r.prev_version = 0;
	r.base_how = "ref-head";
	r.author_name = "";
	t = watch_reply_text(&r);
	CHECK(t && has_line(t, "Hi,"));
	CHECK(has_line(t, "base: g@0123456789ab (the head of master: the series names no"), "%s", t);
	CHECK(has_line(t, "  patches 1-2  no change  -3.21% [-3.50%, -2.90%] (95% CI)  MDE -  5 runs"), "%s", t);
	CHECK(has_line(t, "whole series applied, 2 patches, against the base):"), "%s", t);
	CHECK(!strstr(t, "against v1"), "no previous version");
	CHECK(!strstr(t, "Reported-by"), "no tags without a regression");
	free(t);

	t = watch_reply_note_text("Nat", "[PATCH] readme: reword",
				  "g@0123456789abcdef0123456789abcdef01234567",
				  "does not apply on 0123456789ab: error: patch failed: README:1");
	CHECK(t && has_line(t, "Hi Nat,"));
	CHECK(has_line(t, "  [PATCH] readme: reword"));
	CHECK(has_line(t, "It does not apply on g@0123456789ab:"), "%s", t);
	CHECK(has_line(t, "  does not apply on 0123456789ab: error: patch failed: README:1"));
	CHECK(!strstr(t, "Reported-by"));
	free(t);
	DONE();
}
