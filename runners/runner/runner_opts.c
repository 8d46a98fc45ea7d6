// SPDX-License-Identifier: MIT
/*
 * runner_opts: perflab-runner's option tables and their parse; see
 * runner_opts.h.
 */
#include <errno.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>

#include "common/default_base.h"
#include "runners/runner/buildonce.h"
#include "runners/runner/runner_opts.h"
#include "runners/runner/rutil.h"

#define OFF(f) offsetof(struct runner_opts, f)
/* The runner's counts: whole and positive, like make -j's. */
#define POSITIVE .min = 1, .max = 100000, .hint = "not a positive number"

static int set_key_file(void *store, const char *path, char *err, size_t len)
{
	struct runner_opts *o = store;
	char *k = rutil_read_file(path, NULL);

	if (!k) {
		snprintf(err, len, "--key-file %s: %s", path, strerror(errno));
		return -1;
	}
	k[strcspn(k, "\r\n")] = 0;
	o->proto.key = k;
	return 0;
}

/* --label L, repeatable; past RUNNER_MAX_LABELS they are dropped. */
static int add_label(void *store, const char *v, char *err, size_t len)
{
	struct runner_opts *o = store;

	(void)err;
	(void)len;
	if (o->nlabels < RUNNER_MAX_LABELS)
		o->labels[o->nlabels++] = v;
	return 0;
}

static int add_patch(void *store, const char *v, char *err, size_t len)
{
	struct runner_opts *o = store;

	(void)err;
	(void)len;
	if (o->try_npatches < RUNNER_MAX_PATCHES)
		o->try_patches[o->try_npatches++] = v;
	return 0;
}

static int set_build_user(void *store, const char *v, char *err, size_t len)
{
	struct runner_opts *o = store;
	struct passwd *pw = getpwnam(v);

	if (!pw) {
		snprintf(err, len, "--build-user %s: no such user", v);
		return -1;
	}
	o->cfg.build_uid = pw->pw_uid;
	o->cfg.build_gid = pw->pw_gid;
	return 0;
}

static int set_redis_auth(void *store, const char *file, char *err,
			  size_t len)
{
	struct runner_opts *o = store;
	char why[512];

	if (!buildonce_redis_auth(file, &o->cc, why, sizeof(why)))
		return 0;
	snprintf(err, len, "--ccache-redis-auth %s", why);
	return -1;
}

static const struct opt_def main_defs[] = {
	{ .name = "server", .kind = OPT_STR, .off = OFF(proto.server),
	  .arg = "URL", .help = "perflabd base URL" },
	{ .name = "key", .kind = OPT_STR, .off = OFF(proto.key), .arg = "KEY",
	  .help = "runner key (or env PERFLAB_RUNNER_KEY, --key-file F)" },
	{ .name = "key-file", .kind = OPT_FN, .arg = "FILE",
	  .set = set_key_file, .help = "the runner key: the file's first line" },
	{ .name = "backend", .kind = OPT_STR, .off = OFF(cfg.backend),
	  .arg = "BACKEND", .help = "how jobs run (Backends: below)" },
	{ .name = "name", .kind = OPT_STR, .off = OFF(proto.name),
	  .arg = "NAME", .dflt = "hostname", .flags = OPT_DOC_DEFAULT,
	  .help = "host name" },
	{ .name = "label", .kind = OPT_FN, .arg = "L", .set = add_label,
	  .dflt = "the backend", .flags = OPT_DOC_DEFAULT,
	  .help = "host label, repeatable" },
	{ .name = "target", .kind = OPT_STR, .off = OFF(cfg.target),
	  .arg = "DEV", .help = "local/kexec: device or file to bench" },
	{ .name = "workdir", .kind = OPT_STR, .off = OFF(cfg.workdir),
	  .arg = "DIR", .dflt = "/var/lib/perflab-runner",
	  .help = "scratch and state" },
	{ .name = "kcache", .kind = OPT_STR, .off = OFF(cfg.kcache),
	  .arg = "DIR", .dflt = "WORKDIR/kcache", .flags = OPT_DOC_DEFAULT,
	  .help = "kernel build cache" },
	{ .name = "tree", .kind = OPT_STR, .off = OFF(cfg.tree), .arg = "DIR",
	  .dflt = "build/linux-source-6.1", .flags = OPT_DOC_DEFAULT,
	  .help = "pristine base tree" },
	{ .name = "configs", .kind = OPT_STR, .off = OFF(cfg.configs),
	  .arg = "DIR", .dflt = "kernel-patches/configs",
	  .flags = OPT_DOC_DEFAULT, .help = "config fragments" },
	{ .name = "bench", .kind = OPT_STR, .off = OFF(cfg.bench), .arg = "FILE",
	  .dflt = "build/perflab-bench", .flags = OPT_DOC_DEFAULT,
	  .help = "perflab-bench for local/kexec" },
	{ .name = "bench-static", .kind = OPT_STR, .off = OFF(cfg.bench_static),
	  .arg = "FILE", .dflt = "build/perflab-bench-static",
	  .flags = OPT_DOC_DEFAULT,
	  .help = "static perflab-bench for the initramfs (qemu, lava-guest)" },
	{ .name = "busybox", .kind = OPT_STR, .off = OFF(cfg.busybox),
	  .arg = "FILE", .dflt = "/bin/busybox",
	  .help = "static busybox for the initramfs (qemu, lava-guest)" },
	{ .name = "jobs", .kind = OPT_INT, .off = OFF(cfg.jobs), .arg = "N",
	  POSITIVE, .dflt = "online CPUs", .flags = OPT_DOC_DEFAULT,
	  .help = "make -j" },
	{ .name = "kconfig-base", .kind = OPT_STR, .off = OFF(cfg.base_config),
	  .arg = "FILE",
	  .help = "start from this full config instead of tinyconfig\n"
		  "(kexec hosts: /boot/config-$(uname -r)); the job's\n"
		  "fragment is applied on top and verified" },
	{ .name = "build-user", .kind = OPT_FN, .arg = "USER",
	  .set = set_build_user, .dflt = "nobody; never root",
	  .flags = OPT_DOC_DEFAULT,
	  .help = "when root: apply patches and build as USER in the\n"
		  "bubblewrap sandbox" },
	{ .name = "claim-wait", .kind = OPT_INT, .off = OFF(claim_wait),
	  .arg = "S", POSITIVE, .dflt = "25", .help = "long-poll seconds" },
	{ .name = "role", .kind = OPT_CHOICE, .off = OFF(proto.role),
	  .arg = "ROLE", .choices = "builder|test|any|none", .dflt = "any",
	  .help = "builder (builds images for others, runs no job),\n"
		  "test (never builds: downloads), any,\n"
		  "none (no image store: builds all it runs, alone)" },
	{ .name = "ccache-redis", .kind = OPT_STR, .off = OFF(cc.redis_socket),
	  .arg = "SOCK",
	  .help = "the lab's shared ccache: Redis's Unix socket; base\n"
		  "builds write it, patched builds only read it" },
	{ .name = "ccache-redis-auth", .kind = OPT_FN, .arg = "FILE",
	  .set = set_redis_auth,
	  .help = "\"rw USER PASS\" and \"ro USER PASS\" lines" },
	{ .name = "ccache-redis-timeout", .kind = OPT_INT,
	  .off = OFF(cc.timeout_ms), .arg = "MS", POSITIVE, .dflt = "500",
	  .flags = OPT_DOC_DEFAULT,
	  .help = "connect/operation timeout" },
	{ .name = "once", .kind = OPT_FLAG, .off = OFF(once),
	  .help = "handle one job then exit" },
	{ .name = "help", .letter = 'h', .kind = OPT_HELP, .help = "this help" },
};

static const struct opt_def try_defs[] = {
	{ .name = "patch", .kind = OPT_FN, .arg = "FILE", .set = add_patch,
	  .help = "a patch to apply, repeatable (in order)" },
	{ .name = "cmdline", .kind = OPT_STR, .off = OFF(try_cmdline),
	  .arg = "S", .help = "variant kernel command line" },
	{ .name = "setup", .kind = OPT_STR, .off = OFF(try_setup), .arg = "CMD",
	  .help = "local: run before the bench" },
	{ .name = "bench-params", .kind = OPT_STR, .off = OFF(try_bench),
	  .arg = "JSON", .help = "as a job's bench" },
	{ .name = "runs", .kind = OPT_INT, .off = OFF(try_runs), .arg = "N",
	  POSITIVE, .dflt = "1", .help = "runs, each in WORKDIR/try-N.json" },
	{ .name = "config", .kind = OPT_STR, .off = OFF(try_config),
	  .arg = "NAME", .dflt = "qemu", .flags = OPT_DOC_DEFAULT,
	  .help = "the config fragment" },
	{ .name = "git", .kind = OPT_STR, .off = OFF(try_git), .arg = "URL",
	  .help = "a git base instead of --tree (with --commit)" },
	{ .name = "commit", .kind = OPT_STR, .off = OFF(try_commit),
	  .arg = "SHA", .help = "the git base's commit" },
	{ .name = "base", .kind = OPT_STR, .off = OFF(try_base), .arg = "NAME",
	  .dflt = PERFLAB_DEFAULT_BASE ", with --git linux-git",
	  .flags = OPT_DOC_DEFAULT, .help = "the base's name" },
	{ .name = "trust-domain", .kind = OPT_STR, .off = OFF(try_domain),
	  .arg = "D", .dflt = "local", .flags = OPT_DOC_DEFAULT,
	  .help = "build patches as trust domain D (the daemon's\n"
		  "trust_domain)" },
	{ .name = "build-only", .kind = OPT_FLAG, .off = OFF(try_build_only),
	  .help = "build (or find in the cache) the image and print\n"
		  "\"KEY RELEASE IMAGE\" (prebuilt images for a kexec host)" },
};

#define N(a) (sizeof(a) / sizeof(a[0]))

void runner_opts_tables(struct opt_table t[RUNNER_NTABS],
			struct runner_opts *o)
{
	t[RUNNER_TAB_MAIN] = (struct opt_table){ "Options:", main_defs,
						 N(main_defs), o, NULL };
	t[RUNNER_TAB_TRY] = (struct opt_table){
		"try mode (prints each run's summary, writes WORKDIR/try-N.json):",
		try_defs, N(try_defs), o, NULL };
}

/* The runner's tables, then each backend's (a shared one once). */
static size_t all_tables(struct opt_table *t, size_t max,
			 struct runner_opts *o)
{
	const struct backend_ops *b, *prev = NULL;
	size_t n = RUNNER_NTABS;

	runner_opts_tables(t, o);
	for (int i = 0; (b = backend_at(i)) && n < max; prev = b, i++)
		if (b->opts && (!prev || prev->opts != b->opts))
			t[n++] = *b->opts;
	return n;
}

int runner_opts_parse(struct runner_opts *o, int argc, char **argv,
		      char *err, size_t len)
{
	struct opt_table t[16];
	size_t n = all_tables(t, 16, o);
	int first, r;

	for (size_t i = 0; i < n; i++)
		if (opttab_defaults(&t[i], err, len))
			return OPTTAB_ERROR;
	r = opttab_parse(t, n, argc, argv, OPTTAB_PREFIX, &first, err, len);
	if (r)
		return r;
	if (first < argc && !strcmp(argv[first], "try")) {
		o->try_mode = 1;
		first++;
	} else if (first < argc && !strcmp(argv[first], "lava-guest")) {
		o->guest_mode = o->try_mode = 1;
		first++;
	}
	if (first < argc) {
		snprintf(err, len, "unexpected argument '%s'", argv[first]);
		return OPTTAB_ERROR;
	}
	return OPTTAB_OK;
}

void runner_opts_usage(FILE *f)
{
	struct runner_opts o;
	struct opt_table t[RUNNER_NTABS];

	runner_opts_tables(t, &o);
	fprintf(f,
"Usage: perflab-runner --server URL --key KEY --backend BACKEND --name NAME\n"
"         [--label L]... [--target DEV] [--workdir DIR] [options] [--once]\n"
"       perflab-runner try --backend BACKEND [--patch FILE]... [--cmdline S]\n"
"         [--bench-params JSON] [--runs N] [options]\n"
"       perflab-runner lava-guest --workdir DIR [--bench-static F] [--busybox F]\n"
"\n");
	opttab_usage(&t[RUNNER_TAB_MAIN], f);
	fputc('\n', f);
	opttab_usage(&t[RUNNER_TAB_TRY], f);
	fputc('\n', f);
	backend_usage(f);
	fputc('\n', f);
	fprintf(f,
"lava-guest: write the guest of a LAVA-bound label into --workdir:\n"
"  initramfs.cpio (busybox, the static bench, a shell for LAVA's test shell)\n"
"  and perflab-bench.nm (its symbols, for exact profiles); perflabd serves\n"
"  them to LAVA (docs/operating.md, \"perflab with an existing LAVA lab\").\n");
}
