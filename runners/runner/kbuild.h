/* SPDX-License-Identifier: MIT */
/*
 * kbuild: variant kernel images, built incrementally and cached.
 *
 * Layout under the cache root (shared by runners and tests on a host);
 * only obj*, ccache-* and the worktree's directories are the build
 * user's (docs/security.md):
 *   ccache-<uid>-<domain>/           compiler cache of a trust domain ("base":
 *                                    builds without patches)
 *   ccache-<uid>-shared/             ccache file: remote storage, written by
 *                                    base builds, read by every build
 *   cc/<domain>/ccache.conf          root's: the ccache configuration of a
 *                                    domain's builds (CCACHE_CONFIGPATH)
 *   trees/<base>-<cfg12>-s/src       worktree (ktree farm of the base)
 *   trees/<base>-<cfg12>-s/obj-<domain>  object dir (O=) of a trust
 *                                    domain's builds (obj-base: no patches)
 *   trees/<base>-<cfg12>-s/in        config inputs the sandbox reads
 *   trees/<base>-<cfg12>-s/state     root 0700: lock, copies, patches,
 *                                    build.log
 *   images/<key>/bzImage             finished image, key = sha256 of
 *   images/<key>/build.log           (base, git commit if any, patch-set
 *                                    sha256, config hash)
 *   images/<key>/meta                release=, build_id=, seconds=,
 *                                    commit= (git bases)
 *   images/<key>/config              the build's .config
 *   images/<key>/System.map          symbols of the image (exact profiles)
 */
#ifndef PERFLAB_KBUILD_H
#define PERFLAB_KBUILD_H

#include <signal.h>
#include <sys/types.h>

#include "runners/runner/kpatch.h"

enum kbuild_status {
	KBUILD_OK = 0,
	KBUILD_PATCH_FAILED,	/* reason patch_apply */
	KBUILD_BUILD_FAILED,	/* reason build (incl. config check) */
	KBUILD_INTERNAL,
};

/* The shared compiler caches (docs/contracts.md section 6). */
struct kbuild_ccache {
	const char *redis_socket;	/* Redis over a Unix socket; NULL: none */
	const char *rw_user, *rw_pass;	/* base builds: may write */
	const char *ro_user, *ro_pass;	/* patched builds: reads only */
	int timeout_ms;			/* connect and per operation */
};

struct kbuild_req {
	const char *kcache;	/* cache root */
	const char *tree;	/* pristine base tree, never written */
	const char *base_name;	/* e.g. "linux-6.1" */
	const char *commit;	/* git base: the commit @tree holds; NULL:
				 * tarball */
	const char *config_path; /* fragment applied on the base config */
	const char *base_config; /* full .config to start from (e.g. the
				  * host's /boot/config-*), NULL: tinyconfig */
	const struct kpatch *patches;
	int npatches;
	int jobs;		/* make -j */
	int timeout_s;
	const volatile sig_atomic_t *cancel;
	uid_t uid;		/* build user if root; -1: nobody */
	gid_t gid;
	/* Trust domain of a patched build (kimage_domain_valid); NULL:
	 * "local". Builds without patches are always "base". */
	const char *domain;
	const struct kbuild_ccache *cc;	/* NULL: no Redis */
	double *cpu_s;		/* when set: += the CPU seconds of the build */
};

struct kbuild_result {
	enum kbuild_status status;
	char key[65];
	char image[4096];
	char log[4096];		/* full build log */
	char sysmap[4096];	/* System.map of the image, "" if none */
	int cached;
	double seconds;
	char release[128];	/* uname -r of the image */
	char build_id[128];	/* GNU build id of vmlinux, hex */
	char commit[41];	/* git base: commit built, else "" */
	char *msg;		/* failure text with the tool's output */
};

/* Hash of the fragment and the base config (NULL: tinyconfig). */
int kbuild_config_hash(const char *config_path, const char *base_config,
		       char out[65]);
/* sha256 over the ordered sha256s of the patches' raw text. */
void kbuild_patchset_hash(const struct kpatch *p, int n, char out[65]);
/* @commit NULL for tarball bases (their keys predate git bases);
 * @domain NULL for builds without patches. */
void kbuild_key(const char *base_name, const char *commit,
		const char *patchset_hash, const char *config_hash,
		const char *domain, char out[65]);
/* The trust domain @req builds in ("base" without patches). */
const char *kbuild_domain(const struct kbuild_req *req);
/* The key of @req's image (nothing is read but the config files): 0, -1. */
int kbuild_key_of(const struct kbuild_req *req, char key[65]);
/*
 * Every line of the fragment must hold in the final .config: "CONFIG_X=v"
 * present verbatim, "# CONFIG_X is not set" not set. 0 ok; else -1 and
 * *msg lists each mismatch.
 */
int kbuild_verify_config(const char *fragment, const char *dotconfig,
			 char **msg);
int kbuild_image(const struct kbuild_req *req, struct kbuild_result *res);
/* The cached image only (req->tree is not read): 0 if there is one. */
int kbuild_lookup(const struct kbuild_req *req, struct kbuild_result *res);
void kbuild_result_free(struct kbuild_result *res);

#endif
