// SPDX-License-Identifier: MIT
/*
 * Description: perfdiff_compute refuses bad input with a reason: a single
 * side, a side without runs, an empty profile, symbol samples above the
 * profile total, profiles of another event than the baseline's, options
 * out of range.
 */
#include "unit/perfdiff-fixture.h"

static void refused(const struct perfdiff_side *s, size_t n, const struct perfdiff_opts *o,
		    const char *want)
{
	char err[128] = "";
	struct perfdiff_result *r = perfdiff_compute(&perfdiff_samples, s, n, o, err, sizeof(err));

	if (r || !strstr(err, want)) {
		fprintf(stderr, "want refusal with '%s', got %s '%s'\n", want,
			r ? "a result" : "", err);
		fails++;
	}
	perfdiff_free(r);
}

int main(void)
{
	static const struct perfdiff_sym big[] = { { K, "x", { 11 } } };
	static const struct perfdiff_run empty[] = { { "cpu-clock", { 0, 0 }, 0, NULL } };
	static const struct perfdiff_run over[] = { { "cpu-clock", { 10, 0 }, 1, big } };
	static const struct perfdiff_run cycles[] = { { "cycles", { 100, 0 }, 1, big } };
	struct perfdiff_side s[2] = { fx1_sides[0], fx1_sides[1] };
	struct perfdiff_opts o;

	perfdiff_default_opts(&o);
	refused(s, 1, &o, "at least one other");
	s[1].nr_runs = 0;
	refused(s, 2, &o, "tag: no profiled runs");
	s[1].nr_runs = 1;
	s[1].runs = empty;
	refused(s, 2, &o, "empty profile");
	s[1].runs = over;
	refused(s, 2, &o, "exceed the total");
	s[1].runs = cycles;
	refused(s, 2, &o, "tag: run 0: event 'cycles' is not the baseline's 'cpu-clock'");
	s[1].runs = fx1_sides[1].runs;
	o.sort_idx = 2;
	refused(s, 2, &o, "bad perf diff options");

	if (fails) {
		fprintf(stderr, "%d checks failed\n", fails);
		return 1;
	}
	return 0;
}
