/* SPDX-License-Identifier: MIT */
/*
 * lava: a host label whose devices an existing LAVA instance drives.
 *
 * A LAVA lab (table lava_labs, admin API /api/v1/lava/labs) binds a label
 * to a LAVA server (URL, API token in a file, device type, the tags that
 * pin one device, a job template). perflabd gives it a host of its own
 * (hosts.name = the lab's name, labels [label], backend the lab's, role
 * "test" with the lab's config hashes or its label's builders'), so
 * planning stays what it is for runners: experiments of the label pin to
 * that host, its jobs are claimed one at a time in seq order (A B B A),
 * under a lease, with the attempt cap. The LAVA worker (lava_worker.h)
 * is that host's runner: it claims, renders the job's LAVA definition
 * from the template (lava_template.h), submits it (lava_client.h), keeps
 * the lease alive while LAVA queues and runs it, and turns the finished
 * LAVA job into a result (ingest.h) or a failure with a reason.
 *
 * Each submitted LAVA job (table lava_jobs) has a token of its own
 * (plj_<32 hex>, only its sha256 stored): LAVA sends it as X-Perflab-Token
 * to download the job's kernel and initramfs from perflabd and in the
 * notify callback. A token opens only its job's files, and only while the
 * job is live; a callback only says "look now" (the worker then reads the
 * job's health and log from LAVA with the lab's API token): the token is
 * visible to whoever may read the LAVA job, so what it carries is never
 * taken for a result.
 *
 * Failure reasons (docs/api.md "LAVA labs"): "infrastructure" (LAVA or
 * the lab failed: Incomplete with an Infrastructure/Configuration/Bug
 * error, Canceled in LAVA, submission refused), "boot" (the kernel never
 * got to the bench) and "bench" (the bench ran and failed, or its result
 * did not survive); all three are retried up to the attempt cap.
 */
#ifndef PERFLAB_LAVA_H
#define PERFLAB_LAVA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <jansson.h>
#include "daemon/store/conn.h"

#include "daemon/lab/images.h"
#include "daemon/lab/jobs.h"
#include "daemon/lab/ingest.h"
#include "daemon/lab/status.h"

#define LAVA_TOKEN_LEN 36	/* "plj_" + 32 hex */

/* Daemon-wide settings (perflabd flags). */
struct lava_cfg {
	const char *guest_dir;	/* perflab-runner lava-guest output */
	struct image_store *images;	/* the kernels (lava_image.h) */
	const char *url;	/* perflabd as LAVA reaches it (files, callbacks) */
};

struct lava_lab {
	int64_t id, host_id;
	char name[65], label[65], device_type[65], backend[33];
	char url[1025], token_file[4097];
	char *callback_url;	/* heap; NULL: lava_cfg's url (callbacks only) */
	json_t *tags;		/* array of strings */
	json_t *vars;		/* object: admin's template variables */
	json_t *tmpl;		/* parsed template */
	int poll_seconds;
	bool own_configs;	/* configs given; else the label's builders' */
};

void lava_lab_free(struct lava_lab *l);

/*
 * Add a lab from the admin's JSON ({"name", "label", "url", "token_file",
 * "device_type", "backend", "tags", "template" | "template_file", "vars",
 * "callback_url", "poll_seconds", "configs"}), creating its host: 0 with
 * *id; or -1: LAB_INVALID (a field), LAB_CONFLICT (the name is taken),
 * LAB_REJECTED (the token file, the template), LAB_UNAVAILABLE/INTERNAL.
 */
int lava_lab_add(store_conn *wdb, const json_t *body, int64_t *id,
		 struct lab_err *e);
/* Disable a lab (its host stays, for history): 0, or -1 LAB_NOT_FOUND. */
int lava_lab_disable(store_conn *wdb, const char *name, struct lab_err *e);
/* The enabled lab @label is bound to: 1 with its @name, 0 none, -1. */
int lava_label_lab(store_conn *db, const char *label, char name[65]);
/* {"labs": [...]}: never the token, only where it is read from. */
json_t *lava_labs_json(store_conn *db);
/* The enabled labs; count, or -1. Free each with lava_lab_free. */
int lava_labs_load(store_conn *db, struct lava_lab **labs);

/* The LAVA jobs of an experiment, for its page: [{job_id, attempt,
 * lava_id, url, state, lava_state, lava_health, outcome, message}]. */
json_t *lava_experiment_jobs(store_conn *db, int64_t experiment_id);
/* One LAVA job (definition included, its token redacted); NULL with @e
 * (LAB_NOT_FOUND). */
json_t *lava_job_json(store_conn *db, int64_t lava_job_id, struct lab_err *e);

/* ---- the callback and the files (per-job token) ---------------------- */

/*
 * A notify callback for lava job @row with @token: 0 with *kick set (the
 * worker will fetch it) or not (already finished: nothing to do); or -1:
 * LAB_FORBIDDEN (bad token), LAB_NOT_FOUND (no such job).
 */
int lava_callback(store_conn *wdb, int64_t row, const char *token, int *kick,
		  struct lab_err *e);

/* An open file for LAVA: the caller owns f.ref.fd. */
struct lava_file {
	struct image_fileref ref;
	bool from_store;	/* an image's file: count the download */
};

/*
 * Open file @name of lava job @row for @token: its image's "bzImage" or
 * "System.map" (from the image store, the manifest's sha256), or the
 * guest's "initramfs.cpio". 0; or -1 with LAB_FORBIDDEN (bad token),
 * LAB_NOT_FOUND (no such job or file, or the job is over), LAB_INTERNAL.
 */
int lava_file_open(store_conn *db, const struct lava_cfg *cfg, int64_t row,
		   const char *token, const char *name, struct lava_file *f,
		   struct lab_err *e);

/* ---- the worker's steps ------------------------------------------------ */

/* A claimed job on its way to LAVA. */
struct lava_submission {
	int64_t row;		/* lava_jobs.id */
	struct claim cl;
	char token[LAVA_TOKEN_LEN + 1];
	json_t *spec;		/* jobs_spec_json */
};

/*
 * Claim the next job of @lab's host (nothing when it holds one) whose
 * image is stored (builds_claim; a lab without configs of its own first
 * takes its label's builders'): 1 with @out filled and a lava_jobs row
 * 'submitting', 0 none, -1 error. On the writer connection.
 */
int lava_claim(store_conn *wdb, const struct jobs_ctx *c, const struct lava_lab *lab,
	       time_t now, struct lava_submission *out);
void lava_submission_free(struct lava_submission *s);

struct lava_open;
/* The submission of an open row (spec rebuilt, with the title). 0/-1. */
int lava_submission_load(store_conn *db, const struct jobs_ctx *c,
			 const struct lava_open *o, struct lava_submission *s);

/*
 * The job's LAVA definition (heap), or NULL with err and the perflab
 * failure *reason ("internal": nothing LAVA could run, e.g. no image for
 * the job's config). @img gets the stored image it boots.
 */
struct lava_image;
char *lava_render(const struct lava_cfg *cfg, const struct lava_lab *lab,
		  const struct lava_submission *s, struct lava_image *img,
		  const char **reason, char *err, size_t errlen);

/* A fresh per-job token; 0 or -1. */
int lava_new_token(char out[LAVA_TOKEN_LEN + 1]);
/* Before submitting: the token's hash, the image the job boots and the
 * definition (@token redacted), shown while LAVA cannot be reached. */
int lava_set_token(store_conn *wdb, int64_t row, const char *token,
		   const char *image_key, const char *definition);
/* What the job waits for (shown with the LAVA job). */
int lava_set_message(store_conn *wdb, int64_t row, const char *message);

/* Submitted as LAVA job @lava_id: the perflab job is 'running' (phase
 * boot). 0 or -1. */
int lava_mark_submitted(store_conn *wdb, const struct jobs_ctx *c,
			const struct lava_lab *lab, int64_t row, int64_t lava_id,
			time_t now);

/* What the worker knows of an open LAVA job. */
struct lava_open {
	int64_t row, job_id, lava_id, host_id, experiment_id;
	int attempt;
	char lease[33];
	char state[16];
	char image_key[65];
	time_t polled_at;
	bool toggle;		/* a toggle boot: its runs in one LAVA job */
};

/* The lab's open LAVA jobs (submitting/submitted/fetching); count or -1. */
int lava_open_jobs(store_conn *db, int64_t lab_id, struct lava_open **out);

/* Keep the perflab lease of @o alive: 0, 1 gone (cancelled, expired), -1. */
int lava_keepalive(store_conn *wdb, const struct jobs_ctx *c, const struct lava_open *o,
		   const char *phase, const char *message, time_t now);
void lava_mark_polled(store_conn *wdb, int64_t row, time_t now);

/* One run of a toggle boot, by the job its frame names. */
struct lava_run_outcome {
	int64_t job_id;
	json_t *body;		/* its result (without "lease"), or */
	const char *reason;	/* why it has none, with log */
	char *log;
};

/* A finished LAVA job made into perflab's terms (lava_outcome.c). */
struct lava_outcome {
	json_t *body;		/* the result (ingest.h's upload body), or */
	const char *reason;	/* the failure reason, with log */
	char *log;		/* heap */
	char message[1024];	/* one line for the LAVA job's row */
	char state[32], health[32];
	/* A toggle boot: the runs framed on the console; a job of the boot
	 * without one fails with reason/log above. */
	struct lava_run_outcome *runs;
	int nruns;
};

struct extsched_job;

/*
 * From LAVA's job @j and its @log (no database, no lock): the run, with
 * the exact profile when the plugin's dump and the image's System.map are
 * there, or the reason. 0, or -1 (out of memory).
 */
int lava_outcome_prepare(const struct lava_cfg *cfg, const struct lava_open *o,
			 const struct extsched_job *j, const char *log,
			 size_t log_len, struct lava_outcome *out);
void lava_outcome_free(struct lava_outcome *out);

/* Store it: the run, or the job's failure; the row is closed. 0 or -1. */
int lava_store_outcome(store_conn *wdb, const struct jobs_ctx *c,
		       const struct lava_open *o, struct lava_outcome *out,
		       time_t now);

/* Close @o without a result: fail the perflab job with @reason when
 * @fail_job, else just mark the row cancelled. 0 or -1. */
int lava_close(store_conn *wdb, const struct jobs_ctx *c, const struct lava_open *o,
	       const char *reason, const char *message, int fail_job, time_t now);

#endif
