// SPDX-License-Identifier: MIT
/*
 * Description: the kexec backend checks a variant's command line like the
 * qemu backend does (printable ASCII, no quotes, none of our perflab_*
 * keys) and also refuses what would run code as root on the host's own
 * root filesystem or boot another one (init=, rdinit=, systemd.run=,
 * systemd.unit=, rd.*, root=, runlevels, emergency) and the parameters the
 * runner sets (perflab_job=, nvme.poll_queues=); tuning parameters pass.
 */
#include <string.h>

#include "runners/runner/kexec.h"
#include "unit/check.h"

int main(void)
{
	static const char *const bad[] = {
		"init=/bin/sh", "rdinit=/tmp/x", "quiet init=/bin/sh",
		"systemd.run=/usr/bin/id", "systemd.run_success_action=none",
		"systemd.unit=rescue.target", "rd.break", "rd.shell=1",
		"root=/dev/nvme0n1p1", "single", "emergency", "1", "S",
		"perflab_job=1-abc", "nvme.poll_queues=0", "initrd=/x",
		"perflab_canary=1 \"init=/bin/sh\"", "a='b c'", "x\\y",
		"perflab_target=/dev/sda", "perflab_bench=-x", "tab\there",
	};
	static const char *const good[] = {
		"", "perflab_canary=4", "null_blk.hw_queue_depth=2048 quiet",
		"mitigations=off nvme.io_queue_depth=1024", "initcall_debug",
		"rootdelay=1", "systemd", "splash",
	};
	char err[256];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		CHECK(kexec_check_extra(bad[i], err, sizeof(err)) == -1,
		      "'%s' accepted", bad[i]);
		CHECK(err[0], "no reason for '%s'", bad[i]);
	}
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		CHECK(kexec_check_extra(good[i], err, sizeof(err)) == 0,
		      "'%s' refused: %s", good[i], err);
	CHECK(kexec_check_extra(NULL, err, sizeof(err)) == 0);
	DONE();
}
