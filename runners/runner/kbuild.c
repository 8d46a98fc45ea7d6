// SPDX-License-Identifier: MIT
/*
 * kbuild: variant kernel images, incremental builds, image cache.
 */
#include "runners/runner/kbuild.h"
#include "runners/runner/rutil.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

struct kb_paths {
	char tree[3000];	/* trees/<base>-<cfg12> */
	char src[3100];
	char obj[3100];
	char lock[3100];
	char dirty[3100];
	char patches[3100];
	char log[3100];
	char img[3000];		/* images/<key> */
	char img_tmp[3100];
};

int kbuild_config_hash(const char *config_path, const char *base_config,
		       char out[65])
{
	char *buf = rutil_read_file(config_path, NULL), *base = NULL, *s;
	char bh[65] = "tinyconfig";

	if (!buf)
		return -1;
	if (base_config) {
		base = rutil_read_file(base_config, NULL);
		if (!base) {
			free(buf);
			return -1;
		}
		rutil_sha256_hex(base, strlen(base), bh);
		free(base);
	}
	s = rutil_strdupf("%s\n%s", bh, buf);
	free(buf);
	if (!s)
		return -1;
	rutil_sha256_hex(s, strlen(s), out);
	free(s);
	return 0;
}

void kbuild_patchset_hash(const struct kpatch *p, int n, char out[65])
{
	char *all = calloc(n + 1, 65), h[65];

	if (!all) {
		memset(out, '0', 64);
		out[64] = 0;
		return;
	}
	for (int i = 0; i < n; i++) {
		rutil_sha256_hex(p[i].raw, p[i].len, h);
		memcpy(all + i * 65, h, 64);
		all[i * 65 + 64] = '\n';
	}
	rutil_sha256_hex(all, n * 65, out);
	free(all);
}

void kbuild_key(const char *base_name, const char *patchset_hash,
		const char *config_hash, char out[65])
{
	char *s = rutil_strdupf("perflab-kbuild-v1\nbase=%s\npatches=%s\n"
				"config=%s\n", base_name, patchset_hash,
				config_hash);

	rutil_sha256_hex(s, s ? strlen(s) : 0, out);
	free(s);
}

/* Find "NAME=" or "# NAME is not set" state in a .config text. */
static const char *config_value(const char *text, const char *name,
				size_t nlen, size_t *vlen)
{
	const char *p = text;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);

		if (n > nlen && !strncmp(p, name, nlen) && p[nlen] == '=') {
			*vlen = n - nlen - 1;
			return p + nlen + 1;
		}
		p = nl ? nl + 1 : NULL;
	}
	return NULL;
}

static char *append(char *s, const char *add)
{
	char *t = rutil_strdupf("%s%s", s ? s : "", add);

	free(s);
	return t;
}

int kbuild_verify_config(const char *fragment, const char *dotconfig,
			 char **msg)
{
	char *frag = rutil_read_file(fragment, NULL);
	char *cfg = rutil_read_file(dotconfig, NULL);
	char *save, *line, *bad = NULL, tmp[512];

	*msg = NULL;
	if (!frag || !cfg) {
		*msg = rutil_strdupf("reading %s: %s", frag ? dotconfig :
				     fragment, strerror(errno));
		free(frag);
		free(cfg);
		return -1;
	}
	for (line = strtok_r(frag, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		const char *want, *got;
		char name[256];
		size_t nlen, vlen = 0;
		int unset = 0;

		if (sscanf(line, "# %255s is not set", name) == 1 &&
		    !strncmp(name, "CONFIG_", 7)) {
			unset = 1;
			nlen = strlen(name);
		} else if (!strncmp(line, "CONFIG_", 7) && strchr(line, '=')) {
			nlen = strchr(line, '=') - line;
			if (nlen >= sizeof(name))
				continue;
			memcpy(name, line, nlen);
			name[nlen] = 0;
		} else {
			continue;
		}
		want = unset ? NULL : line + nlen + 1;
		got = config_value(cfg, name, nlen, &vlen);
		if (unset ? (got && vlen == 1 && (*got == 'y' || *got == 'm')) :
			    (!got || vlen != strlen(want) ||
			     strncmp(got, want, vlen))) {
			snprintf(tmp, sizeof(tmp), "  %s: wanted %s, got %.*s\n",
				 name, unset ? "not set" : want,
				 got ? (int)vlen : 7, got ? got : "not set");
			bad = append(bad, tmp);
		}
	}
	free(frag);
	free(cfg);
	if (!bad)
		return 0;
	*msg = rutil_strdupf("kernel config does not satisfy %s after "
			     "olddefconfig (missing dependency or unknown "
			     "option?):\n%s", fragment, bad);
	free(bad);
	return -1;
}

static void set_paths(const struct kbuild_req *r, const char *cfg_hash,
		      const char *key, struct kb_paths *p)
{
	char base[64];
	size_t i;

	snprintf(base, sizeof(base), "%s", r->base_name);
	for (i = 0; base[i]; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyz"
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", base[i]))
			base[i] = '_';
	snprintf(p->tree, sizeof(p->tree), "%s/trees/%s-%.12s", r->kcache,
		 base, cfg_hash);
	snprintf(p->src, sizeof(p->src), "%s/src", p->tree);
	snprintf(p->obj, sizeof(p->obj), "%s/obj", p->tree);
	snprintf(p->lock, sizeof(p->lock), "%s/lock", p->tree);
	snprintf(p->dirty, sizeof(p->dirty), "%s/dirty.list", p->tree);
	snprintf(p->patches, sizeof(p->patches), "%s/patches", p->tree);
	snprintf(p->log, sizeof(p->log), "%s/build.log", p->tree);
	snprintf(p->img, sizeof(p->img), "%s/images/%s", r->kcache, key);
	snprintf(p->img_tmp, sizeof(p->img_tmp), "%s.tmp", p->img);
}

static void meta_get(const char *meta, const char *k, char *out, size_t len)
{
	size_t klen = strlen(k), vlen;
	const char *v = config_value(meta, k, klen, &vlen);

	out[0] = 0;
	if (v)
		snprintf(out, len, "%.*s", (int)vlen, v);
}

/* Fill res from a finished image dir; 0 if it is complete. */
static int load_cached(const struct kb_paths *p, struct kbuild_result *res)
{
	char meta[4200], secs[64];
	char *text;

	snprintf(res->image, sizeof(res->image), "%s/bzImage", p->img);
	snprintf(res->log, sizeof(res->log), "%s/build.log", p->img);
	snprintf(meta, sizeof(meta), "%s/meta", p->img);
	text = rutil_read_file(meta, NULL);
	if (!text || access(res->image, R_OK)) {
		free(text);
		return -1;
	}
	snprintf(res->sysmap, sizeof(res->sysmap), "%s/System.map", p->img);
	if (access(res->sysmap, R_OK))
		res->sysmap[0] = '\0';
	meta_get(text, "release", res->release, sizeof(res->release));
	meta_get(text, "build_id", res->build_id, sizeof(res->build_id));
	meta_get(text, "seconds", secs, sizeof(secs));
	res->seconds = atof(secs);
	free(text);
	return 0;
}

static int run_logged(const struct kbuild_req *r, char **argv,
		      const char *cwd, char **env, const char *log, int uid)
{
	struct rutil_cmd cmd;
	char how[64], line[512];
	int rc, st;

	rutil_cmd_init(&cmd, argv);
	cmd.cwd = cwd;
	cmd.env = env;
	cmd.log = log;
	cmd.cancel = r->cancel;
	cmd.timeout_s = r->timeout_s > 0 ? r->timeout_s : 3600;
	if (uid) {
		cmd.uid = r->uid;
		cmd.gid = r->gid;
	}
	rc = rutil_run(&cmd, &st);
	if (rc == RUTIL_EXITED && st == 0)
		return 0;
	rutil_outcome(rc, st, how, sizeof(how));
	snprintf(line, sizeof(line), "perflab: %s: %s\n", argv[0], how);
	rutil_append_file(log, line);
	return rc == RUTIL_CANCELLED ? -2 : -1;
}

static int lock_tree(const struct kbuild_req *r, const struct kb_paths *p)
{
	int fd = open(p->lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);

	if (fd < 0)
		return -1;
	while (flock(fd, LOCK_EX | LOCK_NB)) {
		if (errno != EWOULDBLOCK || (r->cancel && *r->cancel)) {
			close(fd);
			return -1;
		}
		usleep(200000);
	}
	return fd;
}

static int make_worktree(const struct kbuild_req *r, const struct kb_paths *p)
{
	char tmp[4300];
	char *cp_link[] = { "cp", "-al", (char *)r->tree, tmp, NULL };
	char *cp_copy[] = { "cp", "-a", (char *)r->tree, tmp, NULL };
	int as_user = r->uid != (uid_t)-1 && geteuid() == 0;

	if (!access(p->src, F_OK))
		return 0;
	snprintf(tmp, sizeof(tmp), "%s.tmp", p->src);
	rutil_rm_rf(tmp);
	/* Hardlinks are safe: patch(1) replaces files, kbuild uses O=. */
	if (run_logged(r, as_user ? cp_copy : cp_link, NULL, NULL, p->log,
		       as_user))
		return -1;
	return rename(tmp, p->src);
}

static int configure(const struct kbuild_req *r, const struct kb_paths *p,
		     char **env, int as_user, char **msg)
{
	char dotcfg[4300], objarg[4300];
	char *tiny[] = { "make", "-s", objarg, "tinyconfig", NULL };
	char *olddef[] = { "make", "-s", objarg, "olddefconfig", NULL };
	char *frag;

	snprintf(objarg, sizeof(objarg), "O=%s", p->obj);
	snprintf(dotcfg, sizeof(dotcfg), "%s/.config", p->obj);
	if (access(dotcfg, F_OK)) {
		if (r->base_config) {
			if (rutil_copy_file(r->base_config, dotcfg, 0644))
				goto fail;
		} else if (run_logged(r, tiny, p->src, env, p->log, as_user)) {
			goto fail;
		}
		frag = rutil_read_file(r->config_path, NULL);
		if (!frag || rutil_append_file(dotcfg, frag)) {
			free(frag);
			unlink(dotcfg);
			goto fail;
		}
		free(frag);
	}
	/* Every variant: patches may touch Kconfig. */
	if (run_logged(r, olddef, p->src, env, p->log, as_user)) {
		unlink(dotcfg);
		goto fail;
	}
	return kbuild_verify_config(r->config_path, dotcfg, msg);
fail:
	*msg = rutil_read_tail(p->log, 16384);
	return -1;
}

static int compile(const struct kbuild_req *r, const struct kb_paths *p,
		   char **env, int as_user)
{
	char objarg[4300], jobs[32], cc[64];
	char *argv[] = { "make", objarg, jobs, cc, "KBUILD_BUILD_USER=perflab",
			 "KBUILD_BUILD_HOST=perflab", "bzImage", NULL };
	int use_ccache = !access("/usr/bin/ccache", X_OK);

	snprintf(objarg, sizeof(objarg), "O=%s", p->obj);
	snprintf(jobs, sizeof(jobs), "-j%d", r->jobs > 0 ? r->jobs : 2);
	snprintf(cc, sizeof(cc), "CC=%s", use_ccache ? "ccache gcc" : "gcc");
	return run_logged(r, argv, p->src, env, p->log, as_user);
}

/* GNU build id from `readelf -n vmlinux`. */
static void read_build_id(const struct kbuild_req *r, const struct kb_paths *p,
			  char *out, size_t len)
{
	char vmlinux[4300], log[4300];
	char *argv[] = { "readelf", "-n", vmlinux, NULL };
	char *text, *s;

	out[0] = 0;
	snprintf(vmlinux, sizeof(vmlinux), "%s/vmlinux", p->obj);
	snprintf(log, sizeof(log), "%s/readelf.out", p->tree);
	unlink(log);
	if (run_logged(r, argv, NULL, NULL, log, 0))
		return;
	text = rutil_read_file(log, NULL);
	s = text ? strstr(text, "Build ID: ") : NULL;
	if (s)
		sscanf(s + 10, "%127[0-9a-f]", out);
	(void)len;
	free(text);
}

/*
 * img_tmp -> img. An entry from before System.map was cached is replaced
 * in one step (RENAME_EXCHANGE), so a concurrent reader sees either the
 * old complete entry or the new one.
 */
static int install_dir(const struct kb_paths *p)
{
	if (!rename(p->img_tmp, p->img))
		return 0;
	if (errno != ENOTEMPTY && errno != EEXIST)
		return -1;
	if (renameat2(AT_FDCWD, p->img_tmp, AT_FDCWD, p->img, RENAME_EXCHANGE))
		return -1;
	rutil_rm_rf(p->img_tmp);
	return 0;
}

/*
 * A cached image without System.map: if the object dir still holds that
 * very build (same GNU build id), its System.map is the image's.
 */
static int add_sysmap(const struct kbuild_req *r, const struct kb_paths *p,
		      struct kbuild_result *res)
{
	char id[128], src[4300], dst[4300];

	read_build_id(r, p, id, sizeof(id));
	if (!id[0] || strcmp(id, res->build_id))
		return -1;
	snprintf(src, sizeof(src), "%s/System.map", p->obj);
	snprintf(dst, sizeof(dst), "%s/System.map.tmp", p->img);
	if (rutil_copy_file(src, dst, 0644))
		return -1;
	snprintf(src, sizeof(src), "%s/System.map", p->img);
	if (rename(dst, src))
		return -1;
	return load_cached(p, res);
}

static int install_image(const struct kbuild_req *r, const struct kb_paths *p,
			 double secs, struct kbuild_result *res)
{
	char src[4300], dst[4300], release[128] = "", id[128];
	char *rel, *meta;
	int ret;

	rutil_rm_rf(p->img_tmp);
	if (rutil_mkdirs(p->img_tmp, 0755))
		return -1;
	snprintf(src, sizeof(src), "%s/arch/x86/boot/bzImage", p->obj);
	snprintf(dst, sizeof(dst), "%s/bzImage", p->img_tmp);
	if (rutil_copy_file(src, dst, 0644))
		return -1;
	snprintf(dst, sizeof(dst), "%s/build.log", p->img_tmp);
	if (rutil_copy_file(p->log, dst, 0644))
		return -1;
	snprintf(src, sizeof(src), "%s/System.map", p->obj);
	snprintf(dst, sizeof(dst), "%s/System.map", p->img_tmp);
	if (rutil_copy_file(src, dst, 0644))
		return -1;
	snprintf(src, sizeof(src), "%s/include/config/kernel.release", p->obj);
	rel = rutil_read_file(src, NULL);
	if (rel)
		sscanf(rel, "%127s", release);
	free(rel);
	read_build_id(r, p, id, sizeof(id));
	meta = rutil_strdupf("release=%s\nbuild_id=%s\nseconds=%.1f\n",
			     release, id, secs);
	snprintf(dst, sizeof(dst), "%s/meta", p->img_tmp);
	ret = meta ? rutil_write_file(dst, meta, strlen(meta)) : -1;
	free(meta);
	if (ret || install_dir(p))
		return -1;
	ret = load_cached(p, res);
	res->seconds = secs;
	return ret;
}

static int build_locked(const struct kbuild_req *r, const struct kb_paths *p,
			struct kbuild_result *res)
{
	char ccdir[4300], ccbase[4300];
	char *env[] = { ccdir, ccbase, "KBUILD_BUILD_TIMESTAMP=perflab", NULL };
	int as_user = r->uid != (uid_t)-1 && geteuid() == 0;
	struct kpatch_ctx kc = {
		.pristine = r->tree, .worktree = p->src, .dirty = p->dirty,
		.scratch = p->patches, .cancel = r->cancel,
		.uid = as_user ? r->uid : (uid_t)-1,
		.gid = as_user ? r->gid : (gid_t)-1,
	};
	double start = rutil_now();
	int ret;

	/* ccache must be writable by whoever compiles. */
	if (as_user) {
		snprintf(ccdir, sizeof(ccdir), "%s/ccache-%d", r->kcache,
			 (int)r->uid);
		if (rutil_mkdirs(ccdir, 0755) || chown(ccdir, r->uid, r->gid)) {
			res->status = KBUILD_INTERNAL;
			res->msg = rutil_strdupf("ccache dir %s: %s", ccdir,
						 strerror(errno));
			return -1;
		}
		memmove(ccdir + 11, ccdir, strlen(ccdir) + 1);
		memcpy(ccdir, "CCACHE_DIR=", 11);
	} else {
		snprintf(ccdir, sizeof(ccdir), "CCACHE_DIR=%s/ccache",
			 r->kcache);
	}
	snprintf(ccbase, sizeof(ccbase), "CCACHE_BASEDIR=%s", p->tree);
	unlink(p->log);
	if (make_worktree(r, p)) {
		res->status = KBUILD_INTERNAL;
		res->msg = rutil_read_tail(p->log, 16384);
		return -1;
	}
	ret = kpatch_apply(&kc, r->patches, r->npatches, &res->msg);
	if (ret) {
		res->status = ret > 0 ? KBUILD_PATCH_FAILED : KBUILD_INTERNAL;
		return -1;
	}
	if (configure(r, p, env, as_user, &res->msg)) {
		res->status = KBUILD_BUILD_FAILED;
		return -1;
	}
	if (compile(r, p, env, as_user)) {
		res->status = r->cancel && *r->cancel ? KBUILD_INTERNAL :
			      KBUILD_BUILD_FAILED;
		res->msg = rutil_read_tail(p->log, 16384);
		return -1;
	}
	if (install_image(r, p, rutil_now() - start, res)) {
		res->status = KBUILD_INTERNAL;
		res->msg = rutil_strdupf("installing image into %s: %s",
					 p->img, strerror(errno));
		return -1;
	}
	return 0;
}

int kbuild_image(const struct kbuild_req *r, struct kbuild_result *res)
{
	char cfg_hash[65], ps_hash[65], dir[4300];
	struct kb_paths p;
	int fd, ret;

	memset(res, 0, sizeof(*res));
	if (kbuild_config_hash(r->config_path, r->base_config, cfg_hash)) {
		res->status = KBUILD_INTERNAL;
		res->msg = rutil_strdupf("config fragment %s: %s",
					 r->config_path, strerror(errno));
		return -1;
	}
	kbuild_patchset_hash(r->patches, r->npatches, ps_hash);
	kbuild_key(r->base_name, ps_hash, cfg_hash, res->key);
	set_paths(r, cfg_hash, res->key, &p);
	if (!load_cached(&p, res) && (!r->want_sysmap || res->sysmap[0])) {
		res->cached = 1;
		return 0;
	}
	snprintf(dir, sizeof(dir), "%s/images", r->kcache);
	if (rutil_mkdirs(p.tree, 0755) || rutil_mkdirs(dir, 0755)) {
		res->status = KBUILD_INTERNAL;
		res->msg = rutil_strdupf("mkdir %s: %s", p.tree,
					 strerror(errno));
		return -1;
	}
	if (r->uid != (uid_t)-1 && geteuid() == 0 &&
	    (chown(p.tree, r->uid, r->gid) || chown(dir, r->uid, r->gid))) {
		res->status = KBUILD_INTERNAL;
		res->msg = rutil_strdupf("chown %s: %s", p.tree,
					 strerror(errno));
		return -1;
	}
	fd = lock_tree(r, &p);
	if (fd < 0) {
		res->status = KBUILD_INTERNAL;
		res->msg = rutil_strdupf("lock %s: %s", p.lock,
					 strerror(errno));
		return -1;
	}
	/* Someone may have built it while we waited for the lock. */
	if (!load_cached(&p, res) && (!r->want_sysmap || res->sysmap[0] ||
				      !add_sysmap(r, &p, res))) {
		res->cached = 1;
		ret = 0;
	} else {
		ret = build_locked(r, &p, res);
		if (ret && res->status != KBUILD_PATCH_FAILED)
			snprintf(res->log, sizeof(res->log), "%s", p.log);
	}
	close(fd);
	return ret;
}

void kbuild_result_free(struct kbuild_result *res)
{
	free(res->msg);
	res->msg = NULL;
}
