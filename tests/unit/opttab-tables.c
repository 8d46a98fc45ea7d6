// SPDX-License-Identifier: MIT
/*
 * Description: each program's option tables (perflabd, perflab-runner
 * with every backend's, perflab-bench, the perflab CLI's globals) pass
 * opttab_check read together as the program reads them (every option has
 * help, no name or letter twice, defaults their own rows accept); each
 * keeps every flag the hand-written parsers had (the lists below are
 * those parsers' getopt tables); the --help text is made from the tables
 * (every row's name and help in it); perflabd.c's header comment names
 * exactly the table's options; and the default base is the one
 * schema/0001_init.sql seeds.
 */
#include <ctype.h>
#include <string.h>

#include "cli/config.h"
#include "common/default_base.h"
#include "common/opttab.h"
#include "daemon/http/server_opts.h"
#include "runners/perflab-bench/opts.h"
#include "runners/runner/runner_opts.h"
#include "unit/check.h"

/* The flags of the parsers the tables replaced (getopt lists, opts.c). */
static const char *const old_perflabd[] = {
	"listen", "db", "web", "lease-seconds", "max-attempts", "public-read",
	"port-file", "smtp-url", "smtp-from", "smtp-to", "smtp-user",
	"smtp-password-file", "public-url", "max-queued-runs", "trusted-proxy",
	"git-dir", "track-poll", "image-dir", "image-max-bytes",
	"image-max-age", "image-builders", "lava-guest",
	"lava-url", "git-fetchers", "git-wait", "git-fetch-interval",
	"git-fetch-timeout", "delivery-timeout", "retention-days", "reply-inbox", "help", NULL,
};
static const char *const old_runner[] = {
	"server", "key", "key-file", "backend", "name", "label", "target",
	"workdir", "kcache", "tree", "configs", "bench", "bench-static",
	"busybox", "qemu", "jobs", "insn-plugin", "boot-timeout", "smp", "mem",
	"no-kvm", "kconfig-base", "build-user", "state", "poll-queues",
	"kexec-initrd", "console-log", "build-only", "claim-wait", "once",
	"patch", "cmdline", "runs", "config", "git", "commit", "base", "role",
	"ccache-redis", "ccache-redis-auth", "ccache-redis-timeout",
	"trust-domain", "bench-params", "setup", "help", NULL,
};
/* perflab-bench: "letter name" ('-' for none). */
static const char *const old_bench[] = {
	"d depth", "s submit-batch", "c complete-batch", "b bs", "p polled",
	"B fixedbufs", "F regfiles", "R random", "n threads", "r runtime",
	"w warmup", "P profile", "- profile-freq", "j json", "- seed", "- ios",
	"h help", NULL,
};
static const char *const old_cli[] = { "server", "key", NULL };

static const struct opt_def *find(const struct opt_table *t, size_t nt,
				  const char *name)
{
	const struct opt_def *d = NULL;

	for (size_t k = 0; k < nt && !d; k++)
		d = opttab_find(&t[k], name);
	return d;
}

/* @text holds every row's --name and each line of its help. */
static void usage_has_rows(const char *prog, const char *text,
			   const struct opt_table *t, size_t nt)
{
	char want[128], line[256];

	for (size_t k = 0; k < nt; k++)
		for (size_t i = 0; i < t[k].n; i++) {
			const struct opt_def *d = &t[k].defs[i];
			const char *h = d->help, *nl;

			snprintf(want, sizeof(want), "--%s", d->name);
			CHECK(strstr(text, want), "%s: %s not in --help", prog,
			      want);
			for (; h; h = nl ? nl + 1 : NULL) {
				nl = strchr(h, '\n');
				snprintf(line, sizeof(line), "%.*s",
					 (int)(nl ? nl - h : (long)strlen(h)), h);
				CHECK(strstr(text, line), "%s --%s: '%s' not in "
				      "--help", prog, d->name, line);
			}
		}
}

static void program(const char *prog, const struct opt_table *t, size_t nt,
		    const char *const *old, void (*usage)(FILE *))
{
	char err[256], *text = NULL;
	size_t len = 0;
	FILE *f;

	CHECK(opttab_check(t, nt, err, sizeof(err)) == 0, "%s: %s", prog, err);
	for (; *old; old++)
		CHECK(find(t, nt, *old), "%s lost --%s", prog, *old);
	f = open_memstream(&text, &len);
	if (usage)
		usage(f);
	else
		for (size_t k = 0; k < nt; k++)
			opttab_usage(&t[k], f);
	fclose(f);
	usage_has_rows(prog, text, t, nt);
	free(text);
}

static void bench(void)
{
	struct bench_opts o;
	struct opt_table t;

	opts_table(&t, &o, NULL);
	program("perflab-bench", &t, 1, (const char *const[]){ NULL },
		opts_usage);
	for (const char *const *p = old_bench; *p; p++) {
		const struct opt_def *d = opttab_find(&t, *p + 2);

		CHECK(d && d->letter == (**p == '-' ? 0 : **p), "-%c --%s", **p,
		      *p + 2);
	}
}

static void runner(void)
{
	struct opt_table t[16];
	const struct backend_ops *b, *prev = NULL;
	struct runner_opts o;
	size_t n = RUNNER_NTABS;

	runner_opts_tables(t, &o);
	for (int i = 0; (b = backend_at(i)); prev = b, i++)
		if (b->opts && (!prev || prev->opts != b->opts))
			t[n++] = *b->opts;
	CHECK(n > RUNNER_NTABS, "no backend has a table");
	program("perflab-runner", t, n, old_runner, runner_opts_usage);
	/* The backends' options are theirs, not the runner's own. */
	CHECK(!find(t, RUNNER_NTABS, "state") && !find(t, RUNNER_NTABS, "qemu"));
	CHECK(opttab_find(backend_find("kexec")->opts, "state") &&
	      opttab_find(backend_find("qemu-icount")->opts, "insn-plugin"));
}

/* The --options of the first comment of @path. */
static void header_options(const char *path, const struct opt_table *t,
			   const char *const *others)
{
	size_t len;
	char *src = slurp(path, &len), *end, *p, name[64];

	CHECK(src, "%s", path);
	if (!src)
		return;
	end = strstr(src, "*/");
	*end = '\0';
	for (p = src; (p = strstr(p, "--")); ) {
		size_t n = 0;

		for (p += 2; (isalnum((unsigned char)*p) || *p == '-') &&
		     n < sizeof(name) - 1; p++)
			name[n++] = *p;
		name[n] = '\0';
		if (!n)
			continue;
		bool other = false;

		for (const char *const *o = others; *o; o++)
			other |= !strcmp(*o, name);
		CHECK(other || opttab_find(t, name), "%s: header names --%s, "
		      "which is no option", path, name);
	}
	for (size_t i = 0; i < t->n; i++) {
		snprintf(name, sizeof(name), "--%s", t->defs[i].name);
		CHECK(strstr(src, name), "%s: header lacks %s", path, name);
	}
	free(src);
}

static void perflabd(void)
{
	struct server_config cfg;
	struct opt_table t;

	server_opts_table(&t, &cfg, NULL);
	CHECK(server_opts_count() == t.n);
	program("perflabd", &t, 1, old_perflabd, NULL);
	/* The subcommands' own words. */
	header_options("daemon/perflabd.c", &t, (const char *const[]){
		"role", "pages-per-second", NULL });
}

static void cli(void)
{
	struct cli_flags g;
	struct opt_table t;

	config_flags_table(&t, &g);
	program("perflab", &t, 1, old_cli, NULL);
}

static void default_base(void)
{
	size_t len;
	char *sql = slurp("schema/0001_init.sql", &len);

	CHECK(sql && strstr(sql, "VALUES ('" PERFLAB_DEFAULT_BASE "',"),
	      "schema/0001_init.sql does not seed %s", PERFLAB_DEFAULT_BASE);
	free(sql);
}

int main(void)
{
	bench();
	runner();
	perflabd();
	cli();
	default_base();
	DONE();
}
