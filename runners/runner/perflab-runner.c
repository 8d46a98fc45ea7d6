// SPDX-License-Identifier: MIT
/*
 * perflab-runner: test-host agent. Pulls jobs from perflabd, builds the
 * variant kernel, boots it (qemu, qemu-icount, kexec) or runs on the
 * current kernel (local), runs perflab-bench and uploads the result.
 * `perflab-runner try ...` runs the same pipeline without a server.
 * The options are tables: the runner's in runner_opts.c, each backend's
 * in its backend_*.c.
 */
#include "common/default_base.h"
#include "runners/runner/backend.h"
#include "runners/runner/buildonce.h"
#include "runners/runner/facts.h"
#include "runners/runner/hb.h"
#include "runners/runner/lava_guest.h"
#include "runners/runner/proto.h"
#include "runners/runner/runner_opts.h"
#include "runners/runner/rutil.h"
#include "runners/runner/toggle.h"
#include "http_client.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The only process-wide state: set by SIGTERM/SIGINT. */
static volatile sig_atomic_t stop_flag;

static void on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

static char *from_top(const struct runner_opts *o, const char *rel)
{
	return rutil_strdupf("%s/%s", o->top, rel);
}

static void parse_args(int argc, char **argv, struct runner_opts *o)
{
	char err[1024];
	int r = runner_opts_parse(o, argc, argv, err, sizeof(err));

	if (r == OPTTAB_HELP) {
		runner_opts_usage(stdout);
		exit(0);
	}
	if (r) {
		fprintf(stderr, "perflab-runner: %s (see --help)\n", err);
		exit(2);
	}
}

/* realpath when the file exists, else the path as given. */
static const char *absolute(const char *path)
{
	char *r = realpath(path, NULL);

	return r ? r : path;
}

static void fail_usage(const char *msg)
{
	fprintf(stderr, "perflab-runner: %s (see --help)\n", msg);
	exit(2);
}

/* What the backend's table asks of the options. */
static void check_backend(struct runner_opts *o)
{
	const struct backend_ops *be = o->be;
	char err[512];

	if (be->needs_target && !o->cfg.target && !o->try_mode) {
		fprintf(stderr, "perflab-runner: --target DEV is required for "
			"the %s backend (see --help)\n", be->name);
		exit(2);
	}
	if (be->needs_root && geteuid() != 0)
		fprintf(stderr, "perflab-runner: warning: %s needs root\n",
			be->name);
	if (be->validate && be->validate(&o->cfg, err, sizeof(err))) {
		fprintf(stderr, "perflab-runner: %s: %s\n", be->name, err);
		exit(2);
	}
}

static void set_defaults(struct runner_opts *o)
{
	struct runner_cfg *c = &o->cfg;
	static char host[256];
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	exe[n > 0 ? n : 0] = 0;
	/* build/perflab-runner -> repository top */
	snprintf(o->top, sizeof(o->top), "%s", dirname(dirname(exe)));
	if (!c->backend && o->guest_mode)
		c->backend = "qemu-icount";
	if (!c->backend)
		fail_usage("--backend is required");
	o->be = backend_find(c->backend);
	if (!o->be) {
		fprintf(stderr, "perflab-runner: --backend must be one of %s "
			"(see --help)\n", backend_names());
		exit(2);
	}
	c->backend_opts = o->be->opts ? o->be->opts->store : NULL;
	if (!o->try_mode) {
		if (!o->proto.server)
			fail_usage("--server is required");
		if (!o->proto.key)
			o->proto.key = getenv("PERFLAB_RUNNER_KEY");
		if (!o->proto.key)
			fail_usage("--key (or PERFLAB_RUNNER_KEY) is required");
	}
	if (!o->proto.name) {
		gethostname(host, sizeof(host) - 1);
		o->proto.name = host;
	}
	if (!o->nlabels)
		o->labels[o->nlabels++] = c->backend;
	if (rutil_mkdirs(c->workdir, 0755)) {
		fprintf(stderr, "perflab-runner: --workdir %s: %s\n",
			c->workdir, strerror(errno));
		exit(2);
	}
	if (!c->kcache)
		c->kcache = rutil_strdupf("%s/kcache", c->workdir);
	if (!c->tree)
		c->tree = from_top(o, "build/linux-source-6.1");
	if (!c->configs)
		c->configs = from_top(o, "kernel-patches/configs");
	if (!c->bench)
		c->bench = from_top(o, "build/perflab-bench");
	if (!c->bench_static)
		c->bench_static = from_top(o, "build/perflab-bench-static");
	if (!c->jobs)
		c->jobs = (int)sysconf(_SC_NPROCESSORS_ONLN);
	/* Children run in other directories: make every path absolute. */
	if (rutil_mkdirs(c->kcache, 0755)) {
		fprintf(stderr, "perflab-runner: --kcache %s: %s\n", c->kcache,
			strerror(errno));
		exit(2);
	}
	c->workdir = absolute(c->workdir);
	c->kcache = absolute(c->kcache);
	c->tree = absolute(c->tree);
	c->configs = absolute(c->configs);
	c->bench = absolute(c->bench);
	c->bench_static = absolute(c->bench_static);
	if (c->base_config)
		c->base_config = absolute(c->base_config);
	if (o->cc.redis_socket && !o->cc.rw_user)
		fail_usage("--ccache-redis needs --ccache-redis-auth");
	c->cc = &o->cc;
	if (!strcmp(o->proto.role, "none"))
		o->proto.role = NULL;
	check_backend(o);
}

/* The daemon sees every message; the log one line per phase. */
static void hb_phase_cb(void *arg, const char *phase, const char *msg)
{
	if (hb_phase(arg, phase, msg))
		fprintf(stderr, "perflab-runner: phase %s: %s\n", phase, msg);
}

static void wait_for_reboot(struct runner_opts *o, struct hb *h)
{
	/* systemctl stops us with SIGTERM; the backend resumes the job. */
	for (int i = 0; i < 600 && !stop_flag; i++)
		sleep(1);
	if (h)
		hb_stop(h);
	if (!stop_flag) {
		fprintf(stderr, "perflab-runner: %s reboot did not happen "
			"within 10 minutes\n", o->be->name);
		if (o->be->abandon)
			o->be->abandon(&o->cfg);
	}
	exit(0);
}

/*
 * Upload @out as job @id's result, or report its failure; @what names the
 * run in the log. Every answer is logged: a failure report the daemon did
 * not take leaves the job to its lease, which the operator should know.
 */
static void upload(struct runner_opts *o, long long id, const char *lease,
		   const struct outcome *out, const char *what)
{
	const char *reason = out->reason, *log = out->log;
	char err[512];
	int ret;

	if (!reason) {
		ret = proto_result(&o->proto, id, outcome_result_body(out,
				   lease), err, sizeof(err));
		fprintf(stderr, "perflab-runner: job %lld%s done: %s\n", id, what,
			ret == PROTO_OK ? "uploaded" : "not acknowledged");
		/* The daemon will never take this result (the guest wrote it,
		 * so a patch can make it so): end the job with its reason. */
		if (ret != PROTO_REFUSED)
			return;
		reason = "internal";
		log = err;
	} else {
		fprintf(stderr, "perflab-runner: job %lld%s failed (%s)\n", id,
			what, reason);
	}
	if (proto_fail(&o->proto, id, lease, reason, log) != PROTO_OK)
		fprintf(stderr, "perflab-runner: job %lld: failure report "
			"(%s) not acknowledged\n", id, reason);
}

static void report(struct runner_opts *o, const struct job *j, struct hb *h,
		   struct outcome *out)
{
	if (h->lost) {
		fprintf(stderr, "perflab-runner: job %lld: lease lost (409); "
			"dropped\n", j->id);
		return;
	}
	hb_finish(h, out->reason ? out->reason : "result");
	upload(o, j->id, j->lease, out, "");
}

/* A toggle boot: each run is uploaded (or reported) as soon as it ends. */
struct toggle_sink {
	struct runner_opts *o;
	const struct job *j;
	struct hb *h;
};

static void toggle_run_done(void *arg, int i, struct outcome *out)
{
	struct toggle_sink *t = arg;
	const struct toggle_run *r = &t->j->runs[i];
	char what[256];

	if (t->h->lost)
		return;
	snprintf(what, sizeof(what), " (toggle run %d/%d, %s, boot %.8s pos "
		 "%d)", i + 1, t->j->nruns, r->variant, out->boot_id,
		 out->boot_pos);
	upload(t->o, r->job_id, r->lease, out, what);
}

/*
 * The boot ended: the runs it finished are uploaded; the first one it did
 * not finish is reported with the reason, and the daemon puts the others
 * back in the queue for a new boot.
 */
static void report_toggle(struct runner_opts *o, const struct job *j, struct hb *h,
			  struct outcome *out)
{
	const struct toggle_run *r;
	char what[256];

	if (h->lost || out->runs_done >= j->nruns)
		return;
	hb_finish(h, out->reason ? out->reason : "result");
	r = &j->runs[out->runs_done];
	if (!out->reason)
		outcome_fail(out, "internal", strdup("toggle boot ended early"));
	snprintf(what, sizeof(what), " (toggle run %d/%d, %s)",
		 out->runs_done + 1, j->nruns, r->variant);
	upload(o, r->job_id, r->lease, out, what);
}

static int do_register(struct runner_opts *o);

static void handle_job(struct runner_opts *o, const char *text)
{
	struct exec_ctx c = { .cfg = &o->cfg };
	struct outcome out = { 0 };
	char err[512];
	struct hb h;
	struct job j;
	struct toggle_sink ts = { o, &j, &h };
	int ret;

	if (job_parse(text, &j, err, sizeof(err))) {
		json_t *raw = json_loads(text, 0, NULL);
		json_t *id = json_object_get(raw, "job_id");
		const char *lease = json_string_value(json_object_get(raw,
								      "lease"));

		fprintf(stderr, "perflab-runner: bad job: %s\n", err);
		if (json_is_integer(id) && lease)
			proto_fail(&o->proto, json_integer_value(id), lease,
				   "internal", err);
		json_decref(raw);
		return;
	}
	if (j.build_id) {
		buildonce_task(&o->proto, &o->cfg, &j, &stop_flag);
		job_free(&j);
		return;
	}
	fprintf(stderr, "perflab-runner: job %lld: experiment %lld variant "
		"%s run %d (attempt %d)%s\n", j.id, j.experiment_id, j.variant,
		j.run_index, j.attempt, j.nruns ? ", toggle boot" : "");
	/* A toggle boot's last run is uploaded last: its lease is the one
	 * that lives as long as the boot (the daemon extends them all). */
	if (hb_start(&h, &o->proto, j.nruns ? j.runs[j.nruns - 1].job_id : j.id,
		     j.nruns ? j.runs[j.nruns - 1].lease : j.lease,
		     j.lease_seconds, &stop_flag)) {
		proto_fail(&o->proto, j.id, j.lease, "internal",
			   "cannot start heartbeat thread");
		job_free(&j);
		return;
	}
	c.abort = &h.abort;
	c.phase = hb_phase_cb;
	c.arg = &h;
	c.run_done = toggle_run_done;
	c.run_arg = &ts;
	c.proto = &o->proto;
	ret = o->be->run(&c, &j, &out);
	if (ret == BACKEND_REBOOTING)
		wait_for_reboot(o, &h);
	if (stop_flag && out.reason && !h.lost)
		outcome_fail(&out, "internal",
			     strdup("runner stopped (SIGTERM) during the job"));
	if (j.nruns)
		report_toggle(o, &j, &h, &out);
	else
		report(o, &j, &h, &out);
	hb_stop(&h);
	/* qemu: the first polled run proves polling; say so. */
	if (!out.reason && o->be->after_run && o->be->after_run(&o->cfg, &out))
		do_register(o);
	outcome_free(&out);
	job_free(&j);
}

static int do_register(struct runner_opts *o)
{
	const struct backend_ops *be = o->be;
	char err[512];
	json_t *facts;
	int ret;

	json_decref(o->proto.configs);
	o->proto.configs = o->proto.role ? buildonce_configs(&o->cfg) : NULL;
	facts = facts_collect("", be->name, o->cfg.target,
			      be->poll_ok ? be->poll_ok(&o->cfg) : -1);
	if (be->facts)
		be->facts(&o->cfg, facts);
	ret = proto_register(&o->proto, be->name, o->labels,
			     o->nlabels, facts, err, sizeof(err));
	json_decref(facts);
	if (ret)
		fprintf(stderr, "perflab-runner: register: %s\n", err);
	return ret;
}

/* A job the backend resumes after a restart (struct backend_host). */
struct resumed {
	struct runner_opts *o;
	struct hb h;
	struct toggle_sink ts;
};

static int resume_begin(void *arg, const struct job *j, struct exec_ctx *c)
{
	struct resumed *r = arg;

	if (hb_start(&r->h, &r->o->proto, j->id, j->lease, j->lease_seconds,
		     &stop_flag))
		return -1;
	r->ts = (struct toggle_sink){ r->o, j, &r->h };
	c->abort = &r->h.abort;
	c->phase = hb_phase_cb;
	c->arg = &r->h;
	c->run_done = toggle_run_done;
	c->run_arg = &r->ts;
	c->proto = &r->o->proto;
	return 0;
}

static void resume_end(void *arg, const struct job *j, struct outcome *out)
{
	struct resumed *r = arg;

	if (j->nruns)
		report_toggle(r->o, j, &r->h, out);
	else
		report(r->o, j, &r->h, out);
	hb_stop(&r->h);
}

static void resume(struct runner_opts *o)
{
	struct resumed r = { .o = o };
	struct backend_host host = { resume_begin, resume_end, &r };

	if (o->be->resume(&o->cfg, &host) == BACKEND_REBOOTING)
		wait_for_reboot(o, NULL);
}

static int serve(struct runner_opts *o)
{
	char err[512], *text;
	int delay = 1, ret;

	while (!stop_flag && do_register(o)) {
		sleep(delay);
		delay = delay < 30 ? delay * 2 : 30;
	}
	if (o->be->resume)
		resume(o);
	fprintf(stderr, "perflab-runner: %s registered as %s (%s)\n",
		o->proto.server, o->proto.name, o->cfg.backend);
	delay = 1;
	while (!stop_flag) {
		ret = proto_claim(&o->proto, o->claim_wait, &text, err,
				  sizeof(err));
		if (ret == PROTO_NONE)
			continue;
		if (ret != PROTO_OK) {
			fprintf(stderr, "perflab-runner: claim: %s\n", err);
			sleep(delay);
			delay = delay < 30 ? delay * 2 : 30;
			continue;
		}
		delay = 1;
		handle_job(o, text);
		free(text);
		if (o->once)
			break;
	}
	return 0;
}

static void try_phase(void *arg, const char *phase, const char *msg)
{
	(void)arg;
	fprintf(stderr, "try: %s: %s\n", phase, msg);
}

static json_t *try_job(struct runner_opts *o, int run)
{
	json_t *j = json_object(), *v = json_object(), *ps = json_array();
	json_t *bench = json_object(), *user;
	json_error_t je;

	for (int i = 0; i < o->try_npatches; i++) {
		char *raw = rutil_read_file(o->try_patches[i], NULL);
		json_t *p = json_object();

		if (!raw) {
			fprintf(stderr, "perflab-runner: --patch %s: %s\n",
				o->try_patches[i], strerror(errno));
			exit(2);
		}
		json_object_set_new(p, "subject", json_string(o->try_patches[i]));
		json_object_set_new(p, "raw", proto_text(raw));
		json_array_append_new(ps, p);
		free(raw);
	}
	json_object_set_new(bench, "runtime", json_integer(3));
	json_object_set_new(bench, "warmup", json_integer(1));
	json_object_set_new(bench, "target", json_string("nullb"));
	if (o->try_bench) {
		user = json_loads(o->try_bench, 0, &je);
		if (!json_is_object(user)) {
			fprintf(stderr, "perflab-runner: --bench-params: not a "
				"JSON object (%s)\n", je.text);
			exit(2);
		}
		json_object_update(bench, user);
		json_decref(user);
	}
	json_object_set_new(v, "name", json_string("try"));
	json_object_set_new(v, "patches", ps);
	json_object_set_new(v, "cmdline", json_string(o->try_cmdline ?
						      o->try_cmdline : ""));
	json_object_set_new(v, "setup", json_string(o->try_setup ?
						    o->try_setup : ""));
	json_object_set_new(j, "job_id", json_integer(run));
	json_object_set_new(j, "lease", json_string("try"));
	json_object_set_new(j, "backend", json_string(o->cfg.backend));
	if (o->try_git)
		json_object_set_new(j, "base", json_pack("{s:s,s:s,s:s,s:s}",
			"name", o->try_base ? o->try_base : "linux-git",
			"kind", "git", "url", o->try_git,
			"commit", o->try_commit ? o->try_commit : ""));
	else
		json_object_set_new(j, "base", json_pack("{s:s}", "name",
			o->try_base ? o->try_base : PERFLAB_DEFAULT_BASE));
	json_object_set_new(j, "config", json_string(o->try_config ?
						     o->try_config : "qemu"));
	json_object_set_new(j, "variant", v);
	json_object_set_new(j, "bench", bench);
	if (o->try_domain)
		json_object_set_new(j, "trust_domain", json_string(o->try_domain));
	return j;
}

static void try_print(int run, const struct outcome *out, const char *file)
{
	const json_t *s = json_object_get(out->bench, "summary");
	const json_t *b = out->build;

	printf("run %d: build %.1fs (%s) boot %.1fs run %.1fs mean %.1f "
	       "IOPS stddev %.1f ns/io %.4f -> %s\n", run, out->build_s,
	       b ? (json_is_true(json_object_get(b, "cached")) ? "cached" :
		    "built") : "none", out->boot_s, out->run_s,
	       json_number_value(json_object_get(s, "mean")),
	       json_number_value(json_object_get(s, "stddev")),
	       json_number_value(json_object_get(s, "ns_per_io")), file);
	fflush(stdout);
}

/* try --build-only: the image a kexec host finds by its cache key. */
static int try_build(const struct exec_ctx *c, struct job *j)
{
	struct outcome out = { 0 };
	struct kbuild_result kr = { 0 };
	int ret = 0;

	if (exec_build(c, j, &kr, &out)) {
		printf("build: FAILED (%s)\n%s\n", out.reason, out.log);
		ret = 1;
	} else {
		printf("%s %s %s%s%s\n", kr.key, kr.release, kr.image,
		       kr.commit[0] ? " " : "", kr.commit);
		kbuild_result_free(&kr);
	}
	outcome_free(&out);
	job_free(j);
	return ret;
}

static int try_runs(struct runner_opts *o)
{
	struct exec_ctx c = { .cfg = &o->cfg, .abort = &stop_flag,
			      .phase = try_phase };
	int failed = 0;

	for (int run = 1; run <= o->try_runs && !stop_flag; run++) {
		struct outcome out = { 0 };
		char err[512], file[4200];
		json_t *raw = try_job(o, run);
		struct job j;
		int ret;

		if (job_from_json(raw, &j, err, sizeof(err))) {
			fprintf(stderr, "perflab-runner: %s\n", err);
			return 2;
		}
		json_decref(raw);
		if (o->try_build_only)
			return try_build(&c, &j);
		ret = o->be->run(&c, &j, &out);
		if (ret == BACKEND_REBOOTING) {
			fprintf(stderr, "try: %s reboot under way\n",
				o->be->name);
			return 0;
		}
		snprintf(file, sizeof(file), "%s/try-%d.json", o->cfg.workdir,
			 run);
		if (out.reason) {
			printf("run %d: FAILED (%s)\n%s\n", run, out.reason,
			       out.log);
			failed = 1;
		} else {
			json_dump_file(out.bench, file, JSON_INDENT(1));
			try_print(run, &out, file);
		}
		outcome_free(&out);
		job_free(&j);
		if (failed)
			break;
	}
	return failed;
}

int main(int argc, char **argv)
{
	struct runner_opts o = { 0 };
	struct sigaction sa = { .sa_handler = on_signal };

	o.cfg.build_uid = (uid_t)-1;
	o.cfg.build_gid = (gid_t)-1;
	o.proto.stop = &stop_flag;
	parse_args(argc, argv, &o);
	set_defaults(&o);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (http_client_global_init()) {
		fprintf(stderr, "perflab-runner: libcurl init failed\n");
		return 1;
	}
	if (o.guest_mode)
		return lava_guest_write(&o.cfg) ? 1 : 0;
	{
		char saved[4200];

		/* a toggle job's host settings, if the last runner died in it */
		toggle_saved_path(&o.cfg, saved, sizeof(saved));
		if (!access(saved, F_OK)) {
			fprintf(stderr, "perflab-runner: restoring the host's"
				" settings saved in %s\n", saved);
			toggle_restore(saved);
		}
	}
	if (o.try_mode)
		return try_runs(&o);
	return serve(&o);
}
