// SPDX-License-Identifier: MIT
/*
 * kbuild: variant kernel images, incremental builds, image cache.
 */
#include "common/kimage.h"
#include "runners/runner/kbuild.h"
#include "runners/runner/ktree.h"
#include "runners/runner/rutil.h"
#include "runners/runner/sandbox.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * Everything but src/, obj/ and obj-base/ belongs to root and is never visible in
 * the sandbox; in/ holds the config inputs the sandbox reads.
 */
struct kb_paths {
	char tree[3000];	/* trees/<base>-<cfg12>-s, root 0755 */
	char src[3100];		/* ktree farm */
	char obj[3100];		/* O=, the build user's: obj/ or obj-base/ */
	char in[3100];		/* root 0755: base.config, fragment.config */
	char state[3100];	/* root 0700 */
	char lock[3200];
	char copies[3200];	/* ktree's record of its copies */
	char patches[3200];	/* patch files and patch(1) logs */
	char log[3200];		/* build log, written from the pipes */
	char ccache[3100];	/* this domain's */
	char shared[3100];	/* ccache-UID-shared: file: remote storage */
	char ccconf_dir[3100];	/* cc/<domain>, root's */
	char ccconf[3200];
	char img[3000];		/* images/<key> */
	char img_tmp[3100];
};

#define IMAGE_MAX (256u << 20)
#define SYSMAP_MAX (64u << 20)
#define SMALL_MAX (16u << 20)

int kbuild_config_hash(const char *config_path, const char *base_config,
		       char out[65])
{
	size_t len;
	char *buf = rutil_read_file(config_path, &len), *base = NULL;
	char bh[65];

	if (!buf)
		return -1;
	if (base_config) {
		size_t blen;

		base = rutil_read_file(base_config, &blen);
		if (!base) {
			free(buf);
			return -1;
		}
		rutil_sha256_hex(base, blen, bh);
		free(base);
	}
	kimage_config_hash(base_config ? bh : NULL, buf, len, out);
	free(buf);
	return 0;
}

void kbuild_patchset_hash(const struct kpatch *p, int n, char out[65])
{
	char (*h)[65] = calloc(n + 1, 65);
	const char **hp = calloc(n + 1, sizeof(*hp));

	if (!h || !hp) {
		memset(out, '0', 64);
		out[64] = 0;
		free(h);
		free(hp);
		return;
	}
	for (int i = 0; i < n; i++) {
		rutil_sha256_hex(p[i].raw, p[i].len, h[i]);
		hp[i] = h[i];
	}
	kimage_patchset_hash(hp, n, out);
	free(h);
	free(hp);
}

void kbuild_key(const char *base_name, const char *commit,
		const char *patchset_hash, const char *config_hash,
		const char *domain, char out[65])
{
	if (kimage_key(base_name, commit, patchset_hash, config_hash, domain,
		       out))
		memset(out, '0', 64), out[64] = 0;
}

const char *kbuild_domain(const struct kbuild_req *r)
{
	if (!r->npatches)
		return KIMAGE_DOMAIN_BASE;
	return r->domain ? r->domain : "local";
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
	/* "-s": not the build-user-owned layout of older runners. */
	snprintf(p->tree, sizeof(p->tree), "%s/trees/%s-%.12s-s", r->kcache,
		 base, cfg_hash);
	snprintf(p->src, sizeof(p->src), "%s/src", p->tree);
	/*
	 * Patched builds run submitted code that can leave altered objects
	 * in the object dir and ccache entries for the next build: each
	 * trust domain (submitter) has its own, and base builds (controls)
	 * theirs, which only the base's own Makefiles ever write.
	 */
	snprintf(p->obj, sizeof(p->obj), "%s/obj-%s", p->tree, kbuild_domain(r));
	snprintf(p->in, sizeof(p->in), "%s/in", p->tree);
	snprintf(p->state, sizeof(p->state), "%s/state", p->tree);
	snprintf(p->lock, sizeof(p->lock), "%s/lock", p->state);
	snprintf(p->copies, sizeof(p->copies), "%s/copies", p->state);
	snprintf(p->patches, sizeof(p->patches), "%s/patches", p->state);
	snprintf(p->log, sizeof(p->log), "%s/build.log", p->state);
	snprintf(p->ccache, sizeof(p->ccache), "%s/ccache-%d-%s", r->kcache,
		 (int)r->uid, kbuild_domain(r));
	snprintf(p->shared, sizeof(p->shared), "%s/ccache-%d-shared", r->kcache,
		 (int)r->uid);
	snprintf(p->ccconf_dir, sizeof(p->ccconf_dir), "%s/cc/%s", r->kcache,
		 kbuild_domain(r));
	snprintf(p->ccconf, sizeof(p->ccconf), "%s/ccache.conf", p->ccconf_dir);
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
	meta_get(text, "commit", res->commit, sizeof(res->commit));
	meta_get(text, "seconds", secs, sizeof(secs));
	res->seconds = atof(secs);
	free(text);
	return 0;
}

/*
 * Run cmd in the sandbox: src read-only, obj and the domain's ccache
 * writable; the shared ccache writable for base builds only, read-only
 * for the others; the domain's ccache.conf and Redis's socket.
 */
static int run_boxed(const struct kbuild_req *r, const struct kb_paths *p,
		     char **cmd, char **env, const char *log)
{
	struct sandbox sb = { .ro = { p->src, p->in }, .rw = { p->obj },
			      .cwd = p->src, .uid = r->uid, .gid = r->gid };
	struct rutil_cmd cmd_;
	char how[64], line[512];
	int rc, st, nro = 2, nrw = 1;

	if (!access("/usr/bin/ccache", X_OK)) {
		sb.rw[nrw++] = p->ccache;
		if (r->npatches)
			sb.ro[nro++] = p->shared;
		else
			sb.rw[nrw++] = p->shared;
		sb.ro[nro++] = p->ccconf_dir;
		if (r->cc && r->cc->redis_socket)
			sb.rw[nrw++] = r->cc->redis_socket;
	}
	for (int i = 0; env && env[i] && i < SANDBOX_MAX_ENV; i++)
		sb.env[i] = env[i];
	rutil_cmd_init(&cmd_, cmd);
	cmd_.log = log;
	cmd_.cancel = r->cancel;
	cmd_.timeout_s = r->timeout_s > 0 ? r->timeout_s : 3600;
	cmd_.cpu_s = r->cpu_s;
	rc = sandbox_run(&sb, cmd, &cmd_, &st);
	if (rc == RUTIL_EXITED && st == 0)
		return 0;
	rutil_outcome(rc, st, how, sizeof(how));
	snprintf(line, sizeof(line), "perflab: %s: %s\n", cmd[0], how);
	rutil_append_file(log, line);
	return rc == RUTIL_CANCELLED ? -2 : -1;
}

/*
 * The domain's ccache configuration, written by root where only this
 * domain's builds see it (CCACHE_CONFIGPATH): ccache never reads a
 * ccache.conf from a cache directory a build can write. Base builds
 * write the shared caches; patched builds read them only, and Redis
 * gives their user reads only (ACL), whatever a build does with it.
 */
static int write_ccache_conf(const struct kbuild_req *r, const struct kb_paths *p)
{
	const struct kbuild_ccache *cc = r->cc;
	const char *ro = r->npatches ? "|read-only" : "";
	char *redis = NULL, *text;
	int ret;

	if (cc && cc->redis_socket) {
		const char *u = r->npatches ? cc->ro_user : cc->rw_user;
		const char *pw = r->npatches ? cc->ro_pass : cc->rw_pass;
		int t = cc->timeout_ms > 0 ? cc->timeout_ms : 500;

		redis = rutil_strdupf(" redis+unix://%s%s%s%s%s%s%s|connect-timeout=%d"
				      "|operation-timeout=%d%s",
				      u ? u : "", u && pw ? ":" : "",
				      pw ? pw : "", u || pw ? "@localhost" : "",
				      "", cc->redis_socket, "", t, t, ro);
	}
	text = rutil_strdupf("# perflab-runner: %s builds\n"
			     "remote_storage = file:%s%s%s\n"
			     "reshare = %s\n", kbuild_domain(r), p->shared, ro,
			     redis ? redis : "", r->npatches ? "false" : "true");
	ret = text ? rutil_write_file(p->ccconf, text, strlen(text)) : -1;
	if (!ret)
		ret = chmod(p->ccconf, 0644);
	free(redis);
	free(text);
	return ret;
}

static int lock_tree(const struct kbuild_req *r, const struct kb_paths *p)
{
	int fd = open(p->lock, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);

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

/* A root-owned directory with @mode, or the build user's (own). */
static int own_dir(const char *path, mode_t mode, int own,
		   const struct kbuild_req *r)
{
	return rutil_own_dir(path, mode, own ? r->uid : 0, own ? r->gid : 0);
}

/*
 * A trust domain's first build of this tree starts from a copy of the base
 * builds' object dir (only the base's own Makefiles ever wrote it), so it
 * is incremental from the start; the copy is made by the build user and
 * renamed into place. Without one the domain simply starts empty.
 */
static void seed_obj(const struct kbuild_req *r, const struct kb_paths *p)
{
	char base[3200], cfg[3300], tmp[3200], src[3300];
	char *argv[] = { "cp", "-a", "--reflink=auto", src, tmp, NULL };
	struct rutil_cmd c;
	int st;

	snprintf(base, sizeof(base), "%s/obj-base", p->tree);
	snprintf(cfg, sizeof(cfg), "%s/.config", base);
	snprintf(tmp, sizeof(tmp), "%s.seed", p->obj);
	if (!r->npatches || !access(p->obj, F_OK) || access(cfg, F_OK))
		return;
	rutil_rm_rf(tmp);
	/* The tree dir is root's: root makes the copy's dir, the user fills it. */
	snprintf(src, sizeof(src), "%s/.", base);
	if (own_dir(tmp, 0755, 1, r))
		return;
	rutil_cmd_init(&c, argv);
	c.uid = r->uid;
	c.gid = r->gid;
	c.cancel = r->cancel;
	c.timeout_s = 600;
	if (rutil_run(&c, &st) == RUTIL_EXITED && st == 0 && !rename(tmp, p->obj))
		return;
	rutil_rm_rf(tmp);
}

static int make_dirs(const struct kbuild_req *r, const struct kb_paths *p,
		     char **msg)
{
	char images[4300], trees[4300];
	struct ktree t = { .pristine = r->tree, .src = p->src,
			   .copies = p->copies, .uid = r->uid, .gid = r->gid };
	const char *bad = NULL;

	snprintf(images, sizeof(images), "%s/images", r->kcache);
	snprintf(trees, sizeof(trees), "%s/trees", r->kcache);
	if (rutil_mkdirs(r->kcache, 0755) || own_dir(images, 0755, 0, r) ||
	    own_dir(trees, 0755, 0, r))
		bad = images;
	else if (own_dir(p->tree, 0755, 0, r) || own_dir(p->in, 0755, 0, r))
		bad = p->tree;
	else if (own_dir(p->state, 0700, 0, r))
		bad = p->state;
	else if (!access("/usr/bin/ccache", X_OK) &&
		 own_dir(p->ccache, 0755, 1, r))
		bad = p->ccache;
	else if (!access("/usr/bin/ccache", X_OK) &&
		 own_dir(p->shared, 0755, 1, r))
		bad = p->shared;
	else if (!access("/usr/bin/ccache", X_OK) &&
		 (rutil_mkdirs(p->ccconf_dir, 0755) ||
		  own_dir(p->ccconf_dir, 0755, 0, r) || write_ccache_conf(r, p)))
		bad = p->ccconf_dir;
	if (bad) {
		*msg = rutil_strdupf("directory %s: %s", bad, strerror(errno));
		return -1;
	}
	if (!access(p->src, F_OK))
		return 0;
	return ktree_farm(&t, msg);
}

/* The config inputs, root-owned and readable in the sandbox. */
static int write_inputs(const struct kbuild_req *r, const struct kb_paths *p)
{
	char path[4300];
	char *frag = rutil_read_file(r->config_path, NULL);
	int ret = -1;

	snprintf(path, sizeof(path), "%s/fragment.config", p->in);
	if (!frag || rutil_write_file(path, frag, strlen(frag)))
		goto out;
	snprintf(path, sizeof(path), "%s/base.config", p->in);
	unlink(path);
	if (r->base_config && rutil_copy_file(r->base_config, path, 0644))
		goto out;
	ret = 0;
out:
	free(frag);
	return ret;
}

static const char configure_sh[] =
	"set -e\n"
	"if [ ! -f \"$O/.config\" ]; then\n"
	"  if [ -f \"$IN/base.config\" ]; then cp \"$IN/base.config\" \"$O/.config\"\n"
	"  else make -s O=\"$O\" tinyconfig; fi\n"
	"  cat \"$IN/fragment.config\" >> \"$O/.config\"\n"
	"fi\n"
	"make -s O=\"$O\" olddefconfig || { rm -f \"$O/.config\"; exit 1; }\n";

static int configure(const struct kbuild_req *r, const struct kb_paths *p,
		     char **msg)
{
	char o[4300], in[4300], dotcfg[4300];
	char *env[] = { o, in, NULL };
	char *cmd[] = { "sh", "-ec", (char *)configure_sh, NULL };
	int ret;

	snprintf(o, sizeof(o), "O=%s", p->obj);
	snprintf(in, sizeof(in), "IN=%s", p->in);
	snprintf(dotcfg, sizeof(dotcfg), "%s/config.out", p->state);
	if (write_inputs(r, p)) {
		*msg = rutil_strdupf("config inputs: %s", strerror(errno));
		return -1;
	}
	if (run_boxed(r, p, cmd, env, p->log)) {
		*msg = rutil_read_tail(p->log, 16384);
		return -1;
	}
	/* Root reads the build's .config only as a copy it made. */
	if (rutil_copy_out(p->obj, ".config", dotcfg, SMALL_MAX)) {
		*msg = rutil_strdupf("reading %s/.config: %s", p->obj,
				     strerror(errno));
		return -1;
	}
	snprintf(in, sizeof(in), "%s/fragment.config", p->in);
	ret = kbuild_verify_config(in, dotcfg, msg);
	return ret;
}

static int compile(const struct kbuild_req *r, const struct kb_paths *p)
{
	char objarg[4300], jobs[32], cc[64], ccdir[4300], ccbase[4300];
	char ccconf[4300];
	char *argv[] = { "make", objarg, jobs, cc, "KBUILD_BUILD_USER=perflab",
			 "KBUILD_BUILD_HOST=perflab", "bzImage", NULL };
	/* A fixed version (#1), so that one key is one image whichever object
	 * directory built it. */
	char *env[] = { ccdir, ccbase, ccconf, "KBUILD_BUILD_TIMESTAMP=perflab",
			"KBUILD_BUILD_VERSION=1", NULL };
	int use_ccache = !access("/usr/bin/ccache", X_OK);

	snprintf(objarg, sizeof(objarg), "O=%s", p->obj);
	snprintf(jobs, sizeof(jobs), "-j%d", r->jobs > 0 ? r->jobs : 2);
	snprintf(cc, sizeof(cc), "CC=%s", use_ccache ? "ccache gcc" : "gcc");
	snprintf(ccdir, sizeof(ccdir), "CCACHE_DIR=%s", p->ccache);
	snprintf(ccbase, sizeof(ccbase), "CCACHE_BASEDIR=%s", p->tree);
	snprintf(ccconf, sizeof(ccconf), "CCACHE_CONFIGPATH=%s", p->ccconf);
	return run_boxed(r, p, argv, env, p->log);
}

/* GNU build id from `readelf -n vmlinux`, run in the sandbox too. */
static void read_build_id(const struct kbuild_req *r, const struct kb_paths *p,
			  char *out, size_t len)
{
	char vmlinux[4300], log[4300];
	char *argv[] = { "readelf", "-n", vmlinux, NULL };
	char *text, *s;

	out[0] = 0;
	snprintf(vmlinux, sizeof(vmlinux), "%s/vmlinux", p->obj);
	snprintf(log, sizeof(log), "%s/readelf.out", p->state);
	unlink(log);
	if (run_boxed(r, p, argv, NULL, log))
		return;
	text = rutil_read_tail(log, 1 << 20);
	s = text ? strstr(text, "Build ID: ") : NULL;
	if (s)
		sscanf(s + 10, "%127[0-9a-f]", out);
	(void)len;
	free(text);
}

static int install_image(const struct kbuild_req *r, const struct kb_paths *p,
			 double secs, struct kbuild_result *res)
{
	char dst[4300], release[128] = "", id[128];
	char *rel, *meta;
	int ret;

	rutil_rm_rf(p->img_tmp);
	if (rutil_mkdirs(p->img_tmp, 0755))
		return -1;
	/* A regular file reached without links, or nothing. */
	snprintf(dst, sizeof(dst), "%s/bzImage", p->img_tmp);
	if (rutil_copy_out(p->obj, "arch/x86/boot/bzImage", dst, IMAGE_MAX))
		return -1;
	snprintf(dst, sizeof(dst), "%s/build.log", p->img_tmp);
	if (rutil_copy_file(p->log, dst, 0644))
		return -1;
	/* Symbols of the image, for exact instruction profiles. */
	snprintf(dst, sizeof(dst), "%s/System.map", p->img_tmp);
	if (rutil_copy_out(p->obj, "System.map", dst, SYSMAP_MAX))
		return -1;
	snprintf(dst, sizeof(dst), "%s/config", p->img_tmp);
	if (rutil_copy_out(p->obj, ".config", dst, SMALL_MAX))
		return -1;
	snprintf(dst, sizeof(dst), "%s/release", p->state);
	if (!rutil_copy_out(p->obj, "include/config/kernel.release", dst,
			    4096)) {
		rel = rutil_read_file(dst, NULL);
		if (rel)
			sscanf(rel, "%127[A-Za-z0-9._+-]", release);
		free(rel);
	}
	read_build_id(r, p, id, sizeof(id));
	meta = rutil_strdupf("release=%s\nbuild_id=%s\nseconds=%.1f\n"
			     "%s%s%s", release, id, secs,
			     r->commit ? "commit=" : "",
			     r->commit ? r->commit : "", r->commit ? "\n" : "");
	snprintf(dst, sizeof(dst), "%s/meta", p->img_tmp);
	ret = meta ? rutil_write_file(dst, meta, strlen(meta)) : -1;
	free(meta);
	if (ret || rename(p->img_tmp, p->img))
		return -1;
	ret = load_cached(p, res);
	res->seconds = secs;
	return ret;
}

static int build_steps(const struct kbuild_req *r, const struct kb_paths *p,
		       struct kbuild_result *res, double start)
{
	struct kpatch_ctx kc = {
		.pristine = r->tree, .worktree = p->src, .copies = p->copies,
		.scratch = p->patches, .cancel = r->cancel,
		.uid = r->uid, .gid = r->gid,
	};
	int ret;

	ret = kpatch_apply(&kc, r->patches, r->npatches, &res->msg);
	if (ret) {
		res->status = ret > 0 ? KBUILD_PATCH_FAILED : KBUILD_INTERNAL;
		return -1;
	}
	if (configure(r, p, &res->msg)) {
		res->status = KBUILD_BUILD_FAILED;
		return -1;
	}
	if (compile(r, p)) {
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

#define DOMAINS_KEPT 8

/*
 * Under the tree lock: at most DOMAINS_KEPT trust domains keep an object
 * dir in this tree (and a ccache in the cache root), the least recently
 * built go; a domain that comes back starts again from obj-base.
 */
static void prune_domains(const struct kbuild_req *r, const struct kb_paths *p)
{
	struct { char name[128]; time_t t; } d[64];
	char path[8400];
	struct dirent *e;
	struct stat st;
	int n = 0;
	DIR *dir = opendir(p->tree);

	utimensat(AT_FDCWD, p->obj, NULL, AT_SYMLINK_NOFOLLOW);
	while (dir && (e = readdir(dir)) && n < 64) {
		if (strncmp(e->d_name, "obj-", 4) || !strcmp(e->d_name, "obj-base") ||
		    strchr(e->d_name, '.') || strlen(e->d_name) >= sizeof(d[0].name))
			continue;
		snprintf(path, sizeof(path), "%.3000s/%.200s", p->tree, e->d_name);
		if (lstat(path, &st) || !S_ISDIR(st.st_mode))
			continue;
		snprintf(d[n].name, sizeof(d[n].name), "%s", e->d_name);
		d[n++].t = st.st_mtime;
	}
	if (dir)
		closedir(dir);
	while (n > DOMAINS_KEPT) {
		int old = 0;

		for (int i = 1; i < n; i++)
			if (d[i].t < d[old].t)
				old = i;
		snprintf(path, sizeof(path), "%.3000s/%.127s", p->tree, d[old].name);
		rutil_rm_rf(path);
		snprintf(path, sizeof(path), "%.3000s/ccache-%d-%.127s", r->kcache,
			 (int)r->uid, d[old].name + 4);
		rutil_rm_rf(path);
		d[old] = d[--n];
	}
}

static int build_locked(const struct kbuild_req *r, const struct kb_paths *p,
			struct kbuild_result *res)
{
	struct kpatch_ctx kc = {
		.pristine = r->tree, .worktree = p->src, .copies = p->copies,
		.scratch = p->patches, .uid = r->uid, .gid = r->gid,
	};
	struct sandbox sb = { .uid = r->uid, .gid = r->gid };
	double start = rutil_now();
	char *msg = NULL;
	int ret;

	unlink(p->log);
	/* Under the tree lock: obj-base is not being written while copied. */
	seed_obj(r, p);
	if (own_dir(p->obj, 0755, 1, r)) {
		res->status = KBUILD_INTERNAL;
		res->msg = rutil_strdupf("directory %s: %s", p->obj, strerror(errno));
		return -1;
	}
	prune_domains(r, p);
	if (sandbox_check(&sb, p->log, &res->msg)) {
		res->status = KBUILD_INTERNAL;
		return -1;
	}
	ret = build_steps(r, p, res, start);
	/* Leave the tree pristine for whoever comes next. */
	if (kpatch_reset(&kc, &msg) && !ret) {
		res->status = KBUILD_INTERNAL;
		res->msg = msg;
		return -1;
	}
	free(msg);
	return ret;
}

/* Key and paths of a request; 1 if its image is in the cache. */
static int key_paths(const struct kbuild_req *r, struct kb_paths *p,
		     char cfg_hash[65], struct kbuild_result *res)
{
	char ps_hash[65];

	memset(res, 0, sizeof(*res));
	if (kbuild_config_hash(r->config_path, r->base_config, cfg_hash)) {
		res->status = KBUILD_INTERNAL;
		res->msg = rutil_strdupf("config fragment %s: %s",
					 r->config_path, strerror(errno));
		return -1;
	}
	if (!kimage_domain_valid(kbuild_domain(r))) {
		res->status = KBUILD_INTERNAL;
		res->msg = rutil_strdupf("trust domain '%.64s' is not 1-64 of"
					 " [a-z0-9]", kbuild_domain(r));
		return -1;
	}
	kbuild_patchset_hash(r->patches, r->npatches, ps_hash);
	kbuild_key(r->base_name, r->commit, ps_hash, cfg_hash,
		   r->npatches ? kbuild_domain(r) : NULL, res->key);
	set_paths(r, cfg_hash, res->key, p);
	if (load_cached(p, res))
		return 0;
	res->cached = 1;
	return 1;
}

int kbuild_key_of(const struct kbuild_req *req, char key[65])
{
	struct kbuild_result res;
	char cfg_hash[65];
	struct kb_paths p;
	int ret = key_paths(req, &p, cfg_hash, &res);

	snprintf(key, 65, "%s", res.key);
	kbuild_result_free(&res);
	return ret < 0 && !key[0] ? -1 : 0;
}

int kbuild_lookup(const struct kbuild_req *req, struct kbuild_result *res)
{
	char cfg_hash[65];
	struct kb_paths p;

	return key_paths(req, &p, cfg_hash, res) == 1 ? 0 : -1;
}

int kbuild_image(const struct kbuild_req *req, struct kbuild_result *res)
{
	char cfg_hash[65];
	struct kbuild_req r = *req;
	struct kb_paths p;
	int fd, ret;

	ret = key_paths(&r, &p, cfg_hash, res);
	if (ret)
		return ret > 0 ? 0 : -1;
	/* Only a build needs the build user (a kexec host may have none). */
	if (sandbox_user(&r.uid, &r.gid, &res->msg)) {
		res->status = KBUILD_INTERNAL;
		return -1;
	}
	set_paths(&r, cfg_hash, res->key, &p);
	if (make_dirs(&r, &p, &res->msg)) {
		res->status = KBUILD_INTERNAL;
		return -1;
	}
	fd = lock_tree(&r, &p);
	if (fd < 0) {
		res->status = KBUILD_INTERNAL;
		res->msg = rutil_strdupf("lock %s: %s", p.lock,
					 strerror(errno));
		return -1;
	}
	/* Someone may have built it while we waited for the lock. */
	if (!load_cached(&p, res)) {
		res->cached = 1;
		ret = 0;
	} else {
		ret = build_locked(&r, &p, res);
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
