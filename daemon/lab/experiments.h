/* SPDX-License-Identifier: MIT */
/*
 * Experiments as people ask for them (POST /api/v1/experiments and
 * /api/v1/patches): a request whose shape the caller has checked becomes
 * stored patches and a planned experiment here, after the lab's rules
 * (bases and commits, trust and quota, toggle settings); cancelling;
 * the build, boot and failure logs. How an experiment is shown is
 * experiment_json.h.
 */
#ifndef PERFLAB_LAB_EXPERIMENTS_H
#define PERFLAB_LAB_EXPERIMENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "common/default_base.h"
#include "daemon/store/conn.h"
#include "daemon/analysis/patch_parse.h"
#include "daemon/lab/jobs.h"
#include "daemon/lab/status.h"
#include "daemon/lab/trust.h"

#define EXP_MAX_VARIANTS 16
#define EXP_MAX_VARIANT_PATCHES 100
#define EXP_MAX_SERIES 100	/* patches of one POST /patches */
#define EXP_DEFAULT_BASE PERFLAB_DEFAULT_BASE

/* One variant as the request names it (types and lengths checked). */
struct variant_req {
	const char *name;
	bool control;			/* "control": true */
	const char *cmdline, *setup;
	const char *setup_script;	/* a stored script, by name */
	const char *commit;		/* another commit of the git base */
	const json_t *settings;		/* toggle: {path: value}, or NULL */
	const json_t *patches;		/* stored ids and/or patch text */
};

struct experiment_req {
	const char *title;
	const char *base;		/* "NAME" or "NAME@COMMIT"; NULL: default */
	const char *label, *backend, *config;
	const char *control;		/* the control's name; NULL: the
					 * variant marked control, or the first */
	const char *bench_json;		/* canonical bench parameters */
	int runs, max_runs;		/* max_runs 0: twice runs */
	bool toggle;
	int runs_per_boot;		/* toggle; 0: every round in one boot */
	const struct variant_req *variants;
	int nvariants;
};

/*
 * Queue the explicit experiment @r from @who: resolve the base and the
 * variants' commits (git), then on the writer, in one transaction, check
 * each variant (trust_variant, toggle settings), store its patches, check
 * backend and quota (trust_request) and plan the jobs. The experiment id,
 * or -1 with @e: LAB_INVALID, LAB_FORBIDDEN, LAB_REJECTED, LAB_QUOTA,
 * LAB_UPSTREAM, naming the variant where one is at fault.
 */
int64_t experiments_submit(store_conn *db, const struct trust_who *who,
			   const struct experiment_req *r, struct lab_err *e);

/* A patch (series) against the base, POST /api/v1/patches. */
struct patch_req {
	const char *text;	/* mbox or plain diff */
	size_t len;
	const char *title;	/* NULL: the first subject (+N more) */
	const char *base, *label, *backend, *config;
	int runs, max_runs;
	/* A series of 2..EXP_MAX_PREFIXES patches: one variant per prefix
	 * ("p1", "p1-2", ...; each patch on top of the ones before) instead
	 * of one "patched" (list watches, lab/watch_submit.h). */
	bool prefixes;
};

#define EXP_MAX_PREFIXES 4

/*
 * Queue "base" vs "patched" (the series applied in order) from @who:
 * resolve the base, parse the series, then store it and plan on the
 * writer. The experiment id, with the stored patch ids in @ids (at most
 * EXP_MAX_SERIES) and their count in *@n, or -1 with @e.
 */
int64_t experiments_submit_patch(store_conn *db, const struct trust_who *who,
				 const struct patch_req *r, int64_t *ids,
				 int *n, struct lab_err *e);

/*
 * Cancel experiment @id for @who (its submitter or an admin). 0, or -1:
 * LAB_NOT_FOUND, LAB_FORBIDDEN, LAB_CONFLICT (already finished).
 */
int experiments_cancel(store_conn *db, const struct jobs_ctx *c,
		       const struct trust_who *who, int64_t id, time_t now,
		       struct lab_err *e);

/*
 * Pin or unpin experiment @id: retention (retention.h) never compacts a
 * pinned one. 0, or -1: LAB_NOT_FOUND.
 */
int experiments_set_pinned(store_conn *db, int64_t id, bool pinned,
			   struct lab_err *e);

/* Run @id's "build" or "boot" log (malloc'd, *@len bytes), or NULL:
 * LAB_NOT_FOUND (no such run or kind). */
char *experiments_run_log(store_conn *db, int64_t id, const char *kind,
			  size_t *len, struct lab_err *e);
/* Job @id's latest failure log, whole; NULL: LAB_NOT_FOUND. */
char *experiments_job_log(store_conn *db, int64_t id, size_t *len,
			  struct lab_err *e);

#endif
