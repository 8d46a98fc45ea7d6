/* SPDX-License-Identifier: MIT */
/*
 * facts: host facts reported at registration (contracts.md section 2).
 * What only one backend knows (qemu: kvm) its table adds (backend.h).
 */
#ifndef PERFLAB_FACTS_H
#define PERFLAB_FACTS_H

#include <jansson.h>

/*
 * target: the bench target (device path for local/kexec, "nullb"/"nvme"
 * for qemu); poll_ok: -1 probe the target's sysfs io_poll, else 0/1.
 * sysroot: "" normally; tests point it at a fake /proc + /sys tree.
 */
json_t *facts_collect(const char *sysroot, const char *backend,
		      const char *target, int poll_ok);
/* "nvme0n1" for "/dev/nvme0n1"; NULL if target is not a block device. */
const char *facts_blockdev_name(const char *target);

#endif
