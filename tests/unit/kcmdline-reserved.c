// SPDX-License-Identifier: MIT
/*
 * Description: the runner's own kernel parameters (perflab_target=,
 * perflab_bench=, perflab_job=) are refused wherever they stand in a
 * variant's command line: first, after other parameters (space or tab
 * separated), last, or twice; lines without them pass. The expected
 * answers are written out here, not derived from the checker.
 */
#include <string.h>

#include "common/kcmdline.h"
#include "unit/check.h"

static int refused(const char *cmdline)
{
	char err[256] = "";

	return kcmdline_check(cmdline, err, sizeof(err)) == -1 && err[0];
}

int main(void)
{
	static const char *const reserved[] = {
		"perflab_job=7",
		"quiet perflab_job=7",
		"quiet\tperflab_job=7",
		"nvme.poll_queues=1 quiet perflab_target=/dev/sda",
		"perflab_canary=1 perflab_bench=-d1",
		"quiet perflab_bench=x perflab_job=1",
		"mitigations=off   perflab_target=",
	};
	static const char *const fine[] = {
		"", "quiet", "perflab_canary=16", "quiet perflab_canary=1",
		"nvme.poll_queues=1 null_blk.irqmode=0",
	};
	char err[256];
	size_t i;

	for (i = 0; i < sizeof(reserved) / sizeof(reserved[0]); i++)
		CHECK(refused(reserved[i]), "'%s' not refused", reserved[i]);
	for (i = 0; i < sizeof(fine) / sizeof(fine[0]); i++)
		CHECK(!refused(fine[i]), "'%s' refused", fine[i]);
	/* The reason names the parameter, also when it is not first. */
	CHECK(kcmdline_check("quiet perflab_target=/dev/x", err, sizeof(err)) == -1 &&
	      strstr(err, "perflab_target"), "reason: %s", err);
	DONE();
}
