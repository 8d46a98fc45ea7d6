/* SPDX-License-Identifier: MIT */
/*
 * guest_markers: the lines perflab's guest prints around a bench run
 * (the runner's initramfs, runners/runner/serial.h, and the LAVA guest,
 * daemon/lab/lava_console.h, both read them).
 */
#ifndef PERFLAB_GUEST_MARKERS_H
#define PERFLAB_GUEST_MARKERS_H

#define SERIAL_BENCH_BEGIN "==PERFLAB-BENCH-BEGIN=="
#define SERIAL_BENCH_END "==PERFLAB-BENCH-END=="
#define SERIAL_RESULT_BEGIN "==PERFLAB-RESULT-BEGIN=="
#define SERIAL_RESULT_END "==PERFLAB-RESULT-END=="
#define SERIAL_DONE "==PERFLAB-DONE=="
#define SERIAL_ERROR "==PERFLAB-ERROR=="
/*
 * A toggle boot (one kernel, several runs) frames each run:
 *   ==PERFLAB-RUN== job=N pos=K boot=BOOT_ID
 *   ...the markers above, from BENCH-BEGIN to RESULT-END...
 *   ==PERFLAB-RUN-END== job=N
 * and a setting the kernel refused ends the boot with
 *   ==PERFLAB-SETTING-REFUSED== job=N reason
 */
#define SERIAL_RUN "==PERFLAB-RUN=="
#define SERIAL_RUN_END "==PERFLAB-RUN-END=="
#define SERIAL_REFUSED "==PERFLAB-SETTING-REFUSED=="

#endif
