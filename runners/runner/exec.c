// SPDX-License-Identifier: MIT
/*
 * exec: kernel build step shared by the qemu and kexec backends, and the
 * qemu / qemu-icount backend itself.
 */
#include "runners/runner/exec.h"
#include "runners/runner/benchargs.h"
#include "runners/runner/gitbase.h"
#include "runners/runner/initramfs.h"
#include "runners/runner/insnprof.h"
#include "runners/runner/proto.h"
#include "runners/runner/qemu.h"
#include "runners/runner/rutil.h"
#include "runners/runner/serial.h"
#include "runners/runner/toggle.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LOG_MAX (1u << 20)

void outcome_fail(struct outcome *o, const char *reason, char *log)
{
	o->reason = reason;
	free(o->log);
	o->log = log ? log : strdup("");
}

void outcome_free(struct outcome *o)
{
	free(o->log);
	free(o->boot_log);
	json_decref(o->bench);
	json_decref(o->build);
	memset(o, 0, sizeof(*o));
}

json_t *outcome_result_body(const struct outcome *o, const char *lease)
{
	json_t *b = json_object(), *t = json_object();

	json_object_set_new(b, "lease", json_string(lease));
	json_object_set(b, "bench", o->bench);
	if (o->build)
		json_object_set(b, "build", o->build);
	json_object_set_new(b, "boot_log", proto_text(o->boot_log));
	json_object_set_new(t, "build_s", json_real(o->build_s));
	json_object_set_new(t, "boot_s", json_real(o->boot_s));
	json_object_set_new(t, "run_s", json_real(o->run_s));
	json_object_set_new(b, "timings", t);
	if (o->boot_id[0])
		json_object_set_new(b, "boot", json_pack("{s:s,s:i}", "id",
			o->boot_id, "pos", o->boot_pos));
	return b;
}

static void phase(const struct exec_ctx *c, const char *ph, const char *msg)
{
	if (c->phase)
		c->phase(c->arg, ph, msg);
}

int exec_exact_profile(const struct runner_cfg *cfg)
{
	return cfg->insn_plugin && !strcmp(cfg->backend, "qemu-icount");
}

/*
 * A git base: the image may be cached under its commit already; else the
 * clone is locked, the pristine tree put at the commit and built while
 * the lock is held (the farm links its files).
 */
static int build_git(const struct exec_ctx *c, const struct job *j,
		     struct kbuild_req *r, struct kbuild_result *kr)
{
	struct gitbase g = { .kcache = c->cfg->kcache, .url = j->base_url,
			     .commit = j->base_commit, .cancel = c->abort };
	char *msg = NULL;
	int ret;

	if (!kbuild_lookup(r, kr) && !strcmp(kr->commit, j->base_commit))
		return 0;
	kbuild_result_free(kr);
	phase(c, "build", "checking out the base commit");
	if (gitbase_checkout(&g, &msg)) {
		kr->status = KBUILD_INTERNAL;
		kr->msg = msg;
		return -1;
	}
	r->tree = g.tree;
	ret = kbuild_image(r, kr);
	gitbase_release(&g);
	if (!ret && strcmp(kr->commit, g.head)) {
		kr->status = KBUILD_INTERNAL;
		kr->msg = rutil_strdupf("image %s records commit %s, the tree "
					"was at %s", kr->key, kr->commit,
					g.head);
		return -1;
	}
	return ret;
}

static void build_json(struct outcome *o, const struct job *j,
		       const struct kbuild_result *kr)
{
	char *log = rutil_read_tail(kr->log, LOG_MAX);

	o->build = json_object();
	json_object_set_new(o->build, "cache_key", json_string(kr->key));
	json_object_set_new(o->build, "cached", json_boolean(kr->cached));
	json_object_set_new(o->build, "seconds", json_real(kr->cached ?
						o->build_s : kr->seconds));
	json_object_set_new(o->build, "log", proto_text(log));
	if (j->base_git)
		json_object_set_new(o->build, "commit",
				    json_string(kr->commit));
	free(log);
}

int exec_build(const struct exec_ctx *c, const struct job *j,
	       struct kbuild_result *kr, struct outcome *o)
{
	const struct runner_cfg *cfg = c->cfg;
	char config[4096], msg[4200];
	struct kbuild_req r = {
		.kcache = cfg->kcache, .tree = cfg->tree,
		.base_name = j->base_name, .config_path = config,
		.base_config = cfg->base_config,
		.commit = j->base_git ? j->base_commit : NULL,
		.patches = j->patches, .npatches = j->npatches,
		.jobs = cfg->jobs, .cancel = c->abort,
		.uid = cfg->build_uid, .gid = cfg->build_gid,
	};
	static const char *const reason[] = {
		[KBUILD_OK] = NULL, [KBUILD_PATCH_FAILED] = "patch_apply",
		[KBUILD_BUILD_FAILED] = "build", [KBUILD_INTERNAL] = "internal",
	};
	double start = rutil_now();

	snprintf(config, sizeof(config), "%s/%s.config", cfg->configs,
		 j->config);
	phase(c, "build", j->npatches ? "applying patches, building" :
	      "building base");
	if (access(config, R_OK)) {
		outcome_fail(o, "internal", rutil_strdupf(
			"config fragment %s: %s", config, strerror(errno)));
		return -1;
	}
	if (j->base_git ? build_git(c, j, &r, kr) : kbuild_image(&r, kr)) {
		outcome_fail(o, reason[kr->status], kr->msg);
		kr->msg = NULL;
		return -1;
	}
	o->build_s = rutil_now() - start;
	snprintf(msg, sizeof(msg), "%s image %s", kr->cached ? "cached" :
		 "built", kr->image);
	phase(c, "build", msg);
	build_json(o, j, kr);
	return 0;
}

int exec_take_bench(const char *text, struct outcome *o)
{
	json_error_t je;
	json_t *b = json_loads(text, 0, &je);

	if (!b || !json_is_array(json_object_get(b, "samples")) ||
	    !json_is_object(json_object_get(b, "summary"))) {
		outcome_fail(o, "bench", rutil_strdupf(
			"bench JSON unusable (%s)", b ? "no samples/summary" :
			je.text));
		json_decref(b);
		return -1;
	}
	o->bench = b;
	return 0;
}

struct qphase {
	const struct exec_ctx *c;
};

static void on_serial(void *arg, enum serial_phase ph)
{
	struct qphase *q = arg;

	if (ph == SERIAL_RUNNING)
		phase(q->c, "run", "benchmark running in the guest");
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
	phase(c, "run", msg);
	fprintf(stderr, "perflab-runner: %s\n", msg);
}

int exec_qemu(const struct exec_ctx *c, const struct job *j,
	      struct outcome *o)
{
	struct toggle_console tc = { .c = c, .j = j, .boot = o };
	const struct runner_cfg *cfg = c->cfg;
	struct kbuild_result kr;
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
	if (!j->nruns && exec_exact_profile(cfg)) {
		if (access(cfg->insn_plugin, R_OK) ||
		    !insnprof_path_ok(cfg->insn_plugin) ||
		    !insnprof_path_ok(prof)) {
			outcome_fail(o, "internal", rutil_strdupf(
				"insn plugin %s: %s (make builds it; paths "
				"must not contain ',')", cfg->insn_plugin,
				strerror(errno)));
			goto out_args;
		}
		/*
		 * The exact profile replaces the sampled one: the sampler's
		 * interrupts and ring reads would be counted in it.
		 */
		benchargs_drop(&ba, "-P");
		s.plugin = cfg->insn_plugin;
		s.plugin_out = prof;
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
	s.qemu = cfg->qemu;
	s.kernel = kr.image;
	s.initrd = initrd;
	s.target = !strcmp(j->target, "nvme") ? "nvme" : "nullb";
	s.nvme_img = img;
	s.bench_args = args;
	s.extra = j->cmdline;
	s.console = console;
	s.icount = !strcmp(cfg->backend, "qemu-icount");
	snprintf(kvm_broken, sizeof(kvm_broken), "%s/kvm-broken",
		 cfg->workdir);
	s.kvm = cfg->kvm && access(kvm_broken, F_OK);
	s.smp = cfg->smp;
	s.mem_mb = cfg->mem_mb;
	/* TCG is slow: allow 30 s of wall time per guest second. */
	timeout = cfg->boot_timeout + 30 * (ba.runtime + 5);
	if (j->nruns) {
		/* One boot, every run of it; each is uploaded as it ends. */
		timeout = cfg->boot_timeout + 30 * (ba.runtime + 5) * j->nruns;
		s.on_console = toggle_on_console;
		s.console_arg = &tc;
	}
	phase(c, "boot", s.icount ? "qemu-icount" : s.kvm ? "qemu (kvm)" :
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
