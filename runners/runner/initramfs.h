/* SPDX-License-Identifier: MIT */
/*
 * initramfs: the guest userspace for the qemu backends, written as a newc
 * cpio archive: busybox (static), perflab-bench (static) and /init, which
 * mounts proc/sys/devtmpfs, waits for the target from the kernel command
 * line, runs the bench and prints its output and JSON between the serial.h
 * markers, then powers off. Kernel command line keys read by /init:
 *   perflab_target=nullb|nvme   which block device to use
 *   perflab_bench=-d,128,...    perflab-bench flags, comma-separated
 */
#ifndef PERFLAB_INITRAMFS_H
#define PERFLAB_INITRAMFS_H

#include <stddef.h>

struct initramfs_spec {
	const char *busybox;	/* static busybox binary */
	const char *bench;	/* static perflab-bench; NULL: none */
	const char *out;	/* cpio path to write */
	const char *toggle;	/* toggle plan (/toggle), NULL: one run */
	int lava;		/* the LAVA guest (below) instead */
};

/*
 * The LAVA guest (perflab-runner lava-guest): /init mounts the pseudo
 * file systems and leaves a shell with this prompt on the console, for
 * LAVA's boot action to find and its test shell to drive; the job's test
 * definition runs /bin/perflab-lava-bench TARGET FLAGS..., which frames
 * the run with serial.h's markers, the JSON base64-encoded between
 * RESULT-BEGIN and RESULT-END, and reports lava-test-case results
 * (perflab-bench pass/fail, iops, ns_per_io).
 */
#define LAVA_GUEST_PROMPT "perflab-lava# "

const char *initramfs_init_script(void);
const char *initramfs_lava_bench_script(void);
/* 0 ok; -1 with err. */
int initramfs_build(const struct initramfs_spec *s, char *err, size_t errlen);

#endif
