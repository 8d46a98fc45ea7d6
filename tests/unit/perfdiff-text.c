// SPDX-License-Identifier: MIT
/*
 * Description: perf diff text layout byte-compared with hand-written golden
 * files (tests/fixtures/perfdiff/): `# Baseline  Delta  Shared Object
 * Symbol` header, %6.2f%% and %+4.2F%% columns, blank baseline for a
 * symbol only in the new profile, blank delta for one only in the
 * baseline, the Ratio column (%14.6F, N/A without a baseline), and the
 * Stddev/Noise columns with several runs per side.
 */
#include <stdlib.h>

#include "unit/perfdiff-fixture.h"
#include "unit/check.h"

static int golden(const struct perfdiff_side *sides, const char *compute,
		  const char *path)
{
	struct perfdiff_opts o;
	struct perfdiff_result *r;
	char err[128], *got, *want;
	size_t glen, wlen;
	int ret = 1;

	perfdiff_default_opts(&o);
	if (perfdiff_parse_compute(compute, &o))
		return 1;
	r = perfdiff_compute(&perfdiff_samples, sides, 2, &o, err, sizeof(err));
	if (!r) {
		fprintf(stderr, "perfdiff_compute: %s\n", err);
		return 1;
	}
	got = perfdiff_text(r, &glen);
	want = slurp(path, &wlen);
	if (!want)
		fprintf(stderr, "cannot read %s\n", path);
	else if (!got || glen != wlen || memcmp(got, want, wlen))
		fprintf(stderr, "%s differs; got:\n%s\nwant:\n%s\n", path,
			got ? got : "(null)", want);
	else
		ret = 0;
	free(got);
	free(want);
	perfdiff_free(r);
	return ret;
}

int main(void)
{
	int ret = 0;

	ret |= golden(fx1_sides, "delta", "tests/fixtures/perfdiff/delta.txt");
	ret |= golden(fx1_sides, "ratio", "tests/fixtures/perfdiff/ratio.txt");
	ret |= golden(fx2_sides, "delta", "tests/fixtures/perfdiff/noise.txt");
	return ret;
}
