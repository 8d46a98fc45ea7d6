// SPDX-License-Identifier: MIT
/*
 * exec: what every backend shares: outcomes, the bench JSON check and the
 * kernel build step of the backends that boot a variant kernel.
 */
#include "runners/runner/exec.h"
#include "runners/runner/gitbase.h"
#include "runners/runner/imgstore.h"
#include "runners/runner/proto.h"
#include "runners/runner/rutil.h"

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

void exec_phase(const struct exec_ctx *c, const char *ph, const char *msg)
{
	if (c->phase)
		c->phase(c->arg, ph, msg);
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
	exec_phase(c, "build", "checking out the base commit");
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

/*
 * The claim's image (docs/api.md "Kernel images"): the key must be ours
 * (else this runner's config changed since it registered); a stored
 * image is fetched and checked, never built. 0 fetched (kr filled), 1
 * build it here, -1 failed (o).
 */
static int image_from_store(const struct exec_ctx *c, const struct job *j,
			    const struct kbuild_req *r, struct kbuild_result *kr,
			    struct outcome *o)
{
	struct imgstore_stats st;
	char mine[65], err[1024], msg[1200];

	/* A test host never builds: without a stored image it cannot run. */
	if (c->proto && c->proto->role && !strcmp(c->proto->role, "test") &&
	    (!j->image_key || strcmp(j->image_state, "ready"))) {
		outcome_fail(o, "internal", rutil_strdupf("this host (--role test)"
			     " never builds, and the claim names no stored image"
			     " (is config '%s' among its --configs?)", j->config));
		return -1;
	}
	if (!j->image_key)
		return 1;
	if (kbuild_key_of(r, mine) || strcmp(mine, j->image_key)) {
		outcome_fail(o, "internal", rutil_strdupf("image key mismatch:"
			     " the daemon has %s, this runner %s (its config"
			     " changed since it registered? restart it)",
			     j->image_key, mine));
		return -1;
	}
	if (strcmp(j->image_state, "ready") || !c->proto)
		return 1;
	snprintf(msg, sizeof(msg), "fetching image %.12s", j->image_key);
	exec_phase(c, "build", msg);
	if (imgstore_fetch(c->proto, c->cfg->kcache, j->image, &st, err,
			   sizeof(err)) || kbuild_lookup(r, kr)) {
		kbuild_result_free(kr);
		outcome_fail(o, "internal", rutil_strdupf("image %s from the"
			     " store: %s", j->image_key, err));
		return -1;
	}
	snprintf(msg, sizeof(msg), "image %.12s %s (%llu bytes, %d resumed,"
		 " %d fetched again, sha256 checked)", j->image_key,
		 st.present ? "was here" : "downloaded",
		 (unsigned long long)st.bytes, st.resumed, st.refetched);
	exec_phase(c, "build", msg);
	fprintf(stderr, "perflab-runner: %s\n", msg);
	return 0;
}

/* Built here as the daemon asked: the image goes to the store. */
static void image_to_store(const struct exec_ctx *c, const struct job *j,
			   const struct kbuild_result *kr, struct outcome *o)
{
	char err[1024];
	long status;

	if (!j->image_key || strcmp(j->image_state, "build") || !c->proto)
		return;
	exec_phase(c, "build", "uploading the image");
	o->image_stored = -1;
	if (imgstore_put(c->proto, c->cfg->kcache, kr->key, &status, err,
			 sizeof(err))) {
		fprintf(stderr, "perflab-runner: image %.12s not stored: %s\n",
			kr->key, err);
		return;
	}
	/* 201: this upload stored it; 200: another host's upload came first */
	fprintf(stderr, "perflab-runner: image %.12s stored%s\n", kr->key,
		status == 200 ? " (already in the store)" : "");
	o->image_stored = 1;
}

int exec_build(const struct exec_ctx *c, const struct job *j,
	       struct kbuild_result *kr, struct outcome *o)
{
	const struct runner_cfg *cfg = c->cfg;
	double cpu = 0;
	char config[4096], msg[4200];
	struct kbuild_req r = {
		.kcache = cfg->kcache, .tree = cfg->tree,
		.base_name = j->base_name, .config_path = config,
		.base_config = cfg->base_config,
		.commit = j->base_git ? j->base_commit : NULL,
		.patches = j->patches, .npatches = j->npatches,
		.jobs = cfg->jobs, .cancel = c->abort,
		.uid = cfg->build_uid, .gid = cfg->build_gid,
		.domain = j->trust_domain, .cc = cfg->cc, .cpu_s = &cpu,
	};
	static const char *const reason[] = {
		[KBUILD_OK] = NULL, [KBUILD_PATCH_FAILED] = "patch_apply",
		[KBUILD_BUILD_FAILED] = "build", [KBUILD_INTERNAL] = "internal",
	};
	double start = rutil_now();
	int ret;

	/* Every return path leaves @kr safe to kbuild_result_free(). */
	memset(kr, 0, sizeof(*kr));
	snprintf(config, sizeof(config), "%s/%s.config", cfg->configs,
		 j->config);
	exec_phase(c, "build", j->npatches ? "applying patches, building" :
	      "building base");
	if (access(config, R_OK)) {
		outcome_fail(o, "internal", rutil_strdupf(
			"config fragment %s: %s", config, strerror(errno)));
		return -1;
	}
	ret = image_from_store(c, j, &r, kr, o);
	if (ret < 0)
		return -1;
	if (ret && (j->base_git ? build_git(c, j, &r, kr) : kbuild_image(&r, kr))) {
		outcome_fail(o, reason[kr->status], kr->msg);
		kr->msg = NULL;
		return -1;
	}
	if (ret && !kr->cached)
		fprintf(stderr, "perflab-runner: built image %s in %.1f s (CPU"
			" %.1f s)\n", kr->key, kr->seconds, cpu);
	if (ret)
		image_to_store(c, j, kr, o);
	o->build_s = rutil_now() - start;
	snprintf(msg, sizeof(msg), "%s image %s", kr->cached ? "cached" :
		 "built", kr->image);
	exec_phase(c, "build", msg);
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
