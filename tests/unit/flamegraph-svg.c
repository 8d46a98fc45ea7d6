// SPDX-License-Identifier: MIT
/*
 * Description: differential flame graph SVG is well-formed (balanced tags,
 * no raw '<' or '&' in text), names are XML-escaped, one frame per
 * distinct stack prefix with new samples, widths follow the new samples,
 * and colours follow flamegraph.pl's color_scale of new - control: red for
 * more, blue for less, white for no change.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/analysis/flamegraph.h"

#include "unit/check.h"

/* Balanced tags; entities only as &name; or &#..; 0 if well-formed. */
static int well_formed(const char *s)
{
	char stack[64][32];
	int depth = 0;
	const char *p;

	for (p = s; *p; p++) {
		if (*p == '&') {
			const char *e = strchr(p, ';');

			if (!e || e - p > 6 || strspn(p + 1, "abcdefghijklmnopqrstuvwxyz#0123456789") != (size_t)(e - p - 1))
				return -1;
			continue;
		}
		if (*p == '>')
			return -1;	/* '>' outside a tag: we escape it too */
		if (*p != '<')
			continue;
		{
			const char *end = strchr(p, '>');
			size_t n;

			if (!end)
				return -1;
			if (p[1] == '?') {
				p = end;
				continue;
			}
			if (p[1] == '/') {
				n = strcspn(p + 2, " >");
				if (!depth || n >= 32 || strncmp(stack[depth - 1], p + 2, n) ||
				    stack[depth - 1][n])
					return -1;
				depth--;
			} else if (end[-1] != '/') {
				n = strcspn(p + 1, " >");
				if (depth == 64 || n >= 32)
					return -1;
				memcpy(stack[depth], p + 1, n);
				stack[depth++][n] = '\0';
			}
			/* attribute values must not contain '<' */
			if (memchr(p + 1, '<', end - p - 1))
				return -1;
			p = end;
		}
	}
	return depth ? -1 : 0;
}

/* Fill colour and width of the frame whose tooltip starts with @name. */
static int frame(const char *svg, const char *name, int rgb[3], double *w)
{
	char key[128];
	const char *p;

	snprintf(key, sizeof(key), "<title>%s (", name);
	p = strstr(svg, key);
	if (!p || strstr(p + 1, key))
		return -1;	/* missing or not unique */
	p = strstr(p, "width=\"");
	if (!p || sscanf(p, "width=\"%lf\"", w) != 1)
		return -1;
	p = strstr(p, "fill=\"rgb(");
	if (!p || sscanf(p, "fill=\"rgb(%d,%d,%d)\"", &rgb[0], &rgb[1], &rgb[2]) != 3)
		return -1;
	return 0;
}

static int count(const char *s, const char *needle)
{
	int n = 0;

	while ((s = strstr(s, needle))) {
		n++;
		s++;
	}
	return n;
}

static void want(const char *svg, const char *name, int r, int g, int b,
		 double width)
{
	int rgb[3];
	double w;

	if (frame(svg, name, rgb, &w)) {
		fprintf(stderr, "frame %s not found once\n", name);
		fails++;
		return;
	}
	if (rgb[0] != r || rgb[1] != g || rgb[2] != b || w < width - 0.06 ||
	    w > width + 0.06) {
		fprintf(stderr, "frame %s: rgb(%d,%d,%d) width %.1f, want rgb(%d,%d,%d) %.1f\n",
			name, rgb[0], rgb[1], rgb[2], w, r, g, b, width);
		fails++;
	}
}

int main(void)
{
	/* control total 30, new total 30 */
	static const struct fg_stack control[] = {
		{ "a;b", 10 }, { "a;c", 15 }, { "a;c;e<&>", 5 },
	};
	static const struct fg_stack new[] = {
		{ "a;b", 20 }, { "a;c", 4 }, { "a;c;e<&>", 1 }, { "a;d\"q'", 5 },
	};
	static const struct fg_stack control2[] = {	/* control x2 */
		{ "a;b", 20 }, { "a;c", 30 }, { "a;c;e<&>", 10 },
	};
	struct fg_opts o;
	char *svg, *svg2;
	size_t len;

	flamegraph_default_opts(&o);
	o.subtitle = "tag <vs> control";
	svg = flamegraph_diff_svg(control, 3, new, 4, &o, &len);
	CHECK(svg && strlen(svg) == len);
	if (!svg)
		return 1;
	CHECK(well_formed(svg) == 0);
	CHECK(!strstr(svg, "e<&>") && !strstr(svg, "d\"q'"));
	CHECK(strstr(svg, "tag &lt;vs&gt; control"));
	/* frames: all, a, b, c, e, d */
	CHECK(count(svg, "<g class=\"f\">") == 6);
	CHECK(count(svg, "<title>") == 6);
	/* 1180 px for 30 samples; delta new - control, max |delta| 15:
	 * b +10 red 210*5/15 = 70; c -15 blue 0; e -4 blue 210*11/15 = 154;
	 * d +5 (new only) red 140; all and a unchanged: white */
	want(svg, "all", 255, 255, 255, 1180.0);
	want(svg, "a", 255, 255, 255, 1180.0);
	want(svg, "b", 255, 70, 70, 20 * 1180.0 / 30);
	want(svg, "c", 0, 0, 255, 5 * 1180.0 / 30);
	want(svg, "e&lt;&amp;&gt;", 154, 154, 255, 1180.0 / 30);
	want(svg, "d&quot;q&apos;", 255, 140, 140, 5 * 1180.0 / 30);

	/* twice the control samples, normalised to the new total: same graph */
	svg2 = flamegraph_diff_svg(control2, 3, new, 4, &o, NULL);
	CHECK(svg2 && !strcmp(svg, svg2));
	free(svg2);
	/* without normalisation the doubled control shows less everywhere */
	o.normalize = 0;
	svg2 = flamegraph_diff_svg(control2, 3, new, 4, &o, NULL);
	if (svg2) {
		int rgb[3];
		double w;

		CHECK(frame(svg2, "a", rgb, &w) == 0 && rgb[2] == 255 && rgb[0] < 255);
	}
	CHECK(svg2 != NULL);
	free(svg2);
	free(svg);

	if (fails) {
		fprintf(stderr, "%d checks failed\n", fails);
		return 1;
	}
	return 0;
}
