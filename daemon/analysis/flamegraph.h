/* SPDX-License-Identifier: MIT */
/*
 * Differential flame graph (Brendan Gregg's difffolded.pl + flamegraph.pl
 * semantics) from folded stacks ("root;child;leaf", counts per stack).
 *
 * Every frame's width is its inclusive sample count in the NEW profile;
 * its colour is the sign of delta = new - control, the control counts first
 * scaled to the new total (difffolded.pl -n) so runs of different lengths
 * compare: red = more, blue = less, white = unchanged, the shade
 * proportional to |delta| / max |delta| over all frames (flamegraph.pl
 * color_scale). Frames narrower than 0.1 px are left out, as frames with
 * no new samples are (a difference the graph cannot show: read the
 * perf-diff table for code that disappeared). The SVG is self-contained:
 * no script, a <title> tooltip per frame, all names XML-escaped.
 */
#ifndef PERFLAB_FLAMEGRAPH_H
#define PERFLAB_FLAMEGRAPH_H

#include <stddef.h>
#include <stdint.h>

struct fg_stack {
	const char *folded; /* root first, ';'-separated */
	uint64_t samples;
};

struct fg_opts {
	const char *title; /* default "Differential Flame Graph" */
	const char *subtitle; /* optional, e.g. "tag vs control" */
	int width; /* image width in px, default 1200 */
	int normalize; /* scale control to the new total (default 1) */
};

void flamegraph_default_opts(struct fg_opts *o);

/*
 * The SVG as a malloc'ed NUL-terminated string (length in @len), or NULL
 * when out of memory. Duplicate stacks are summed; empty frames become
 * "[unknown]"; stacks deeper than 512 frames are cut.
 */
char *flamegraph_diff_svg(const struct fg_stack *control, size_t nr_control,
			  const struct fg_stack *new, size_t nr_new,
			  const struct fg_opts *o, size_t *len);

#endif
