// SPDX-License-Identifier: MIT
/*
 * lava_guest: the LAVA guest initramfs and its bench's symbol table.
 */
#include "runners/runner/lava_guest.h"
#include "runners/runner/initramfs.h"
#include "runners/runner/rutil.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int write_nm(const struct runner_cfg *cfg, const char *out)
{
	char *argv[] = { "nm", "-n", "--defined-only",
			 (char *)cfg->bench_static, NULL };
	char tmp[4300];
	struct rutil_cmd cmd;
	int st, rc;

	snprintf(tmp, sizeof(tmp), "%s.tmp", out);
	unlink(tmp);
	rutil_cmd_init(&cmd, argv);
	cmd.log = tmp;
	cmd.timeout_s = 60;
	rc = rutil_run(&cmd, &st);
	if (rc != RUTIL_EXITED || st || rename(tmp, out)) {
		fprintf(stderr, "perflab-runner: nm %s failed\n",
			cfg->bench_static);
		unlink(tmp);
		return -1;
	}
	return 0;
}

int lava_guest_write(const struct runner_cfg *cfg)
{
	char cpio[4200], nm[4200], err[512], sum[65];
	struct initramfs_spec is = { .busybox = cfg->busybox,
				     .bench = cfg->bench_static, .out = cpio,
				     .lava = 1 };

	if (access(cfg->bench_static, X_OK)) {
		fprintf(stderr, "perflab-runner: static perflab-bench %s: %s "
			"(make static-bench)\n", cfg->bench_static,
			strerror(errno));
		return -1;
	}
	snprintf(cpio, sizeof(cpio), "%s/initramfs.cpio", cfg->workdir);
	snprintf(nm, sizeof(nm), "%s/perflab-bench.nm", cfg->workdir);
	if (initramfs_build(&is, err, sizeof(err))) {
		fprintf(stderr, "perflab-runner: %s\n", err);
		return -1;
	}
	if (write_nm(cfg, nm))
		return -1;
	if (rutil_sha256_file(cpio, sum)) {
		fprintf(stderr, "perflab-runner: %s: %s\n", cpio,
			strerror(errno));
		return -1;
	}
	printf("%s %s\n", sum, cpio);
	return 0;
}
