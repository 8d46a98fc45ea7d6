// SPDX-License-Identifier: MIT
/*
 * Description: the two blocks of seed 001 (Jens Axboe's "Old behavior" /
 * "Turning it on" t/io_uring output, tests/fixtures/seed001-*.log) read
 * as "no change" with the MDE shown, both as two named logs and as the
 * raw mail text with its label lines; the delta matches the per-second
 * means computed here from the same files.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/analysis/compare.h"
#include "daemon/analysis/logimport.h"
#include "unit/check.h"

/* Mean of the IOPS= values, parsed here with sscanf (independently). */
static double file_mean(const char *text, int *count)
{
	const char *p = text;
	double s = 0;
	long v;

	*count = 0;
	while ((p = strstr(p, "IOPS=")) && sscanf(p, "IOPS=%ld", &v) == 1) {
		s += v;
		(*count)++;
		p += 5;
	}
	return *count ? s / *count : 0;
}

int main(void)
{
	struct compare_log logs[2];
	struct verdict_opts o;
	size_t lo, ln, rawlen;
	char err[256], *raw;
	json_t *out, *c;
	const char *verdict;
	double mo, mn, delta;
	int co, cn, fails = 0;

	logs[0].text = slurp("tests/fixtures/seed001-old.log", &lo);
	logs[1].text = slurp("tests/fixtures/seed001-new.log", &ln);
	if (!logs[0].text || !logs[1].text) {
		printf("fixtures missing (run from the top directory)\n");
		return 1;
	}
	logs[0].name = "old";
	logs[0].len = lo;
	logs[1].name = "new";
	logs[1].len = ln;
	verdict_opts_default(&o);
	out = compare_logs(logs, 2, 0, &o, err, sizeof(err));
	if (!out) {
		printf("compare failed: %s\n", err);
		return 1;
	}
	printf("%s", json_string_value(json_object_get(out, "text")));
	c = json_array_get(json_object_get(out, "comparisons"), 0);
	verdict = json_string_value(json_object_get(c, "verdict"));
	mo = file_mean(logs[0].text, &co);
	mn = file_mean(logs[1].text, &cn);
	/* The comparison is on medians; the table's iops row on means. */
	delta = 100 * (mn - mo) / mo;
	if (co != 12 || cn != 10) {
		printf("FAIL: fixtures have %d/%d lines, expected 12/10\n", co, cn);
		fails++;
	}
	if (!verdict || strcmp(verdict, "no change")) {
		printf("FAIL: verdict %s, expected no change\n", verdict);
		fails++;
	}
	if (!strstr(json_string_value(json_object_get(c, "summary")), "MDE")) {
		printf("FAIL: summary without MDE\n");
		fails++;
	}
	{
		json_t *row = json_array_get(json_object_get(c, "rows"), 0);
		double ch = json_real_value(json_object_get(row, "change"));

		if (fabs(ch - delta) > 1e-9) {
			printf("FAIL: iops row change %.6f vs %.6f\n", ch, delta);
			fails++;
		}
	}
	json_decref(out);

	/* The raw mail text: "Old behavior:" / "Turning it on:" label blocks. */
	raw = malloc(lo + ln + 64);
	rawlen = sprintf(raw, "Old behavior:\n\n%s\nTurning it on:\n\n%s",
			 logs[0].text, logs[1].text);
	out = compare_logs(&(struct compare_log){ NULL, raw, rawlen }, 1, 0,
			   &o, err, sizeof(err));
	c = out ? json_array_get(json_object_get(out, "comparisons"), 0) : NULL;
	if (!c || strcmp(json_string_value(json_object_get(c, "control")),
			 "Old behavior") ||
	    strcmp(json_string_value(json_object_get(c, "verdict")), "no change")) {
		printf("FAIL: raw mail text: %s\n", out ? "wrong labels/verdict" : err);
		fails++;
	} else {
		printf("raw mail text: %s\n",
		       json_string_value(json_object_get(c, "summary")));
	}
	json_decref(out);
	free(raw);
	free((char *)logs[0].text);
	free((char *)logs[1].text);
	return fails ? 1 : 0;
}
