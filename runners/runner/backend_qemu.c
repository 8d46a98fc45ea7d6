// SPDX-License-Identifier: MIT
/*
 * backend_qemu: the qemu and qemu-icount backends (two tables, one
 * pipeline): build the variant kernel, boot it in QEMU with a generated
 * initramfs that runs perflab-bench, read the result off the console.
 * qemu-icount adds the exact instruction profile of the perflab-insn
 * plugin. Guest details: qemu.h.
 */
#include "runners/runner/backend.h"
#include "common/benchargs.h"
#include "runners/runner/initramfs.h"
#include "runners/runner/insnprof.h"
#include "runners/runner/qemu.h"
#include "runners/runner/rutil.h"
#include "runners/runner/serial.h"
#include "runners/runner/toggle.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LOG_MAX (1u << 20)

static struct qemu_opts qemu_store;

static struct qemu_opts *qopts(const struct runner_cfg *cfg)
{
	return cfg->backend_opts;
}

struct qphase {
	const struct exec_ctx *c;
};

static void on_serial(void *arg, enum serial_phase ph)
{
	struct qphase *q = arg;

	if (ph == SERIAL_RUNNING)
		exec_phase(q->c, "run", "benchmark running in the guest");
}

static int prepare_guest(const struct exec_ctx *c, const struct job *j,
			 char *initrd, size_t len, struct outcome *o)
{
	const struct runner_cfg *cfg = c->cfg;
	struct initramfs_spec is = { .busybox = cfg->busybox,
				     .bench = cfg->bench_static,
				     .out = initrd };
	char err[512];
	char *plan = NULL;
	int ret;

	snprintf(initrd, len, "%s/initramfs-%lld.cpio", cfg->workdir, j->id);
	if (access(cfg->bench_static, X_OK)) {
		outcome_fail(o, "internal", rutil_strdupf(
			"static perflab-bench %s: %s (make static-bench)",
			cfg->bench_static, strerror(errno)));
		return -1;
	}
	if (j->nruns) {
		plan = toggle_plan(j);
		if (!plan) {
			outcome_fail(o, "internal", strdup("out of memory"));
			return -1;
		}
		is.toggle = plan;
	}
	ret = initramfs_build(&is, err, sizeof(err));
	free(plan);
	if (ret)
		outcome_fail(o, "internal", strdup(err));
	return ret;
}

/* The last max bytes of a capture (logs are capped by the daemon). */
static const char *tail(const char *s, size_t len, size_t max)
{
	return len > max ? s + len - max : s;
}

static int guest_outcome(const struct qemu_outcome *qo, struct outcome *o)
{
	struct serial_result sr;
	char how[64];
	const char *reason;
	int ret = -1;

	serial_parse(qo->console, qo->console_len, &sr);
	o->boot_s = qo->boot_s;
	o->run_s = qo->run_s;
	if (sr.status == SERIAL_OK) {
		ret = exec_take_bench(sr.json, o);
		goto out;
	}
	rutil_outcome(qo->rc, qo->status, how, sizeof(how));
	reason = sr.status == SERIAL_NO_BENCH ? "boot" : "bench";
	if (qo->rc == RUTIL_CANCELLED)
		reason = "internal";
	outcome_fail(o, reason, rutil_strdupf(
		"%s (qemu: %s)\n--- qemu ---\n%s\n--- console ---\n%s",
		sr.msg, how, qo->qemu_log, tail(qo->console, qo->console_len,
						 256u << 10)));
out:
	serial_result_free(&sr);
	return ret;
}

/* A toggle boot ended: the runs it finished went to run_done already. */
static int toggle_outcome(const struct toggle_console *tc,
			  const struct qemu_outcome *qo, struct outcome *o)
{
	o->boot_s = qo->boot_s;
	o->run_s = qo->run_s;
	o->runs_done = tc->next;
	if (tc->next == tc->j->nruns)
		return 0;
	toggle_unfinished(tc->j, tc->next, qo->console ? qo->console : "",
			  qo->console_len, o);
	if (qo->rc == RUTIL_CANCELLED)
		o->reason = "internal";
	return -1;
}

/* A run without its exact profile is still a valid run: log why. */
static void attach_exact(const struct exec_ctx *c,
			 const struct kbuild_result *kr, const char *prof,
			 struct outcome *o)
{
	char scratch[4300], err[512], msg[600];
	struct insnprof_src src = {
		.plugin_out = prof, .sysmap = kr->sysmap,
		.bench_static = c->cfg->bench_static, .scratch = scratch,
	};

	snprintf(scratch, sizeof(scratch), "%s.nm", prof);
	if (!insnprof_attach(o->bench, &src, err, sizeof(err)))
		return;
	snprintf(msg, sizeof(msg), "no exact profile: %s", err);
	exec_phase(c, "run", msg);
	fprintf(stderr, "perflab-runner: %s\n", msg);
}

static int qemu_run(const struct exec_ctx *c, const struct job *j,
		    struct outcome *o, int icount)
{
	struct toggle_console tc = { .c = c, .j = j, .boot = o };
	const struct runner_cfg *cfg = c->cfg;
	const struct qemu_opts *q = qopts(cfg);
	struct kbuild_result kr = { 0 };
	struct benchargs ba;
	struct qemu_outcome qo;
	struct qphase qp = { c };
	struct qemu_spec s = { 0 };
	char initrd[4200], console[4200], img[4200], err[512], prof[4200];
	char kvm_broken[4200];
	char *args = NULL;
	int ret = -1, timeout;

	if (qemu_check_extra(j->cmdline, err, sizeof(err)) ||
	    benchargs_from_json(j->bench, &ba, err, sizeof(err))) {
		outcome_fail(o, "internal", strdup(err));
		return -1;
	}
	snprintf(prof, sizeof(prof), "%s/insn-%lld.prof", cfg->workdir, j->id);
	/* The plugin counts a whole boot: a toggle boot's runs would mix. */
	if (!j->nruns && icount && q->insn_plugin) {
		if (access(q->insn_plugin, R_OK) ||
		    !insnprof_path_ok(q->insn_plugin) ||
		    !insnprof_path_ok(prof)) {
			outcome_fail(o, "internal", rutil_strdupf(
				"insn plugin %s: %s (make builds it; paths "
				"must not contain ',')", q->insn_plugin,
				strerror(errno)));
			goto out_args;
		}
		/*
		 * The exact profile replaces the sampled one: the sampler's
		 * interrupts and ring reads would be counted in it.
		 */
		benchargs_drop(&ba, "-P");
		s.plugin = q->insn_plugin;
		s.plugin_out = prof;
		s.plugin_cache = json_is_true(json_object_get(j->bench,
							      "cache"));
		unlink(prof);
	}
	if (exec_build(c, j, &kr, o))
		goto out_args;
	if (prepare_guest(c, j, initrd, sizeof(initrd), o))
		goto out_kr;
	args = benchargs_join(&ba, ',');
	snprintf(console, sizeof(console), "%s/console-%lld.log", cfg->workdir,
		 j->id);
	snprintf(img, sizeof(img), "%s/nvme.img", cfg->workdir);
	s.qemu = q->qemu;
	s.kernel = kr.image;
	s.initrd = initrd;
	s.target = !strcmp(j->target, "nvme") ? "nvme" : "nullb";
	s.nvme_img = img;
	s.bench_args = args;
	s.extra = j->cmdline;
	s.console = console;
	s.icount = icount;
	snprintf(kvm_broken, sizeof(kvm_broken), "%s/kvm-broken",
		 cfg->workdir);
	s.kvm = q->kvm && access(kvm_broken, F_OK);
	s.smp = q->smp;
	s.mem_mb = q->mem_mb;
	/* TCG is slow: allow 30 s of wall time per guest second. */
	timeout = q->boot_timeout + 30 * (ba.runtime + 5);
	if (j->nruns) {
		/* One boot, every run of it; each is uploaded as it ends. */
		timeout = q->boot_timeout + 30 * (ba.runtime + 5) * j->nruns;
		s.on_console = toggle_on_console;
		s.console_arg = &tc;
	}
	exec_phase(c, "boot", s.icount ? "qemu-icount" : s.kvm ? "qemu (kvm)" :
	      "qemu (tcg)");
	if (qemu_boot(&s, timeout, c->abort, on_serial, &qp, &qo)) {
		outcome_fail(o, "internal", rutil_strdupf("starting qemu: %s",
							  strerror(errno)));
		goto out_initrd;
	}
	if (s.kvm && !s.icount && qo.console_len == 0 &&
	    qo.rc != RUTIL_CANCELLED) {
		/* /dev/kvm opened but KVM cannot run a vCPU here: remember
		 * that and boot with TCG. */
		fprintf(stderr, "perflab-runner: KVM failed, using TCG from "
			"now on:\n%s\n", qo.qemu_log);
		rutil_write_file(kvm_broken, qo.qemu_log, strlen(qo.qemu_log));
		qemu_outcome_free(&qo);
		s.kvm = 0;
		tc.off = 0;
		if (qemu_boot(&s, timeout, c->abort, on_serial, &qp, &qo)) {
			outcome_fail(o, "internal", rutil_strdupf(
				"starting qemu: %s", strerror(errno)));
			goto out_initrd;
		}
	}
	if (j->nruns) {
		ret = toggle_outcome(&tc, &qo, o);
	} else {
		ret = guest_outcome(&qo, o);
		if (!ret && s.plugin)
			attach_exact(c, &kr, prof, o);
	}
	o->boot_log = strdup(tail(qo.console, qo.console_len, LOG_MAX));
	qemu_outcome_free(&qo);
out_initrd:
	unlink(initrd);
	if (s.plugin)
		unlink(prof);
out_kr:
	kbuild_result_free(&kr);
out_args:
	free(args);
	benchargs_free(&ba);
	return ret;
}

static int run_qemu(const struct exec_ctx *c, const struct job *j,
		    struct outcome *o)
{
	return qemu_run(c, j, o, 0);
}

static int run_icount(const struct exec_ctx *c, const struct job *j,
		      struct outcome *o)
{
	return qemu_run(c, j, o, 1);
}

/* A file in the workdir that says something was seen (heap path). */
static char *mark(const struct runner_cfg *cfg, const char *name)
{
	return rutil_strdupf("%s/%s", cfg->workdir, name);
}

static int marked(const struct runner_cfg *cfg, const char *name)
{
	char *f = mark(cfg, name);
	int ret = !access(f, F_OK);

	free(f);
	return ret;
}

/* Polling is verified per boot: say so once a polled run was seen. */
static int qemu_poll_ok(const struct runner_cfg *cfg)
{
	return marked(cfg, "poll-verified");
}

static int qemu_after_run(const struct runner_cfg *cfg,
			  const struct outcome *o)
{
	const json_t *params = json_object_get(o->bench, "params");
	char *f;
	int ret;

	if (!json_is_true(json_object_get(params, "polled")) ||
	    qemu_poll_ok(cfg))
		return 0;
	f = mark(cfg, "poll-verified");
	ret = !rutil_write_file(f, "1\n", 2);
	free(f);
	return ret;
}

/* KVM: usable at start and not found broken by a boot since. */
static void qemu_facts(const struct runner_cfg *cfg, json_t *f)
{
	json_object_set_new(f, "kvm", json_boolean(qopts(cfg)->kvm &&
			    !marked(cfg, "kvm-broken")));
}

/* icount runs TCG: KVM is never used, whatever the host has. */
static void icount_facts(const struct runner_cfg *cfg, json_t *f)
{
	(void)cfg;
	json_object_set_new(f, "kvm", json_false());
}

/* KVM when /dev/kvm can create a VM, unless --no-kvm. */
static int qemu_validate(struct runner_cfg *cfg, char *err, size_t len)
{
	struct qemu_opts *q = qopts(cfg);

	(void)err;
	(void)len;
	q->kvm = q->no_kvm ? 0 : qemu_kvm_usable();
	return 0;
}

/* --insn-plugin: perflab-insn.so next to this binary unless given. */
static void insn_plugin_default(struct qemu_opts *q)
{
	char exe[PATH_MAX], *abs;
	ssize_t n;

	if (q->insn_plugin && !strcmp(q->insn_plugin, "none")) {
		q->insn_plugin = NULL;
		return;
	}
	if (!q->insn_plugin) {
		n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		exe[n > 0 ? n : 0] = 0;
		q->insn_plugin = rutil_strdupf("%s/perflab-insn.so",
					       dirname(exe));
	}
	/* The guest's QEMU runs elsewhere: an absolute path. */
	abs = realpath(q->insn_plugin, NULL);
	if (abs)
		q->insn_plugin = abs;
}

/* TCG only; a missing plugin fails each job, so say it at once. */
static int icount_validate(struct runner_cfg *cfg, char *err, size_t len)
{
	struct qemu_opts *q = qopts(cfg);

	(void)err;
	(void)len;
	q->kvm = 0;
	insn_plugin_default(q);
	if (q->insn_plugin && access(q->insn_plugin, R_OK))
		fprintf(stderr, "perflab-runner: warning: --insn-plugin %s: "
			"%s (make builds it; \"none\": sampled profiles)\n",
			q->insn_plugin, strerror(errno));
	return 0;
}

#define OFF(f) offsetof(struct qemu_opts, f)

static const struct opt_def qemu_defs[] = {
	{ .name = "qemu", .kind = OPT_STR, .off = OFF(qemu), .arg = "FILE",
	  .dflt = "qemu-system-x86_64", .flags = OPT_DOC_DEFAULT,
	  .help = "qemu binary" },
	{ .name = "insn-plugin", .kind = OPT_STR, .off = OFF(insn_plugin),
	  .arg = "FILE",
	  .help = "qemu-icount: the perflab-insn TCG plugin for exact\n"
		  "instruction profiles (default: perflab-insn.so next\n"
		  "to this binary; \"none\": off, sampled -P instead)" },
	{ .name = "boot-timeout", .kind = OPT_INT, .off = OFF(boot_timeout),
	  .arg = "S", .min = 1, .max = 100000, .dflt = "120",
	  .hint = "not a positive number",
	  .help = "watchdog for a guest to start the bench" },
	{ .name = "smp", .kind = OPT_INT, .off = OFF(smp), .arg = "N",
	  .min = 1, .max = 100000, .dflt = "1", .flags = OPT_DOC_DEFAULT,
	  .hint = "not a positive number",
	  .help = "qemu guest CPUs; icount forces -smp 1" },
	{ .name = "mem", .kind = OPT_INT, .off = OFF(mem_mb), .arg = "MB",
	  .min = 1, .max = 100000, .dflt = "512", .flags = OPT_DOC_DEFAULT,
	  .hint = "not a positive number", .help = "qemu guest memory" },
	{ .name = "no-kvm", .kind = OPT_FLAG, .off = OFF(no_kvm),
	  .help = "never use KVM" },
};

static const struct opt_table qemu_table = {
	.defs = qemu_defs,
	.n = sizeof(qemu_defs) / sizeof(qemu_defs[0]),
	.store = &qemu_store,
};

const struct backend_ops backend_qemu = {
	.name = "qemu",
	.usage = "boot each variant kernel in QEMU (KVM when /dev/kvm works)",
	.opts = &qemu_table,
	.validate = qemu_validate,
	.run = run_qemu,
	.facts = qemu_facts,
	.poll_ok = qemu_poll_ok,
	.after_run = qemu_after_run,
};

const struct backend_ops backend_qemu_icount = {
	.name = "qemu-icount",
	.usage = "QEMU TCG with -icount shift=0,sleep=off -smp 1: guest time\n"
		 "counts instructions, so IOPS and ns/IO measure CPU cost per\n"
		 "IO (not cache, memory or device timing); ~0.1 % repeatable",
	.opts = &qemu_table,
	.validate = icount_validate,
	.run = run_icount,
	.facts = icount_facts,
	.poll_ok = qemu_poll_ok,
	.after_run = qemu_after_run,
};
