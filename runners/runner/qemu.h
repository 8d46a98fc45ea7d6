/* SPDX-License-Identifier: MIT */
/*
 * qemu: the qemu and qemu-icount backends' guest: command construction,
 * KVM detection, and one boot with a watchdog, capturing the console.
 *
 * qemu-icount runs TCG with `-icount shift=0,sleep=off -smp 1`: the guest
 * clock advances one nanosecond per instruction executed, so IOPS and
 * ns/IO measure instructions per IO (CPU cost), not cache, memory or
 * device timing. That is what makes it reproducible. The guest boots with
 * noapictimer (tick from the HPET; one vCPU), which skips the APIC timer
 * calibration busy-wait and saves ~10 s of wall time per boot.
 */
#ifndef PERFLAB_QEMU_H
#define PERFLAB_QEMU_H

#include <signal.h>
#include <stddef.h>

#include "runners/runner/serial.h"

/*
 * The options of the qemu and qemu-icount backends (backend_qemu.c's
 * table, one store), found at runner_cfg.backend_opts.
 */
struct qemu_opts {
	const char *qemu;
	const char *insn_plugin; /* qemu-icount: perflab-insn.so, NULL: off */
	int boot_timeout;	/* seconds before the bench must start */
	int smp, mem_mb;
	int no_kvm;		/* --no-kvm */
	int kvm;		/* validate(): use KVM */
};

struct qemu_spec {
	const char *qemu;	/* binary; NULL: qemu-system-x86_64 */
	const char *kernel;	/* bzImage */
	const char *initrd;	/* cpio from initramfs.c */
	const char *target;	/* "nullb" or "nvme" */
	const char *nvme_img;	/* backing file for -device nvme */
	const char *bench_args;	/* comma-separated perflab-bench flags */
	const char *extra;	/* variant's kernel command line, may be NULL */
	const char *console;	/* console capture file */
	const char *plugin;	/* TCG plugin (.so), NULL: none */
	const char *plugin_out;	/* its out= file */
	int plugin_cache;	/* its cache model (cache=on) */
	int icount;		/* qemu-icount tier */
	int kvm;		/* use KVM (ignored with icount) */
	int smp;		/* vCPUs (forced to 1 with icount) */
	int mem_mb;
	/* Called with the whole capture whenever it grew (toggle boots
	 * upload each run as it ends); NULL: not needed. */
	void (*on_console)(void *arg, const char *buf, size_t len);
	void *console_arg;
};

/* 1 if /dev/kvm opens and can create a VM. */
int qemu_kvm_usable(void);
/*
 * Variant cmdline check (common/kcmdline.h): printable ASCII, no
 * quotes/backslashes, no perflab_* keys of ours, <= 1024 bytes. 0 ok, -1
 * with err.
 */
int qemu_check_extra(const char *extra, char *err, size_t errlen);
/* The kernel command line (-append); heap string. */
char *qemu_kernel_cmdline(const struct qemu_spec *s);
/* NULL-terminated heap argv (free with qemu_argv_free). */
char **qemu_argv(const struct qemu_spec *s);
void qemu_argv_free(char **argv);

typedef void (*qemu_phase_fn)(void *arg, enum serial_phase phase);

struct qemu_outcome {
	int rc;			/* rutil_run result */
	int status;
	double boot_s;		/* start -> bench began */
	double run_s;		/* bench began -> qemu exited */
	char *console;		/* heap copy of the capture */
	size_t console_len;
	char *qemu_log;		/* qemu's own stderr (heap) */
};

int qemu_boot(const struct qemu_spec *s, int timeout_s,
	      const volatile sig_atomic_t *cancel, qemu_phase_fn fn, void *arg,
	      struct qemu_outcome *out);
void qemu_outcome_free(struct qemu_outcome *o);

#endif
