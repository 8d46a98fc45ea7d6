/* SPDX-License-Identifier: MIT */
/*
 * job: a claimed job (docs/contracts.md section 2) parsed and checked.
 */
#ifndef PERFLAB_JOB_H
#define PERFLAB_JOB_H

#include <jansson.h>
#include <stddef.h>

#include "runners/runner/kpatch.h"

/*
 * One run of a toggle boot (contracts: the claim's "toggle.runs"): its own
 * job and lease, and the runtime settings of its variant.
 */
struct toggle_run {
	long long job_id;
	const char *lease;
	int run_index;
	const char *variant;
	const json_t *settings;	/* object path -> value string */
};

struct job {
	json_t *raw;		/* owns every string below */
	long long id;
	const char *lease;
	int lease_seconds;
	int attempt;
	long long experiment_id;
	int run_index;
	const char *backend;
	const char *base_name;
	int base_git;		/* base.kind "git" (else a tarball base) */
	const char *base_url;	/* git: checked url */
	const char *base_commit; /* git: 40 hex */
	const char *config;	/* fragment name, e.g. "qemu" */
	const char *variant;	/* variant name */
	const char *cmdline;	/* extra kernel command line, "" if none */
	const char *setup;	/* local backend: shell commands, "" if none */
	struct kpatch *patches;
	int npatches;
	const json_t *bench;	/* bench parameters object */
	const char *target;	/* bench.target, "" if none */
	/* Build once (contracts.md section 6): the submitter's trust domain
	 * (NULL: an older daemon), and the claim's image, if any. */
	const char *trust_domain;
	const char *image_key;	/* 64 hex, or NULL */
	const char *image_state; /* "ready" (download) or "build" */
	const json_t *image;	/* the claim's image object */
	long long build_id;	/* a build task (kind "build"): its id, else 0 */
	/* Toggle experiment: the runs of this boot, in order; else NULL. */
	struct toggle_run *runs;
	int nruns;
};

/* 0 ok; -1 with err naming the bad field. */
int job_parse(const char *text, struct job *j, char *err, size_t errlen);
/* Same from an already parsed object (takes a reference). */
int job_from_json(json_t *obj, struct job *j, char *err, size_t errlen);
void job_free(struct job *j);

#endif
