// SPDX-License-Identifier: MIT
/*
 * Description: the cmdline allowlist semantics of docs/security.md:
 * "key=" allows that key with any value (not the bare key, not a longer
 * key), "prefix*" any parameter starting with prefix, anything else only
 * the exact parameter; every whitespace-separated parameter must match;
 * patterns that would allow everything are refused.
 */
#include <string.h>

#include "daemon/lab/trust.h"
#include "unit/check.h"

static int allowed(const char *cmdline)
{
	static const char *const pat[] = { "perflab_canary=", "null_blk.*",
					   "nvme.poll_queues=1", "quiet" };
	struct lab_err e;

	return trust_cmdline_allowed(pat, 4, cmdline, &e) == 0;
}

int main(void)
{
	struct lab_err e;

	CHECK(allowed(""));
	CHECK(allowed("perflab_canary=16"));
	CHECK(allowed("  perflab_canary=0\tquiet  null_blk.irqmode=0 "));
	CHECK(allowed("null_blk.hw_queue_depth=2048 nvme.poll_queues=1"));
	CHECK(!allowed("perflab_canary"), "bare key");
	CHECK(!allowed("perflab_canary2=1"), "longer key");
	CHECK(!allowed("null_blkx=1"), "prefix without the dot");
	CHECK(!allowed("nvme.poll_queues=2"), "exact value only");
	CHECK(!allowed("quiet=1"));
	CHECK(!allowed("perflab_canary=1 init=/bin/sh"), "one bad parameter");
	CHECK(!allowed("systemd.run=/x"));
	CHECK(trust_cmdline_allowed(NULL, 0, "init=/bin/sh", &e) == -1 &&
	      e.st == LAB_FORBIDDEN);
	CHECK(strstr(e.msg, "init=/bin/sh"), "reason names it: %s", e.msg);

	CHECK(trust_pattern_check("null_blk.*", &e) == 0);
	CHECK(trust_pattern_check("perflab_canary=", &e) == 0);
	CHECK(trust_pattern_check("*", &e) == -1);
	CHECK(trust_pattern_check("=x", &e) == -1);
	CHECK(trust_pattern_check("a*b", &e) == -1);
	CHECK(trust_pattern_check("a b", &e) == -1);
	CHECK(trust_pattern_check("x=\"y", &e) == -1);
	CHECK(trust_pattern_check("perflab_job=", &e) == -1);
	CHECK(trust_pattern_check("", &e) == -1);
	DONE();
}
