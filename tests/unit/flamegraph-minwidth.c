// SPDX-License-Identifier: MIT
/*
 * Description: differential flame graph edge cases: frames narrower than
 * 0.1 px and frames with no new samples (control only) are left out,
 * duplicate stacks are summed, empty frames become [unknown], and no
 * samples at all still gives a valid SVG saying so.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/analysis/flamegraph.h"

static int count(const char *s, const char *needle)
{
	int n = 0;

	while ((s = strstr(s, needle))) {
		n++;
		s++;
	}
	return n;
}

int main(void)
{
	static const struct fg_stack control[] = {
		{ "a;b", 50000 }, { "a;gone", 50000 },
	};
	static const struct fg_stack new[] = {
		{ "a;b", 60000 }, { "a;b", 40000 }, { "a;tiny", 1 },
		{ "a;;c", 10 },
	};
	int fails = 0;
	char *svg;

	svg = flamegraph_diff_svg(control, 2, new, 4, NULL, NULL);
	if (!svg)
		return 1;
	/* all, a, b, [unknown], c; not tiny (0.012 px), not gone (0 new) */
	if (count(svg, "<g class=\"f\">") != 5) {
		fprintf(stderr, "want 5 frames, got %d\n", count(svg, "<g class=\"f\">"));
		fails++;
	}
	if (strstr(svg, ">tiny") || strstr(svg, "gone")) {
		fprintf(stderr, "tiny or gone frame drawn\n");
		fails++;
	}
	/* the two a;b lines sum: 100000 samples */
	if (!strstr(svg, "<title>b (100000 samples,")) {
		fprintf(stderr, "duplicate stacks not summed\n");
		fails++;
	}
	if (!strstr(svg, "<title>[unknown] (10 samples,") ||
	    !strstr(svg, "<title>c (10 samples,")) {
		fprintf(stderr, "empty frame not [unknown]\n");
		fails++;
	}
	free(svg);

	svg = flamegraph_diff_svg(NULL, 0, NULL, 0, NULL, NULL);
	if (!svg || count(svg, "<g class=\"f\">") != 0 || !strstr(svg, "no samples") ||
	    !strstr(svg, "</svg>")) {
		fprintf(stderr, "empty graph wrong\n");
		fails++;
	}
	free(svg);
	return fails ? 1 : 0;
}
