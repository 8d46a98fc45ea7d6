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
	char err[256];

	return trust_cmdline_allowed(pat, 4, cmdline, err, sizeof(err)) == 0;
}

int main(void)
{
	char err[256];

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
	CHECK(trust_cmdline_allowed(NULL, 0, "init=/bin/sh", err,
				    sizeof(err)) == -1);
	CHECK(strstr(err, "init=/bin/sh"), "reason names it: %s", err);

	CHECK(trust_pattern_check("null_blk.*", err, sizeof(err)) == 0);
	CHECK(trust_pattern_check("perflab_canary=", err, sizeof(err)) == 0);
	CHECK(trust_pattern_check("*", err, sizeof(err)) == -1);
	CHECK(trust_pattern_check("=x", err, sizeof(err)) == -1);
	CHECK(trust_pattern_check("a*b", err, sizeof(err)) == -1);
	CHECK(trust_pattern_check("a b", err, sizeof(err)) == -1);
	CHECK(trust_pattern_check("x=\"y", err, sizeof(err)) == -1);
	CHECK(trust_pattern_check("perflab_job=", err, sizeof(err)) == -1);
	CHECK(trust_pattern_check("", err, sizeof(err)) == -1);
	DONE();
}
