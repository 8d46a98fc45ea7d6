// SPDX-License-Identifier: MIT
/*
 * lava: a perflab job's way through LAVA (lava.h): claim, render, the
 * per-job token, the callback, the files, and the finished job's run or
 * failure.
 */
#include "daemon/lab/lava.h"
#include "daemon/lab/builds.h"
#include "daemon/lab/lava_image.h"
#include "daemon/lab/lava_template.h"
#include "daemon/lab/lava_toggle.h"
#include "daemon/store/db.h"
#include "daemon/store/sql.h"
#include "daemon/store/json.h"
#include "common/benchargs.h"
#include "common/kcmdline.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void sha_hex(const char *s, char out[65])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned n = 0;

	EVP_Digest(s, strlen(s), md, &n, EVP_sha256(), NULL);
	for (unsigned i = 0; i < n && i < 32; i++)
		sprintf(out + 2 * i, "%02x", md[i]);
}

static int new_token(char out[LAVA_TOKEN_LEN + 1])
{
	unsigned char r[16];

	if (RAND_bytes(r, sizeof(r)) != 1)
		return -1;
	memcpy(out, "plj_", 4);
	for (int i = 0; i < 16; i++)
		sprintf(out + 4 + 2 * i, "%02x", r[i]);
	return 0;
}

/* @token against row @row's hash, in constant time: 0, or -1 with
 * LAB_NOT_FOUND, LAB_FORBIDDEN or the database's error. */
static int check_token(sqlite3 *db, int64_t row, const char *token,
		       char state[16], struct lab_err *e)
{
	sqlite3_stmt *st;
	char want[65] = "", got[65];
	int rc;

	if (row <= 0)
		return lab_fail(e, LAB_NOT_FOUND, "no such LAVA job");
	st = db_prepare(db, "SELECT token_hash, state FROM lava_jobs WHERE id = ?");
	if (!st)
		return lab_fail_db(e, db);
	sqlite3_bind_int64(st, 1, row);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		snprintf(want, sizeof(want), "%s", sqlite3_column_text(st, 0));
		snprintf(state, 16, "%s", sqlite3_column_text(st, 1));
	} else if (rc != SQLITE_DONE) {
		lab_fail_db(e, db);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return rc == SQLITE_DONE ? lab_fail(e, LAB_NOT_FOUND, "no such"
						    " LAVA job") : -1;
	if (!token || strlen(token) != LAVA_TOKEN_LEN || strlen(want) != 64)
		return lab_fail(e, LAB_FORBIDDEN, "bad token for this LAVA job");
	sha_hex(token, got);
	if (CRYPTO_memcmp(got, want, 64))
		return lab_fail(e, LAB_FORBIDDEN, "bad token for this LAVA job");
	return 0;
}

static int is_open(const char *state)
{
	return !strcmp(state, "submitting") || !strcmp(state, "submitted") ||
	       !strcmp(state, "fetching");
}

int lava_callback(sqlite3 *wdb, int64_t row, const char *token, int *kick,
		  struct lab_err *e)
{
	char state[16] = "";

	*kick = 0;
	if (check_token(wdb, row, token, state, e))
		return -1;
	if (!is_open(state))
		return 0;
	if (db_int(wdb, -1, "UPDATE lava_jobs SET callbacks = callbacks + 1,"
		   " state = CASE state WHEN 'submitted' THEN 'fetching' ELSE"
		   " state END WHERE id = ? RETURNING 0", 1, row))
		return lab_fail_db(e, wdb);
	*kick = 1;
	return 0;
}

/* The guest's initramfs, hashed now (it is no image of the store). */
static int open_initramfs(const struct lava_cfg *cfg, struct lava_file *f,
			  struct lab_err *e)
{
	char path[4200];
	long long size = 0;
	struct stat sb;

	snprintf(path, sizeof(path), "%s/initramfs.cpio",
		 cfg->guest_dir ? cfg->guest_dir : "");
	if (!cfg->guest_dir || lava_file_sha256(path, f->ref.sha256, &size))
		return lab_fail(e, LAB_NOT_FOUND, "no initramfs (perflabd"
				" --lava-guest DIR)");
	f->ref.fd = open(path, O_RDONLY | O_CLOEXEC);
	if (f->ref.fd < 0 || fstat(f->ref.fd, &sb) || sb.st_size != size) {
		if (f->ref.fd >= 0)
			close(f->ref.fd);
		f->ref.fd = -1;
		return lab_fail(e, LAB_NOT_FOUND, "the initramfs changed under us");
	}
	f->ref.size = (uint64_t)size;
	return 0;
}

int lava_file_open(sqlite3 *db, const struct lava_cfg *cfg, int64_t row,
		   const char *token, const char *name, struct lava_file *f,
		   struct lab_err *e)
{
	char state[16] = "", key[65] = "";
	sqlite3_stmt *st;
	int rc;

	memset(f, 0, sizeof(*f));
	f->ref.fd = -1;
	if (check_token(db, row, token, state, e))
		return -1;
	if (!is_open(state))
		return lab_fail(e, LAB_NOT_FOUND, "this LAVA job is over: its"
				" files are gone");
	if (!strcmp(name, "initramfs.cpio"))
		return open_initramfs(cfg, f, e);
	st = db_prepare(db, "SELECT image_key FROM lava_jobs WHERE id = ?");
	if (!st)
		return lab_fail_db(e, db);
	sqlite3_bind_int64(st, 1, row);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		snprintf(key, sizeof(key), "%s", sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	if (!lava_image_file_ok(name) || !key[0] || !cfg->images)
		return lab_fail(e, LAB_NOT_FOUND, "no file '%.64s' for this LAVA"
				" job", name);
	rc = images_open(cfg->images, db, key, name, &f->ref);
	if (rc > 0)
		return lab_fail(e, LAB_NOT_FOUND, "image %s has no '%s' in the"
				" store", key, name);
	if (rc < 0)
		return lab_fail(e, LAB_INTERNAL, "image %s: cannot open %s", key,
				name);
	f->from_store = true;
	return 0;
}

/* ---- claim ------------------------------------------------------------ */

void lava_submission_free(struct lava_submission *s)
{
	json_decref(s->spec);
	memset(s, 0, sizeof(*s));
}

int lava_claim(sqlite3 *wdb, const struct jobs_ctx *c, const struct lava_lab *lab,
	       time_t now, struct lava_submission *out)
{
	json_t *task = NULL;
	sqlite3_stmt *st;
	int rc;

	memset(out, 0, sizeof(*out));
	/* One job at a time: the host holds one, or a LAVA job is open. */
	if (db_int(wdb, -1, "SELECT (SELECT current_job_id IS NOT NULL FROM"
		   " hosts WHERE id = ?1) OR EXISTS (SELECT 1 FROM lava_jobs"
		   " WHERE lab_id = ?2 AND state IN ('submitting', 'submitted',"
		   " 'fetching'))", 2, lab->host_id, lab->id) != 0)
		return 0;
	/* Without configs no image can be named: wait for a builder. */
	rc = lab->own_configs ? 1 : builds_configs_from_builders(wdb,
			lab->host_id, lab->label);
	if (rc <= 0)
		return rc;
	/* A test host: a job whose image is stored, or nothing. */
	rc = builds_claim(wdb, c, lab->host_id, now, &out->cl, &task);
	json_decref(task);
	if (rc != 1)
		return rc < 0 ? -1 : 0;
	st = db_prepare(wdb, "INSERT INTO lava_jobs (lab_id, job_id, attempt,"
			" lease_token, token_hash, state, created_at) VALUES (?, ?,"
			" ?, ?, '', 'submitting', ?) RETURNING id");
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, lab->id);
	sqlite3_bind_int64(st, 2, out->cl.job_id);
	sqlite3_bind_int(st, 3, out->cl.attempt);
	sqlite3_bind_text(st, 4, out->cl.lease, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, (int64_t)now);
	rc = sqlite3_step(st);
	out->row = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	return out->row ? 1 : -1;
}

int lava_submission_load(sqlite3 *db, const struct jobs_ctx *c,
			 const struct lava_open *o, struct lava_submission *s)
{
	sqlite3_stmt *st;

	memset(s, 0, sizeof(*s));
	s->row = o->row;
	s->cl.job_id = o->job_id;
	s->cl.experiment_id = o->experiment_id;
	s->cl.attempt = o->attempt;
	snprintf(s->cl.lease, sizeof(s->cl.lease), "%s", o->lease);
	s->spec = jobs_spec_json(db, &s->cl, c->lease_seconds);
	if (!s->spec || builds_claim_json(db, o->host_id, &s->cl, s->spec))
		return -1;
	st = db_prepare(db, "SELECT title FROM experiments WHERE id = ?");
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, o->experiment_id);
	if (sqlite3_step(st) == SQLITE_ROW)
		json_object_set_new(s->spec, "title", json_col(st, 0));
	sqlite3_finalize(st);
	return 0;
}

/* ---- render ----------------------------------------------------------- */

static int target_ok(const char *t)
{
	if (!strcmp(t, "nullb") || !strcmp(t, "nvme"))
		return 1;
	if (strncmp(t, "/dev/", 5) || strlen(t) > 64 || strstr(t, ".."))
		return 0;
	for (t += 5; *t; t++)
		if (!((*t >= 'a' && *t <= 'z') || (*t >= 'A' && *t <= 'Z') ||
		      (*t >= '0' && *t <= '9') || strchr("/_.-", *t)))
			return 0;
	return 1;
}

/* Printable ASCII copy of a title (what LAVA shows as metadata). */
static char *clean_title(const char *s)
{
	char *o = strdup(s ? s : "");

	for (char *p = o; p && *p; p++)
		if (*p < 0x20 || *p > 0x7e)
			*p = '?';
	return o;
}

static char *bench_command(const json_t *spec, const char *target, int icount,
			   int *runtime, char *err, size_t errlen)
{
	const json_t *toggle = json_object_get(json_object_get(spec, "toggle"),
					       "runs");
	struct benchargs ba;
	char *args, *cmd = NULL;

	if (benchargs_from_json(json_object_get(spec, "bench"), &ba, err, errlen))
		return NULL;
	/* As on the runner's qemu-icount: the sampler's interrupts would be
	 * counted in the exact profile. */
	if (icount)
		benchargs_drop(&ba, "-P");
	*runtime = ba.runtime;
	args = benchargs_join(&ba, ' ');
	if (toggle && args) {
		/* One LAVA job per boot: every run of it, in order. */
		cmd = lava_toggle_command(toggle, target, args, err, errlen);
		*runtime *= (int)json_array_size(toggle);
	} else if (args && asprintf(&cmd, "/bin/perflab-lava-bench %s %s",
				    target, args) < 0) {
		cmd = NULL;
	}
	free(args);
	benchargs_free(&ba);
	return cmd;
}

static const char *callback_base(const struct lava_cfg *cfg,
				 const struct lava_lab *lab)
{
	return lab->callback_url ? lab->callback_url : cfg->url;
}

/* Does the template run QEMU with the insn plugin (an exact profile)? */
static int uses_plugin(const struct lava_lab *lab)
{
	char *t = json_dumps(lab->tmpl, JSON_COMPACT);
	int r = t && strstr(t, "console=on") != NULL;

	free(t);
	return r;
}

static json_t *vars_for(const struct lava_cfg *cfg, const struct lava_lab *lab,
			const struct lava_submission *s, const struct lava_image *img,
			char *err, size_t errlen)
{
	const json_t *spec = s->spec, *var = json_object_get(spec, "variant");
	const char *vname = json_string_value(json_object_get(var, "name"));
	const char *cmdline = json_string_value(json_object_get(var, "cmdline"));
	const char *target = json_string_value(json_object_get(json_object_get(
		spec, "bench"), "target"));
	const char *base = cfg->url, *cbase = callback_base(cfg, lab), *k;
	char isum[65], url[1400], initrd[4200], name[300], cb[1400];
	char *title = clean_title(json_string_value(json_object_get(spec, "title")));
	char *cmd = NULL;
	json_t *v = NULL, *x;
	int runtime = 10, test_min;

	if (!cmdline)
		cmdline = "";
	if (!target || !*target)
		target = "nullb";
	if (kcmdline_check(cmdline, err, errlen))
		goto out;
	if (strchr(cmdline, '{') || strchr(cmdline, '}')) {
		snprintf(err, errlen, "variant cmdline: '{' and '}' are not"
			 " allowed on a LAVA lab (LAVA substitutes {names})");
		goto out;
	}
	if (!target_ok(target)) {
		snprintf(err, errlen, "bench.target '%.64s': a LAVA lab takes"
			 " nullb, nvme or a /dev/ path", target);
		goto out;
	}
	if (!base || !cbase) {
		snprintf(err, errlen, "no URL LAVA can reach perflabd at"
			 " (perflabd --lava-url)");
		goto out;
	}
	snprintf(initrd, sizeof(initrd), "%s/initramfs.cpio",
		 cfg->guest_dir ? cfg->guest_dir : "");
	if (lava_file_sha256(initrd, isum, NULL)) {
		snprintf(err, errlen, "cannot read %s (perflab-runner lava-guest"
			 " --workdir DIR, perflabd --lava-guest DIR)", initrd);
		goto out;
	}
	cmd = bench_command(spec, target, uses_plugin(lab), &runtime, err, errlen);
	if (!cmd)
		goto out;
	/* The runner's watchdog: 30 s of wall time per guest second. */
	test_min = (30 * (runtime + 5) + 59) / 60 + 2;
	snprintf(name, sizeof(name), "perflab job %lld: experiment %lld, %s run"
		 " %lld, attempt %d", (long long)s->cl.job_id,
		 (long long)s->cl.experiment_id, vname ? vname : "?",
		 (long long)json_integer_value(json_object_get(spec, "run_index")),
		 s->cl.attempt);
	snprintf(url, sizeof(url), "%s/api/v1/lava/files/%lld/", base,
		 (long long)s->row);
	snprintf(cb, sizeof(cb), "%s/api/v1/lava/callback/%lld", cbase,
		 (long long)s->row);
	v = json_pack("{s:s,s:I,s:I,s:i,s:s,s:I,s:{s:I,s:I,s:s,s:i,s:s,s:s},"
		      "s:O,s:s+,s:s,s:s+,s:s,s:{s:s},s:s,s:s,s:s,s:i,s:i,s:i,"
		      "s:{s:{s:s},s:[{s:s,s:s,s:s,s:s,s:s,s:s}]},s:s,s:s}",
		      "job_name", name,
		      "experiment_id", (json_int_t)s->cl.experiment_id,
		      "job_id", (json_int_t)s->cl.job_id,
		      "attempt", s->cl.attempt,
		      "variant", vname ? vname : "",
		      "run_index", json_integer_value(json_object_get(spec, "run_index")),
		      "metadata", "perflab.job", (json_int_t)s->cl.job_id,
		      "perflab.experiment", (json_int_t)s->cl.experiment_id,
		      "perflab.variant", vname ? vname : "",
		      "perflab.attempt", s->cl.attempt,
		      "perflab.title", title ? title : "",
		      "perflab.image", img->key,
		      "tags", lab->tags,
		      "kernel_url", url, "bzImage",
		      "kernel_sha256", img->kernel_sha256,
		      "initrd_url", url, "initramfs.cpio",
		      "initrd_sha256", isum,
		      "file_headers", "X-Perflab-Token", s->token,
		      "cmdline", cmdline,
		      "target", target,
		      "bench_command", cmd,
		      "job_minutes", 5 + 5 + test_min + 2,
		      "boot_minutes", 5,
		      "test_minutes", test_min,
		      "notify", "criteria", "status", "finished",
		      "callbacks", "url", cb, "method", "POST", "dataset", "minimal",
		      "content-type", "json", "token", s->token,
		      "header", "X-Perflab-Token",
		      "callback_url", cb,
		      "callback_token", s->token);
	if (!v) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	json_object_foreach(lab->vars, k, x)
		json_object_set(v, k, x);
out:
	free(cmd);
	free(title);
	return v;
}

char *lava_render(const struct lava_cfg *cfg, const struct lava_lab *lab,
		  const struct lava_submission *s, struct lava_image *img,
		  const char **reason, char *err, size_t errlen)
{
	json_t *vars;
	char *def;

	*reason = "internal";
	if (lava_image_of(s->spec, lab->name, img, err, errlen))
		return NULL;
	vars = vars_for(cfg, lab, s, img, err, errlen);
	if (!vars)
		return NULL;
	def = lava_template_render(lab->tmpl, vars, err, errlen);
	json_decref(vars);
	return def;
}

/* ---- bookkeeping -------------------------------------------------------- */

/* The definition as stored and shown: every copy of @token replaced. */
static char *redact(const char *def, const char *token)
{
	char *o = strdup(def), *p;

	for (p = o ? strstr(o, token) : NULL; p; p = strstr(p, token))
		memcpy(p + 4, "REDACTED_REDACTED_REDACTED_REDACTE",
		       LAVA_TOKEN_LEN - 4);
	return o;
}

int lava_set_token(sqlite3 *wdb, int64_t row, const char *token,
		   const char *image_key, const char *definition)
{
	sqlite3_stmt *st = db_prepare(wdb, "UPDATE lava_jobs SET token_hash = ?,"
				      " image_key = ?, definition = ? WHERE id = ?");
	char h[65], *red = redact(definition, token);
	int rc = SQLITE_NOMEM;

	if (st && red) {
		sha_hex(token, h);
		sqlite3_bind_text(st, 1, h, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 2, image_key, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, red, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 4, row);
		rc = sqlite3_step(st);
	}
	sqlite3_finalize(st);
	free(red);
	return rc == SQLITE_DONE ? 0 : -1;
}

int lava_new_token(char out[LAVA_TOKEN_LEN + 1])
{
	return new_token(out);
}

int lava_mark_submitted(sqlite3 *wdb, const struct jobs_ctx *c,
			const struct lava_lab *lab, int64_t row, int64_t lava_id,
			time_t now)
{
	sqlite3_stmt *st = db_prepare(wdb, "UPDATE lava_jobs SET lava_id = ?,"
		" state = CASE state WHEN 'submitting' THEN 'submitted' ELSE state"
		" END, submitted_at = ?, message = NULL WHERE id = ?"
		" RETURNING job_id, lease_token");
	char msg[160], lease[33] = "";
	struct lab_err e;
	int64_t job = 0;
	time_t exp;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, lava_id);
	sqlite3_bind_int64(st, 2, (int64_t)now);
	sqlite3_bind_int64(st, 3, row);
	if (sqlite3_step(st) == SQLITE_ROW) {
		job = sqlite3_column_int64(st, 0);
		snprintf(lease, sizeof(lease), "%s", sqlite3_column_text(st, 1));
	}
	sqlite3_finalize(st);
	if (!job)
		return -1;
	snprintf(msg, sizeof(msg), "LAVA job %lld submitted to %s",
		 (long long)lava_id, lab->name);
	jobs_heartbeat(wdb, c, job, lab->host_id, lease, "boot", msg, now, &exp,
		       &e);
	return 0;
}

int lava_open_jobs(sqlite3 *db, int64_t lab_id, struct lava_open **out)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT lj.id, lj.job_id,"
		" coalesce(lj.lava_id, 0), l.host_id, lj.attempt, lj.lease_token,"
		" lj.state, coalesce(lj.polled_at, 0), coalesce(lj.image_key, ''),"
		" j.experiment_id, e.runs_per_boot > 0 FROM lava_jobs lj JOIN"
		" lava_labs l ON l.id = lj.lab_id JOIN jobs j ON j.id = lj.job_id"
		" JOIN experiments e ON e.id = j.experiment_id WHERE lj.lab_id = ?"
		" AND lj.state IN ('submitting', 'submitted', 'fetching')"
		" ORDER BY lj.id");
	struct lava_open *a = NULL;
	int n = 0, rc;

	*out = NULL;
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, lab_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct lava_open *na = realloc(a, (n + 1) * sizeof(*a)), *o;

		if (!na)
			break;
		a = na;
		o = &a[n++];
		memset(o, 0, sizeof(*o));
		o->row = sqlite3_column_int64(st, 0);
		o->job_id = sqlite3_column_int64(st, 1);
		o->lava_id = sqlite3_column_int64(st, 2);
		o->host_id = sqlite3_column_int64(st, 3);
		o->attempt = sqlite3_column_int(st, 4);
		snprintf(o->lease, sizeof(o->lease), "%s", sqlite3_column_text(st, 5));
		snprintf(o->state, sizeof(o->state), "%s", sqlite3_column_text(st, 6));
		o->polled_at = (time_t)sqlite3_column_int64(st, 7);
		snprintf(o->image_key, sizeof(o->image_key), "%s",
			 sqlite3_column_text(st, 8));
		o->experiment_id = sqlite3_column_int64(st, 9);
		o->toggle = sqlite3_column_int(st, 10) != 0;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free(a);
		return -1;
	}
	*out = a;
	return n;
}

int lava_keepalive(sqlite3 *wdb, const struct jobs_ctx *c, const struct lava_open *o,
		   const char *phase, const char *message, time_t now)
{
	struct lab_err e;
	time_t exp;

	if (!jobs_heartbeat(wdb, c, o->job_id, o->host_id, o->lease, phase,
			    message, now, &exp, &e))
		return 0;
	return e.st == LAB_CONFLICT || e.st == LAB_NOT_FOUND ? 1 : -1;
}

void lava_mark_polled(sqlite3 *wdb, int64_t row, time_t now)
{
	db_int(wdb, 0, "UPDATE lava_jobs SET polled_at = ? WHERE id = ?"
	       " RETURNING 0", 2, (int64_t)now, row);
}

int lava_set_message(sqlite3 *wdb, int64_t row, const char *message)
{
	sqlite3_stmt *st = db_prepare(wdb, "UPDATE lava_jobs SET message = ?"
				      " WHERE id = ?");
	int rc;

	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, message, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, row);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* Close the row: @state done|failed|cancelled, with LAVA's words. */
static int close_row(sqlite3 *wdb, int64_t row, const char *state,
		     const char *outcome, const char *message,
		     const char *lava_state, const char *lava_health, time_t now)
{
	sqlite3_stmt *st = db_prepare(wdb, "UPDATE lava_jobs SET state = ?,"
		" outcome = ?, message = ?, lava_state = coalesce(?, lava_state),"
		" lava_health = coalesce(?, lava_health), finished_at = ? WHERE"
		" id = ?");
	int rc;

	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, state, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, outcome, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, message, -1, SQLITE_STATIC);
	if (lava_state)
		sqlite3_bind_text(st, 4, lava_state, -1, SQLITE_STATIC);
	if (lava_health)
		sqlite3_bind_text(st, 5, lava_health, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 6, (int64_t)now);
	sqlite3_bind_int64(st, 7, row);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

int lava_close(sqlite3 *wdb, const struct jobs_ctx *c, const struct lava_open *o,
	       const char *reason, const char *message, int fail_job, time_t now)
{
	struct lab_err e = { 0 };
	int rc = 0;

	if (fail_job)
		rc = jobs_fail(wdb, c, o->job_id, o->host_id, o->lease, reason,
			       message, now, &e);
	if (close_row(wdb, o->row, fail_job ? "failed" : "cancelled", reason,
		      message, NULL, NULL, now))
		return -1;
	/* A lease gone meanwhile is no error: the job moved on. */
	return rc && e.st != LAB_CONFLICT && e.st != LAB_NOT_FOUND ? -1 : 0;
}

/*
 * The commit LAVA booted: the job's own, whose image perflab chose by
 * its key (LAVA never builds). Results of commit jobs must name it
 * (ingest.c); tarball jobs have none.
 */
static void add_commit(sqlite3 *wdb, int64_t job, json_t *body)
{
	json_t *build = json_object_get(body, "build");
	char *sha = NULL;
	size_t n;

	if (json_is_object(build) &&
	    db_text(wdb, "SELECT coalesce(v.base_commit, e.base_commit) FROM"
		    " jobs j JOIN variants v ON v.id = j.variant_id JOIN"
		    " experiments e ON e.id = j.experiment_id WHERE j.id = ?1",
		    job, &sha, &n) == 1 && sha && *sha)
		json_object_set_new(build, "commit", json_string(sha));
	free(sha);
}

/* The jobs of @o's boot still leased, in seq order: count, or -1. */
static int boot_jobs(sqlite3 *wdb, const struct lava_open *o,
		     int64_t ids[LAVA_TOGGLE_MAX_RUNS],
		     char leases[LAVA_TOGGLE_MAX_RUNS][33])
{
	sqlite3_stmt *st = db_prepare(wdb, "SELECT id, lease_token FROM jobs"
		" WHERE (id = ?1 AND lease_token = ?2) OR (lease_group = ?2 AND"
		" state IN ('claimed', 'running')) ORDER BY seq");
	int n = 0;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, o->job_id);
	sqlite3_bind_text(st, 2, o->lease, -1, SQLITE_STATIC);
	while (n < LAVA_TOGGLE_MAX_RUNS && sqlite3_step(st) == SQLITE_ROW) {
		ids[n] = sqlite3_column_int64(st, 0);
		snprintf(leases[n++], 33, "%s", sqlite3_column_text(st, 1));
	}
	sqlite3_finalize(st);
	return n;
}

static const struct lava_run_outcome *run_of(const struct lava_outcome *out,
					     int64_t job)
{
	for (int i = 0; i < out->nruns; i++)
		if (out->runs[i].job_id == job)
			return &out->runs[i];
	return NULL;
}

/*
 * A toggle boot: each leased job of it takes the run its frame carries,
 * in seq order; the first without one fails with its reason, which puts
 * the boot's other jobs back in the queue (jobs_fail), as a runner's boot
 * that ended early. Frames naming other jobs are ignored.
 */
static int store_toggle(sqlite3 *wdb, const struct jobs_ctx *c,
			const struct lava_open *o, struct lava_outcome *out,
			time_t now)
{
	int64_t ids[LAVA_TOGGLE_MAX_RUNS], run = 0;
	char leases[LAVA_TOGGLE_MAX_RUNS][33];
	const struct lava_run_outcome *r;
	const char *reason = NULL, *log = NULL;
	struct lab_err e = { 0 };
	int n = boot_jobs(wdb, o, ids, leases), i, stored = 0;
	char why[600];
	bool dup;

	if (n < 0)
		return -1;
	if (n == 0)
		return close_row(wdb, o->row, "cancelled", "stale", "the perflab"
				 " jobs moved on (lease gone)", out->state,
				 out->health, now);
	for (i = 0; i < n && !reason; i++) {
		r = run_of(out, ids[i]);
		if (!r || !r->body) {
			reason = r ? r->reason : out->reason;
			log = r ? r->log : out->log;
			break;
		}
		json_object_set_new(r->body, "lease", json_string(leases[i]));
		add_commit(wdb, ids[i], r->body);
		if (!ingest_result(wdb, c, ids[i], o->host_id, r->body, now, &run,
				   &dup, &e)) {
			stored++;
			continue;
		}
		if (e.st == LAB_UNAVAILABLE || e.st == LAB_INTERNAL)
			return -1;
		if (e.st == LAB_CONFLICT || e.st == LAB_NOT_FOUND)
			continue;	/* that job moved on */
		snprintf(why, sizeof(why), "result refused: %s", e.msg);
		reason = "bench";
		log = why;
	}
	if (reason && jobs_fail(wdb, c, ids[i], o->host_id, leases[i], reason,
				log ? log : out->message, now, &e) &&
	    e.st != LAB_CONFLICT && e.st != LAB_NOT_FOUND)
		return -1;
	snprintf(out->message + strlen(out->message), sizeof(out->message) -
		 strlen(out->message), "; %d of %d stored%s%s", stored, n,
		 reason ? ", then " : "", reason ? reason : "");
	return close_row(wdb, o->row, reason ? "failed" : "done",
			 reason ? reason : "result", out->message, out->state,
			 out->health, now);
}

int lava_store_outcome(sqlite3 *wdb, const struct jobs_ctx *c,
		       const struct lava_open *o, struct lava_outcome *out,
		       time_t now)
{
	struct lab_err e = { 0 };
	int64_t run = 0;
	bool dup = false;
	int rc;

	if (o->toggle)
		return store_toggle(wdb, c, o, out, now);
	if (out->body)
		add_commit(wdb, o->job_id, out->body);
	if (out->body) {
		if (!ingest_result(wdb, c, o->job_id, o->host_id, out->body, now,
				   &run, &dup, &e))
			return close_row(wdb, o->row, "done", "result",
					 out->message, out->state, out->health, now);
		if (e.st == LAB_CONFLICT || e.st == LAB_NOT_FOUND)
			return close_row(wdb, o->row, "cancelled", "stale",
					 "the perflab job moved on (lease gone)",
					 out->state, out->health, now);
		if (e.st == LAB_UNAVAILABLE || e.st == LAB_INTERNAL)
			return -1;
		/* Refused by ingest: the guest's result is bad. */
		snprintf(out->message, sizeof(out->message), "result refused: %s",
			 e.msg);
		out->reason = "bench";
	}
	rc = jobs_fail(wdb, c, o->job_id, o->host_id, o->lease, out->reason,
		       out->log ? out->log : out->message, now, &e);
	if (rc && e.st != LAB_CONFLICT && e.st != LAB_NOT_FOUND)
		return -1;
	return close_row(wdb, o->row, rc ? "cancelled" : "failed",
			 out->reason, out->message, out->state, out->health, now);
}
