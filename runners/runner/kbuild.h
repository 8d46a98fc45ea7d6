/* SPDX-License-Identifier: MIT */
/*
 * kbuild: variant kernel images, built incrementally and cached.
 *
 * Layout under the cache root (shared by runners and tests on a host);
 * only obj*, ccache-* and the worktree's directories are the build
 * user's (docs/security.md):
 *   ccache-<uid>[-base]/             compiler cache (patched / base builds)
 *   trees/<base>-<cfg12>-s/src       worktree (ktree farm of the base)
 *   trees/<base>-<cfg12>-s/obj       object dir (O=) of patched builds
 *   trees/<base>-<cfg12>-s/obj-base  object dir of base builds
 *   trees/<base>-<cfg12>-s/in        config inputs the sandbox reads
 *   trees/<base>-<cfg12>-s/state     root 0700: lock, copies, patches,
 *                                    build.log
 *   images/<key>/bzImage             finished image, key = sha256 of
 *   images/<key>/build.log           (base, git commit if any, patch-set
 *                                    sha256, config hash)
 *   images/<key>/meta                release=, build_id=, seconds=,
 *                                    commit= (git bases)
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
/* @commit NULL for tarball bases (their keys predate git bases). */
void kbuild_key(const char *base_name, const char *commit,
		const char *patchset_hash, const char *config_hash,
		char out[65]);
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
