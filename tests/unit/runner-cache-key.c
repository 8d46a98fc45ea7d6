// SPDX-License-Identifier: MIT
/*
 * Description: kernel image cache keys depend on exactly the base, the
 * ordered patch contents and the config fragment, and for a git base on
 * its commit too (tarball keys stay what they were), and for a patched
 * build the trust domain it was built in; and the config check
 * after olddefconfig names every fragment option that did not stick.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runners/runner/kbuild.h"
#include "runners/runner/rutil.h"
#include "unit/check.h"

static void write_text(const char *path, const char *text)
{
	rutil_write_file(path, text, strlen(text));
}

static const char *base_config;

static const char *commit;	/* git base: its commit */

static void key(const char *base, const struct kpatch *p, int n,
		const char *cfg, char out[65])
{
	char ps[65], ch[65];

	kbuild_patchset_hash(p, n, ps);
	CHECK(kbuild_config_hash(cfg, base_config, ch) == 0);
	kbuild_key(base, commit, ps, ch, n ? "local" : NULL, out);
}

static void git_keys(const struct kpatch *ab, const char *c1,
		     const char *c2, const char *tarball)
{
	char ps[65], ch[65], want[65], g1[65], g2[65], g3[65], *s;

	/* The tarball key of docs/contracts.md section 6 (a patched build
	 * of `try`: trust domain "local"). */
	kbuild_patchset_hash(ab, 2, ps);
	CHECK(kbuild_config_hash(c1, NULL, ch) == 0);
	s = rutil_strdupf("perflab-kbuild-v2\nbase=linux-6.1\npatches=%s\n"
			  "config=%s\ndomain=local\n", ps, ch);
	rutil_sha256_hex(s, strlen(s), want);
	free(s);
	CHECK(!strcmp(tarball, want));

	commit = "1111111111111111111111111111111111111111";
	key("linux-6.1", ab, 2, c1, g1);
	CHECK(strcmp(g1, tarball));		/* git differs from tarball */
	key("linux-6.1", ab, 2, c1, g2);
	CHECK(!strcmp(g1, g2));			/* stable */
	key("linux-6.1", NULL, 0, c1, g2);	/* commit alone (control) */
	CHECK(strcmp(g1, g2));
	key("linux-6.1", ab, 2, c2, g3);	/* config matters */
	CHECK(strcmp(g1, g3) && strcmp(g2, g3));
	commit = "2222222222222222222222222222222222222222";
	key("linux-6.1", ab, 2, c1, g3);	/* commit matters */
	CHECK(strcmp(g1, g3));
	key("linux-6.1", NULL, 0, c1, g3);
	CHECK(strcmp(g2, g3));
	commit = NULL;
	/* A patched build's trust domain is in its key; a base build has none. */
	kbuild_patchset_hash(ab, 2, ps);
	kbuild_key("linux-6.1", NULL, ps, ch, "d1", g1);
	kbuild_key("linux-6.1", NULL, ps, ch, "d2", g2);
	CHECK(strcmp(g1, g2) && strcmp(g1, tarball));
	s = rutil_strdupf("perflab-kbuild-v2\nbase=linux-6.1\npatches=%s\n"
			  "config=%s\ndomain=d1\n", ps, ch);
	rutil_sha256_hex(s, strlen(s), want);
	free(s);
	CHECK(!strcmp(g1, want));
}

int main(void)
{
	char dir[] = "/tmp/perflab-key-XXXXXX";
	char k1[65], k2[65], k3[65], k4[65], k5[65], k6[65];
	struct kpatch a = { "a", "diff a\n", 7 }, b = { "b", "diff b\n", 7 };
	struct kpatch ab[] = { a, b }, ba[] = { b, a };
	char *c1, *c2, *dot, *msg = NULL;

	if (!mkdtemp(dir))
		return 1;
	c1 = rutil_strdupf("%s/one.config", dir);
	c2 = rutil_strdupf("%s/two.config", dir);
	dot = rutil_strdupf("%s/.config", dir);
	write_text(c1, "CONFIG_SMP=y\n");
	write_text(c2, "CONFIG_SMP=y\nCONFIG_IO_URING=y\n");

	key("linux-6.1", ab, 2, c1, k1);
	key("linux-6.1", ab, 2, c1, k2);
	CHECK(!strcmp(k1, k2) && strlen(k1) == 64);
	key("linux-6.1", ba, 2, c1, k3);	/* order matters */
	CHECK(strcmp(k1, k3));
	key("linux-6.2", ab, 2, c1, k4);	/* base matters */
	CHECK(strcmp(k1, k4));
	key("linux-6.1", ab, 2, c2, k5);	/* config matters */
	CHECK(strcmp(k1, k5));
	key("linux-6.1", NULL, 0, c1, k6);	/* control differs */
	CHECK(strcmp(k1, k6));
	base_config = c2;			/* host config instead of tiny */
	key("linux-6.1", ab, 2, c1, k6);
	CHECK(strcmp(k1, k6));
	base_config = NULL;
	git_keys(ab, c1, c2, k1);

	/* Config verification. */
	write_text(c2, "CONFIG_SMP=y\nCONFIG_NR_CPUS=8\n"
			 "# CONFIG_MODULES is not set\nCONFIG_BLK_DEV_NVME=y\n"
			 "CONFIG_LOCALVERSION=\"-perflab\"\n");
	write_text(dot, "CONFIG_SMP=y\nCONFIG_NR_CPUS=8\n"
			 "# CONFIG_MODULES is not set\nCONFIG_BLK_DEV_NVME=y\n"
			 "CONFIG_LOCALVERSION=\"-perflab\"\n");
	CHECK(kbuild_verify_config(c2, dot, &msg) == 0);
	free(msg);
	write_text(dot, "CONFIG_SMP=y\nCONFIG_NR_CPUS=64\n"
			 "CONFIG_MODULES=y\n# CONFIG_BLK_DEV_NVME is not set\n");
	CHECK(kbuild_verify_config(c2, dot, &msg) == -1);
	CHECK(msg && strstr(msg, "CONFIG_NR_CPUS: wanted 8, got 64"));
	CHECK(msg && strstr(msg, "CONFIG_MODULES: wanted not set, got y"));
	CHECK(msg && strstr(msg, "CONFIG_BLK_DEV_NVME: wanted y, got not set"));
	CHECK(msg && strstr(msg, "CONFIG_LOCALVERSION"));
	CHECK(msg && !strstr(msg, "CONFIG_SMP"));
	if (msg)
		fprintf(stderr, "%s", msg);
	free(msg);
	rutil_rm_rf(dir);
	DONE();
}
