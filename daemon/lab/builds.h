/* SPDX-License-Identifier: MIT */
/*
 * Builds: which host builds which kernel image (docs/api.md "Kernel
 * images", contracts.md section 6). The daemon computes the key a host
 * would build for a job (common/kimage.h) from the configs the host
 * registered; a claim then hands out the job with its stored image, or
 * asks the host to build it, or keeps it queued while another host
 * builds it or no one who may build has; a host that may build and has
 * nothing to run gets a build task for a key an unfinished experiment
 * needs. Hosts without a role (older runners) see none of this.
 */
#ifndef PERFLAB_BUILDS_H
#define PERFLAB_BUILDS_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include <jansson.h>
#include "daemon/store/conn.h"

#include "daemon/lab/jobs.h"

/* --image-builders: may hosts of role "any" build (default) or only builders. */
void builds_set_any_may_build(bool yes);

/* Check registration's "role" and "configs": 0, or -1 with @err (400). */
int builds_check_caps(json_t *role, json_t *configs, char *err, size_t errlen);
/* Inside the registration's transaction: store role (NULL: none) and configs. */
int builds_set_host(store_conn *w, int64_t host, const char *role, json_t *configs);

/*
 * A test host that takes its configs from the builders carrying @label
 * (a LAVA lab's, lab/lava.h): @host's configs become theirs, the names
 * they all hash alike. The number of configs @host has now, or -1.
 */
int builds_configs_from_builders(store_conn *w, int64_t host, const char *label);

/* What a variant's image is built from. */
struct build_spec {
	int64_t experiment, variant;
	char base[128];
	char commit[48];	/* "" for tarball bases */
	char config[72];
	char patchset[65];
	char domain[72];	/* "base" without patches */
	int npatches;
};
int builds_spec_of_variant(store_conn *db, int64_t variant, struct build_spec *bs);
/* @bs's key as @host builds it: 1, 0 the host has no such config, -1. */
int builds_key_for_host(store_conn *db, const struct build_spec *bs, int64_t host,
			char key[65]);

/*
 * A claim: a job (1, @cl) as jobs_claim, or a build task (2, *@task the
 * JSON to answer), or nothing (0); -1 error. On the writer.
 */
int builds_claim(store_conn *w, const struct jobs_ctx *c, int64_t host, time_t now,
		 struct claim *cl, json_t **task);
/* Add "trust_domain" and, for hosts with a role, "image" to a job spec. */
int builds_claim_json(store_conn *db, int64_t host, const struct claim *cl,
		      json_t *spec);

/* Results of the build task calls. */
enum {
	BUILD_OK = 0,
	BUILD_ERROR = -500,
	BUILD_NOT_FOUND = -404,
	BUILD_STALE = -409,	/* not the task's current lease */
};

/* Build tasks: BUILD_OK, BUILD_STALE (409), BUILD_NOT_FOUND; on the writer. */
int builds_task_heartbeat(store_conn *w, const struct jobs_ctx *c, int64_t id,
			  int64_t host, const char *lease, time_t now,
			  time_t *expires);
/* @reason patch_apply|build: every variant waiting for the key fails;
 * internal: another host may try (--max-attempts). */
int builds_task_fail(store_conn *w, const struct jobs_ctx *c, int64_t id,
		     int64_t host, const char *lease, const char *reason,
		     const char *log, time_t now);
/* Expired build tasks: lost; after max_attempts the waiting variants fail. */
int builds_expire(store_conn *w, const struct jobs_ctx *c, time_t now);

/* An upload of @key by @host: 0 may, 409 with @err. Inside a transaction. */
int builds_check_upload(store_conn *w, const char *key, int64_t host, bool admin,
			time_t now, char *err, size_t errlen);
int builds_mark_uploaded(store_conn *w, const char *key, int64_t host, time_t now);

/* Keys unfinished experiments need, sorted (free *keys). 0 or -1. */
int builds_needed_keys(store_conn *db, char (**keys)[65], size_t *n);
/* 1 an unfinished experiment needs @key, 0 no, -1 error. */
int builds_key_needed(store_conn *db, const char *key);

#endif
