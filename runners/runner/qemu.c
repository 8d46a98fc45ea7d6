// SPDX-License-Identifier: MIT
/*
 * qemu: guest command construction and one watched boot.
 */
#include "runners/runner/qemu.h"
#include "kcmdline.h"
#include "runners/runner/console.h"
#include "runners/runner/rutil.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/kvm.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

int qemu_kvm_usable(void)
{
	int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC), vm;

	if (fd < 0)
		return 0;
	if (ioctl(fd, KVM_GET_API_VERSION, 0) != KVM_API_VERSION) {
		close(fd);
		return 0;
	}
	vm = ioctl(fd, KVM_CREATE_VM, 0);
	if (vm >= 0)
		close(vm);
	close(fd);
	return vm >= 0;
}

int qemu_check_extra(const char *extra, char *err, size_t errlen)
{
	return extra ? kcmdline_check(extra, err, errlen) : 0;
}

char *qemu_kernel_cmdline(const struct qemu_spec *s)
{
	const char *dev;

	/*
	 * null_blk's default queue holds 64 requests: QD128 would leave half
	 * the IOs waiting for tags. 1024 is what an NVMe queue has
	 * (nvme.io_queue_depth).
	 */
	if (!strcmp(s->target, "nvme"))
		dev = "nvme.poll_queues=1";
	else
		dev = "null_blk.queue_mode=2 null_blk.irqmode=0 "
		      "null_blk.poll_queues=1 null_blk.submit_queues=1 "
		      "null_blk.hw_queue_depth=1024 null_blk.nr_devices=1";
	/*
	 * icount: one vCPU, so the HPET can drive the tick; noapictimer
	 * skips the local APIC timer calibration, a ~0.1 s guest-time busy
	 * wait that TCG runs instruction by instruction (~10 s of wall time).
	 */
	return rutil_strdupf("console=ttyS0 panic=-1 nokaslr %s%s "
			     "perflab_target=%s perflab_bench=%s%s%s",
			     s->icount ? "noapictimer " : "", dev,
			     s->target, s->bench_args ? s->bench_args : "",
			     s->extra && *s->extra ? " " : "",
			     s->extra ? s->extra : "");
}

static int push(char ***v, int *n, char *s)
{
	char **nv = realloc(*v, (*n + 2) * sizeof(**v));

	if (!nv || !s) {
		free(s);
		if (nv)
			*v = nv;
		return -1;
	}
	*v = nv;
	nv[(*n)++] = s;
	nv[*n] = NULL;
	return 0;
}

#define PUSH(x) do { if (push(&v, &n, (x))) goto fail; } while (0)

char **qemu_argv(const struct qemu_spec *s)
{
	int smp = s->icount ? 1 : (s->smp > 0 ? s->smp : 1);
	char **v = NULL;
	int n = 0;

	PUSH(strdup(s->qemu ? s->qemu : "qemu-system-x86_64"));
	PUSH(strdup("-nodefaults"));
	PUSH(strdup("-no-user-config"));
	PUSH(strdup("-display"));
	PUSH(strdup("none"));
	PUSH(strdup("-monitor"));
	PUSH(strdup("none"));
	PUSH(strdup("-no-reboot"));
	PUSH(strdup("-nic"));
	PUSH(strdup("none"));
	PUSH(strdup("-accel"));
	PUSH(strdup(s->kvm && !s->icount ? "kvm" : "tcg"));
	if (s->kvm && !s->icount) {
		PUSH(strdup("-cpu"));
		PUSH(strdup("host"));
	}
	if (s->icount) {
		PUSH(strdup("-icount"));
		PUSH(strdup("shift=0,sleep=off"));
	}
	if (s->plugin) {
		PUSH(strdup("-plugin"));
		PUSH(rutil_strdupf("%s,out=%s%s", s->plugin, s->plugin_out,
				   s->plugin_cache ? ",cache=on" : ""));
	}
	PUSH(strdup("-smp"));
	PUSH(rutil_strdupf("%d", smp));
	PUSH(strdup("-m"));
	PUSH(rutil_strdupf("%d", s->mem_mb > 0 ? s->mem_mb : 512));
	PUSH(strdup("-chardev"));
	PUSH(rutil_strdupf("file,id=con,path=%s", s->console));
	PUSH(strdup("-serial"));
	PUSH(strdup("chardev:con"));
	if (!strcmp(s->target, "nvme")) {
		PUSH(strdup("-drive"));
		PUSH(rutil_strdupf("file=%s,if=none,id=nvm,format=raw",
				   s->nvme_img));
		PUSH(strdup("-device"));
		PUSH(strdup("nvme,serial=perflab0,drive=nvm"));
	}
	PUSH(strdup("-kernel"));
	PUSH(strdup(s->kernel));
	PUSH(strdup("-initrd"));
	PUSH(strdup(s->initrd));
	PUSH(strdup("-append"));
	PUSH(qemu_kernel_cmdline(s));
	return v;
fail:
	qemu_argv_free(v);
	return NULL;
}

void qemu_argv_free(char **argv)
{
	for (char **p = argv; p && *p; p++)
		free(*p);
	free(argv);
}

struct watch {
	struct console con;
	const struct qemu_spec *spec;
	qemu_phase_fn fn;
	void *arg;
	enum serial_phase phase;
	size_t scanned;		/* capture bytes already searched for markers */
	double start, bench_start;
};

/* Markers in the bytes added since the last scan (and the line they
 * may have started on); phases only move forward. */
static enum serial_phase scan_new(struct watch *w)
{
	const char *b = w->con.buf;
	size_t from = w->scanned > 64 ? w->scanned - 64 : 0;
	enum serial_phase ph;

	while (from > 0 && b[from - 1] != '\n')
		from--;
	ph = serial_phase(b + from, w->con.len - from);
	w->scanned = w->con.len;
	return ph > w->phase ? ph : w->phase;
}

static int watch_tick(void *arg)
{
	struct watch *w = arg;
	enum serial_phase ph;

	if (console_poll(&w->con) <= 0)
		return w->con.over;
	if (w->spec->on_console && w->con.buf)
		w->spec->on_console(w->spec->console_arg, w->con.buf, w->con.len);
	ph = scan_new(w);
	if (ph != w->phase) {
		if (ph >= SERIAL_RUNNING && !w->bench_start)
			w->bench_start = rutil_now();
		w->phase = ph;
		if (w->fn)
			w->fn(w->arg, ph);
	}
	/* Past the cap: stop the guest rather than fill the disk. */
	return w->con.over;
}

int qemu_boot(const struct qemu_spec *s, int timeout_s,
	      const volatile sig_atomic_t *cancel, qemu_phase_fn fn, void *arg,
	      struct qemu_outcome *out)
{
	char log[4200];
	struct watch w = { .spec = s, .fn = fn, .arg = arg };
	struct rutil_cmd cmd;
	char **argv;
	double end;

	memset(out, 0, sizeof(*out));
	console_init(&w.con, s->console, CONSOLE_CAP);
	if (!strcmp(s->target, "nvme") && access(s->nvme_img, F_OK)) {
		int fd = open(s->nvme_img, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);

		if (fd < 0 || ftruncate(fd, 1LL << 30)) {
			if (fd >= 0)
				close(fd);
			return -1;
		}
		close(fd);
	}
	argv = qemu_argv(s);
	if (!argv)
		return -1;
	snprintf(log, sizeof(log), "%s.qemu", s->console);
	unlink(s->console);
	unlink(log);
	rutil_cmd_init(&cmd, argv);
	cmd.log = log;
	cmd.timeout_s = timeout_s;
	cmd.cancel = cancel;
	cmd.tick = watch_tick;
	cmd.tick_arg = &w;
	w.start = rutil_now();
	out->rc = rutil_run(&cmd, &out->status);
	end = rutil_now();
	qemu_argv_free(argv);
	watch_tick(&w);
	out->boot_s = (w.bench_start ? w.bench_start : end) - w.start;
	out->run_s = w.bench_start ? end - w.bench_start : 0;
	out->console = console_take(&w.con, &out->console_len);
	out->qemu_log = rutil_read_tail(log, 8192);
	if (w.con.over) {
		char *l = rutil_strdupf("guest console passed %zu MiB: qemu"
					" stopped\n%s", CONSOLE_CAP >> 20,
					out->qemu_log ? out->qemu_log : "");

		free(out->qemu_log);
		out->qemu_log = l;
	}
	console_free(&w.con);
	return out->rc == RUTIL_ERROR ? -1 : 0;
}

void qemu_outcome_free(struct qemu_outcome *o)
{
	free(o->console);
	free(o->qemu_log);
	o->console = NULL;
	o->qemu_log = NULL;
}
