// SPDX-License-Identifier: MIT
/*
 * toggle: runs of one boot; see toggle.h.
 */
#include "runners/runner/toggle.h"
#include "runners/runner/hostbench.h"
#include "runners/runner/rutil.h"
#include "runners/runner/serial.h"
#include "common/rtsetting.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char *toggle_plan(const struct job *j)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	const char *path;
	json_t *v;

	if (!f)
		return NULL;
	for (int i = 0; i < j->nruns; i++) {
		fprintf(f, "run %lld\n", j->runs[i].job_id);
		/* Paths and values were checked (rtsetting.h): no spaces. */
		json_object_foreach((json_t *)j->runs[i].settings, path, v)
			fprintf(f, "set %s %s\n", path, json_string_value(v));
		fprintf(f, "bench\n");
	}
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* The line that starts with @marker and names job @job, from @from. */
static const char *find_job_line(const char *buf, size_t len, size_t from,
				 const char *marker, long long job)
{
	char pat[96];
	const char *p = buf + from, *end = buf + len;

	snprintf(pat, sizeof(pat), "%s job=%lld", marker, job);
	while (p < end) {
		const char *hit = memmem(p, end - p, pat, strlen(pat));
		size_t n;

		if (!hit)
			return NULL;
		/* Whole word: job=1 must not match job=12. */
		n = strlen(pat);
		if (hit + n < end &&
		    (hit[n] == ' ' || hit[n] == '\r' || hit[n] == '\n'))
			return hit;
		p = hit + n;
	}
	return NULL;
}

/* Run @i's frame [RUN, RUN-END line end) if complete: 0, else -1. */
static int frame(const struct job *j, int i, const char *buf, size_t len,
		 size_t from, const char **b, const char **e)
{
	long long job = j->runs[i].job_id;
	const char *nl;

	*b = find_job_line(buf, len, from, SERIAL_RUN, job);
	if (!*b)
		return -1;
	*e = find_job_line(buf, len, *b - buf, SERIAL_RUN_END, job);
	if (!*e)
		return -1;
	nl = memchr(*e, '\n', buf + len - *e);
	if (!nl)
		return -1;
	*e = nl + 1;
	return 0;
}

static void run_outcome(const struct toggle_console *t, const char *b,
			const char *e, struct outcome *o)
{
	struct serial_result sr;
	long long job;

	if (sscanf(b + strlen(SERIAL_RUN), " job=%lld pos=%d boot=%63s", &job,
		   &o->boot_pos, o->boot_id) != 3)
		o->boot_id[0] = '\0';
	serial_parse(b, e - b, &sr);
	if (sr.status == SERIAL_OK)
		exec_take_bench(sr.json, o);
	else
		outcome_fail(o, "bench",
			     rutil_strdupf("%s\n--- console ---\n"
					   "%.*s",
					   sr.msg,
					   (int)(e - b > 65536 ? 65536 : e - b),
					   b));
	serial_result_free(&sr);
	if (t->boot->build)
		o->build = json_incref(t->boot->build);
	o->build_s = t->boot->build_s;
	o->boot_s = t->next == 0 ? t->boot->boot_s : 0;
}

void toggle_on_console(void *arg, const char *buf, size_t len)
{
	struct toggle_console *t = arg;
	const char *b, *e;

	while (t->next < t->j->nruns &&
	       !frame(t->j, t->next, buf, len, t->off, &b, &e)) {
		struct outcome o = { 0 };

		run_outcome(t, b, e, &o);
		t->off = e - buf;
		if (t->c->run_done)
			t->c->run_done(t->c->run_arg, t->next, &o);
		outcome_free(&o);
		t->next++;
	}
}

void toggle_unfinished(const struct job *j, int i, const char *buf, size_t len,
		       struct outcome *o)
{
	const char *r =
		find_job_line(buf, len, 0, SERIAL_REFUSED, j->runs[i].job_id);
	const char *b =
		find_job_line(buf, len, 0, SERIAL_RUN, j->runs[i].job_id);

	if (r) {
		const char *nl = memchr(r, '\n', buf + len - r);
		const char *e = nl ? nl : buf + len;
		int n;

		/* The guest's words after "MARKER job=N ", without the tty's \r. */
		r += strlen(SERIAL_REFUSED);
		r += strspn(r, " ");
		r += strcspn(r, " ");
		r += strspn(r, " ");
		while (e > r && (e[-1] == '\r' || e[-1] == ' '))
			e--;
		n = (int)(e - r);

		outcome_fail(
			o, "setting",
			rutil_strdupf(
				"variant '%s': the kernel refused a setting: %.*s",
				j->runs[i].variant, n, r));
		return;
	}
	outcome_fail(
		o, b ? "bench" : "boot",
		rutil_strdupf(
			"toggle run %d of %d (variant '%s') did not finish in this"
			" boot\n--- console ---\n%s",
			i + 1, j->nruns, j->runs[i].variant,
			len > 262144 ? buf + len - 262144 : buf));
}

static int write_setting(const char *path, const char *value, char *err,
			 size_t errlen)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
	size_t n = strlen(value);
	ssize_t w;

	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	w = write(fd, value, n);
	if (w != (ssize_t)n) {
		snprintf(err, errlen, "%s: writing '%s' failed: %s", path,
			 value, w < 0 ? strerror(errno) : "short write");
		close(fd);
		return -1;
	}
	if (close(fd)) {
		snprintf(err, errlen, "%s: writing '%s' failed: %s", path,
			 value, strerror(errno));
		return -1;
	}
	return 0;
}

/* "1" reads back as "Y" from a bool module parameter, "0" as "N". */
static int same_value(const char *want, const char *got)
{
	if (!strcmp(want, got))
		return 1;
	return (!strcmp(got, "Y") &&
		(!strcmp(want, "1") || !strcmp(want, "y"))) ||
	       (!strcmp(got, "N") &&
		(!strcmp(want, "0") || !strcmp(want, "n")));
}

int toggle_apply(const json_t *settings, char *err, size_t errlen)
{
	const char *path;
	json_t *v;

	json_object_foreach((json_t *)settings, path, v)
	{
		const char *want = json_string_value(v);
		size_t n;
		char *got;

		if (write_setting(path, want, err, errlen))
			return -1;
		got = rutil_read_file(path, &n);
		if (!got) {
			snprintf(err, errlen, "%s: reading back: %s", path,
				 strerror(errno));
			return -1;
		}
		while (n && (got[n - 1] == '\n' || got[n - 1] == ' '))
			got[--n] = '\0';
		if (!same_value(want, got)) {
			snprintf(err, errlen,
				 "%s: wrote '%s', reads back"
				 " '%.64s'",
				 path, want, got);
			free(got);
			return -1;
		}
		free(got);
	}
	return 0;
}

/* A setting's value as read, as it can be written back: without the
 * trailing newline; a sysfs choice list ("a [b] c") as its chosen word. */
static char *current_value(const char *path)
{
	size_t n = 0;
	char *s = rutil_read_file(path, &n), *l, *r;

	if (!s)
		return NULL;
	while (n && (s[n - 1] == '\n' || s[n - 1] == ' '))
		s[--n] = '\0';
	l = strchr(s, '[');
	r = l ? strchr(l, ']') : NULL;
	if (r) {
		memmove(s, l + 1, r - l - 1);
		s[r - l - 1] = '\0';
	}
	return s;
}

int toggle_save(const char *file, const struct job *j, char *err,
		size_t errlen)
{
	json_t *saved = json_object();
	char *text = NULL;
	int rc = -1;

	if (!saved)
		goto out;
	for (int i = 0; i < j->nruns; i++) {
		const char *path;
		json_t *v;

		json_object_foreach((json_t *)j->runs[i].settings, path, v) {
			char *cur;

			if (json_object_get(saved, path))
				continue;
			cur = current_value(path);
			/* a path the kernel lacks fails its run; nothing to keep */
			if (cur)
				json_object_set_new(saved, path, json_string(cur));
			free(cur);
		}
	}
	text = json_dumps(saved, JSON_COMPACT | JSON_SORT_KEYS);
	if (!text || rutil_write_file(file, text, strlen(text))) {
		snprintf(err, errlen, "%s: cannot save the host's settings: %s",
			 file, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	free(text);
	json_decref(saved);
	return rc;
}

int toggle_restore(const char *file)
{
	json_error_t jerr;
	json_t *saved, *v;
	const char *path;
	char err[512];
	int bad = 0;

	if (access(file, F_OK))
		return 0;
	saved = json_load_file(file, 0, &jerr);
	if (!json_is_object(saved)) {
		fprintf(stderr, "perflab-runner: %s: %s; the host's settings"
			" are not restored\n", file, jerr.text);
		bad = -1;
	}
	json_object_foreach(saved, path, v) {
		const char *val = json_string_value(v);

		if (!val || rtsetting_path_check(path, err, sizeof(err)) ||
		    write_setting(path, val, err, sizeof(err))) {
			fprintf(stderr, "perflab-runner: restoring %s: %s\n",
				path, val ? err : "not a string");
			bad = -1;
		}
	}
	json_decref(saved);
	/* once: a value the kernel refuses now would be refused for ever */
	if (unlink(file) && errno != ENOENT)
		bad = -1;
	return bad;
}

void toggle_saved_path(const struct runner_cfg *cfg, char *out, size_t len)
{
	snprintf(out, len, "%s/toggle-saved.json", cfg->workdir);
}

static int toggle_runs(const struct exec_ctx *c, const struct job *j,
		       struct outcome *o);

int toggle_local(const struct exec_ctx *c, const struct job *j,
		 struct outcome *o)
{
	char file[4200], err[512];
	int rc;

	/* The host's values before the first write, kept on disk: restored
	 * after the job, and at the next start if the runner dies in it. */
	toggle_saved_path(c->cfg, file, sizeof(file));
	toggle_restore(file);	/* one a crash left (the start does it too) */
	if (toggle_save(file, j, err, sizeof(err))) {
		outcome_fail(o, "internal", rutil_strdupf("%s", err));
		return -1;
	}
	rc = toggle_runs(c, j, o);
	/* every run is reported by now; a failure here is in the log */
	toggle_restore(file);
	return rc;
}

static int toggle_runs(const struct exec_ctx *c, const struct job *j,
		       struct outcome *o)
{
	char boot[64], err[512];

	toggle_boot_id(boot, sizeof(boot));
	for (o->runs_done = 0; o->runs_done < j->nruns; o->runs_done++) {
		const struct toggle_run *r = &j->runs[o->runs_done];
		struct outcome ro = { 0 };

		if (toggle_apply(r->settings, err, sizeof(err))) {
			outcome_fail(
				o, "setting",
				rutil_strdupf(
					"variant '%s': the kernel refused a setting: %s",
					r->variant, err));
			return -1;
		}
		if (hostbench_run(c, j, &ro)) {
			outcome_fail(o, ro.reason, ro.log);
			ro.log = NULL;
			outcome_free(&ro);
			return -1;
		}
		snprintf(ro.boot_id, sizeof(ro.boot_id), "%s", boot);
		ro.boot_pos = o->runs_done;
		if (o->build)
			ro.build = json_incref(o->build);
		ro.build_s = o->build_s;
		if (c->run_done)
			c->run_done(c->run_arg, o->runs_done, &ro);
		outcome_free(&ro);
	}
	return 0;
}

void toggle_boot_id(char *out, size_t len)
{
	size_t n = 0;
	char *s = rutil_read_file("/proc/sys/kernel/random/boot_id", &n);

	while (s && n && (s[n - 1] == '\n'))
		s[--n] = '\0';
	snprintf(out, len, "%s", s ? s : "");
	free(s);
}
