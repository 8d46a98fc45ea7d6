// SPDX-License-Identifier: MIT
/*
 * Description: the runner's backends come from one registry: every table
 * has a unique name, a --help text and a run(); a name that is not
 * registered is not found; --help lists every backend and its options;
 * the tables say what the runner used to decide by name (local and kexec
 * need --target, kexec needs root and resumes after a restart; qemu
 * reports KVM only when it is usable and not found broken, qemu-icount
 * never; a polled qemu run is remembered once and changes the facts).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runners/runner/backend.h"
#include "runners/runner/kexec.h"
#include "runners/runner/qemu.h"
#include "runners/runner/rutil.h"
#include "unit/check.h"

static char dir[] = "/tmp/perflab-backends-XXXXXX";

#define backend_local (*backend_find("local"))
#define backend_qemu (*backend_find("qemu"))
#define backend_qemu_icount (*backend_find("qemu-icount"))
#define backend_kexec (*backend_find("kexec"))

static void registry(void)
{
	const struct backend_ops *b, *c;
	char *help = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&help, &len);
	int n = 0;

	backend_usage(f);
	fclose(f);
	for (int i = 0; (b = backend_at(i)); i++, n++) {
		CHECK(b->name && *b->name && b->usage && b->run, "%d", i);
		CHECK(backend_find(b->name) == b, "%s", b->name);
		CHECK(strstr(backend_names(), b->name), "%s", b->name);
		CHECK(strstr(help, b->name), "%s not in --help", b->name);
		for (int k = 0; (c = backend_at(k)); k++)
			CHECK(k == i || strcmp(b->name, c->name), "%s",
			      b->name);
	}
	CHECK(n >= 4);
	CHECK(backend_find("local") && backend_find("qemu") &&
	      backend_find("qemu-icount") && backend_find("kexec"));
	CHECK(backend_at(-1) == NULL && backend_at(n) == NULL);
	CHECK(backend_find("nope") == NULL && backend_find(NULL) == NULL);
	CHECK(backend_find("qemu-icoun") == NULL);
	CHECK(strstr(help, "--poll-queues") && strstr(help, "--insn-plugin"));
	free(help);
}

static void flags(void)
{
	CHECK(backend_local.needs_target && !backend_local.needs_root);
	CHECK(backend_kexec.needs_target && backend_kexec.needs_root);
	CHECK(backend_kexec.resume && backend_kexec.abandon);
	CHECK(!backend_qemu.needs_target && !backend_qemu_icount.needs_target);
	CHECK(!backend_local.resume && !backend_qemu.resume);
}

static void qemu_facts(void)
{
	struct qemu_opts q = { .kvm = 1 };
	struct runner_cfg cfg = { .workdir = dir, .backend_opts = &q };
	struct outcome o = { 0 };
	json_t *f = json_object();
	char *broken = rutil_strdupf("%s/kvm-broken", dir);

	backend_qemu.facts(&cfg, f);
	CHECK(json_is_true(json_object_get(f, "kvm")));
	rutil_write_file(broken, "x", 1);
	backend_qemu.facts(&cfg, f);
	CHECK(json_is_false(json_object_get(f, "kvm")), "kvm-broken");
	backend_qemu_icount.facts(&cfg, f);
	CHECK(json_is_false(json_object_get(f, "kvm")), "icount");
	json_decref(f);
	free(broken);

	CHECK(backend_qemu.poll_ok(&cfg) == 0);
	o.bench = json_pack("{s:{s:b}}", "params", "polled", 0);
	CHECK(backend_qemu.after_run(&cfg, &o) == 0, "not polled");
	json_decref(o.bench);
	o.bench = json_pack("{s:{s:b}}", "params", "polled", 1);
	CHECK(backend_qemu_icount.after_run(&cfg, &o) == 1, "first polled run");
	CHECK(backend_qemu.poll_ok(&cfg) == 1);
	CHECK(backend_qemu.after_run(&cfg, &o) == 0, "already known");
	json_decref(o.bench);
}

static void kexec_defaults(void)
{
	struct kexec_opts k = { 0 };
	struct runner_cfg cfg = { .workdir = dir, .backend_opts = &k };
	struct opt_table t = *backend_kexec.opts;
	char err[256];

	/* The table's defaults, then what validate() computes. */
	t.store = &k;
	CHECK(opttab_defaults(&t, err, sizeof(err)) == 0, "%s", err);
	CHECK(backend_kexec.validate(&cfg, err, sizeof(err)) == 0);
	CHECK(k.poll_queues == 1 && k.state_file &&
	      !strncmp(k.state_file, dir, strlen(dir)));
}

int main(void)
{
	if (!mkdtemp(dir))
		return 1;
	registry();
	flags();
	qemu_facts();
	kexec_defaults();
	rutil_rm_rf(dir);
	DONE();
}
