// SPDX-License-Identifier: MIT
/*
 * Description: the guest initramfs is a valid newc archive (cpio(1) reads
 * it) holding /init, busybox, perflab-bench and a /dev/console node, and
 * /init prints the serial markers, reads its parameters from the kernel
 * command line and powers off.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runners/runner/initramfs.h"
#include "runners/runner/rutil.h"
#include "unit/check.h"

int main(void)
{
	char dir[] = "/tmp/perflab-initramfs-XXXXXX";
	const char *init = initramfs_init_script();
	char err[256], *bb, *bench, *out, *cmd, *listing;

	if (!mkdtemp(dir))
		return 1;
	bb = rutil_strdupf("%s/busybox", dir);
	bench = rutil_strdupf("%s/bench", dir);
	out = rutil_strdupf("%s/initrd.cpio", dir);
	rutil_write_file(bb, "BUSYBOX", 7);
	rutil_write_file(bench, "BENCH!", 6);
	struct initramfs_spec s = { .busybox = bb, .bench = bench, .out = out };

	CHECK(initramfs_build(&s, err, sizeof(err)) == 0);
	if (access("/usr/bin/cpio", X_OK)) {
		printf("cpio(1) not installed\n");
		return 77;
	}
	cmd = rutil_strdupf("cd %s && cpio -itv < initrd.cpio > list 2>&1",
			    dir);
	CHECK(system(cmd) == 0);
	free(cmd);
	cmd = rutil_strdupf("%s/list", dir);
	listing = rutil_read_file(cmd, NULL);
	CHECK(listing != NULL);
	if (listing) {
		fprintf(stderr, "%s", listing);
		CHECK(strstr(listing, " init\n"));
		CHECK(strstr(listing, " bin/busybox\n"));
		CHECK(strstr(listing, " bin/perflab-bench\n"));
		CHECK(strstr(listing, "bin/sh -> busybox"));
		CHECK(strstr(listing, "crw------- ") &&
		      strstr(listing, " dev/console\n"));
	}
	/* Extract and compare file contents. */
	free(cmd);
	cmd = rutil_strdupf("cd %s && mkdir x && cd x && cpio -id "
			    "--no-absolute-filenames bin/perflab-bench init "
			    "< ../initrd.cpio 2>/dev/null && cmp bin/perflab-bench "
			    "../bench", dir);
	CHECK(system(cmd) == 0);
	free(cmd);
	CHECK(strstr(init, "==PERFLAB-RESULT-BEGIN=="));
	CHECK(strstr(init, "==PERFLAB-RESULT-END== bytes="));
	CHECK(strstr(init, "sha256sum"));
	CHECK(strstr(init, "perflab_bench=*"));
	CHECK(strstr(init, "/dev/nullb0") && strstr(init, "/dev/nvme0n1"));
	CHECK(strstr(init, "poweroff -f"));
	CHECK(strstr(init, "mount -t devtmpfs"));

	s.busybox = "/nonexistent/busybox";
	CHECK(initramfs_build(&s, err, sizeof(err)) == -1);
	CHECK(strstr(err, "/nonexistent/busybox"));
	rutil_rm_rf(dir);
	DONE();
}
