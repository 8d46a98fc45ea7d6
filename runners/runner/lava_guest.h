/* SPDX-License-Identifier: MIT */
/*
 * lava_guest: `perflab-runner lava-guest`, the guest a LAVA-bound label
 * boots (initramfs.h's LAVA guest), written into the workdir as
 *   initramfs.cpio      busybox, the static perflab-bench, /init
 *   perflab-bench.nm    `nm -n` of that bench (user symbols of exact
 *                       profiles, resolved by perflabd)
 * perflabd's --lava-guest DIR serves them (daemon/lab/lava.h).
 */
#ifndef PERFLAB_LAVA_GUEST_H
#define PERFLAB_LAVA_GUEST_H

#include "runners/runner/exec.h"

/* 0 ok; -1 with a message on stderr. */
int lava_guest_write(const struct runner_cfg *cfg);

#endif
