// SPDX-License-Identifier: MIT
/*
 * kexec: state file, command construction, verification, resume.
 */
#include "runners/runner/kexec.h"
#include "runners/runner/hostbench.h"
#include "runners/runner/qemu.h"
#include "runners/runner/rutil.h"
#include "runners/runner/toggle.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

static int real_exec(void *arg, char *const argv[], char **out)
{
	char log[] = "/tmp/perflab-kexec-XXXXXX";
	struct rutil_cmd cmd;
	int fd = mkstemp(log), rc, st;

	(void)arg;
	if (fd >= 0)
		close(fd);
	rutil_cmd_init(&cmd, argv);
	cmd.log = fd >= 0 ? log : NULL;
	cmd.timeout_s = 120;
	rc = rutil_run(&cmd, &st);
	if (out)
		*out = fd >= 0 ? rutil_read_tail(log, 16384) : strdup("");
	if (fd >= 0)
		unlink(log);
	return rc == RUTIL_EXITED && st == 0 ? 0 : -1;
}

const struct kexec_env *kexec_default_env(void)
{
	static const struct kexec_env env = { .sysroot = "",
					      .exec = real_exec };

	return &env;
}

static const struct kexec_env *env_or_default(const struct kexec_env *e)
{
	return e ? e : kexec_default_env();
}

int kexec_state_save(const char *path, const struct kexec_state *s)
{
	json_t *o = json_pack("{s:i,s:s,s:O,s:s,s:s,s:s,s:s,s:O,s:f,s:I}",
			      "version", 1, "stage", s->stage, "job", s->job,
			      "image", s->image, "release", s->release,
			      "build_id", s->build_id, "token", s->token,
			      "build", s->build ? s->build : json_null(),
			      "build_s", s->build_s,
			      "started", (json_int_t)s->started);
	char *text = o ? json_dumps(o, JSON_INDENT(1)) : NULL;
	int ret = text ? rutil_write_file(path, text, strlen(text)) : -1;

	free(text);
	json_decref(o);
	return ret;
}

static void copy_str(char *dst, size_t len, const json_t *o, const char *k)
{
	const char *v = json_string_value(json_object_get(o, k));

	snprintf(dst, len, "%s", v ? v : "");
}

int kexec_state_load(const char *path, struct kexec_state *s, char *err,
		     size_t errlen)
{
	json_error_t je;
	json_t *o;

	memset(s, 0, sizeof(*s));
	if (access(path, F_OK))
		return 1;
	o = json_load_file(path, 0, &je);
	if (!o || json_integer_value(json_object_get(o, "version")) != 1 ||
	    !json_is_object(json_object_get(o, "job"))) {
		snprintf(err, errlen, "kexec state %s unreadable: %s", path,
			 o ? "bad version or no job" : je.text);
		json_decref(o);
		return -1;
	}
	copy_str(s->stage, sizeof(s->stage), o, "stage");
	copy_str(s->image, sizeof(s->image), o, "image");
	copy_str(s->release, sizeof(s->release), o, "release");
	copy_str(s->build_id, sizeof(s->build_id), o, "build_id");
	copy_str(s->token, sizeof(s->token), o, "token");
	s->job = json_incref(json_object_get(o, "job"));
	s->build = json_object_get(o, "build");
	s->build = json_is_object(s->build) ? json_incref(s->build) : NULL;
	s->build_s = json_number_value(json_object_get(o, "build_s"));
	s->started = json_integer_value(json_object_get(o, "started"));
	json_decref(o);
	return 0;
}

void kexec_state_free(struct kexec_state *s)
{
	json_decref(s->job);
	json_decref(s->build);
	s->job = s->build = NULL;
}

void kexec_token(long long job, const char *lease, char *out, size_t len)
{
	char lp[17];
	size_t i;

	for (i = 0; i < 16 && lease[i]; i++)
		lp[i] = strchr("0123456789abcdefABCDEF", lease[i]) ?
			lease[i] : 'x';
	lp[i] = 0;
	snprintf(out, len, "perflab_job=%lld-%s", job, lp);
}

static int dropped(const char *w, size_t n)
{
	static const char *const drop[] = { "BOOT_IMAGE=", "initrd=",
					    "nvme.poll_queues=",
					    "perflab_job=" };

	for (size_t i = 0; i < sizeof(drop) / sizeof(drop[0]); i++)
		if (n >= strlen(drop[i]) && !strncmp(w, drop[i],
						      strlen(drop[i])))
			return 1;
	return 0;
}

/*
 * Parameters a variant may not add on a kexec host: the variant kernel
 * boots the host's own root filesystem as root, so these would run code
 * of the submitter's choosing there (init=, systemd.run=, an emergency
 * shell), boot another root, or override what the runner sets itself.
 */
static int kexec_forbidden(const char *w, size_t n)
{
	static const char *const key[] = { "init", "rdinit", "root",
		"rootfstype", "rootflags", "nfsroot", "ip", "BOOT_IMAGE",
		"initrd", "perflab_job", "nvme.poll_queues", "single",
		"emergency", "rescue", "S", "1", "2", "3", "4", "5", "6" };
	static const char *const prefix[] = { "systemd.", "rd.", "udev." };
	size_t k = strcspn(w, "= \t\n");

	if (k > n)
		k = n;
	for (size_t i = 0; i < sizeof(key) / sizeof(key[0]); i++)
		if (strlen(key[i]) == k && !strncmp(w, key[i], k))
			return 1;
	for (size_t i = 0; i < sizeof(prefix) / sizeof(prefix[0]); i++)
		if (!strncmp(w, prefix[i], strlen(prefix[i])))
			return 1;
	return 0;
}

int kexec_check_extra(const char *extra, char *err, size_t errlen)
{
	const char *w = extra;

	if (!extra)
		return 0;
	if (qemu_check_extra(extra, err, errlen))
		return -1;
	while (*w) {
		size_t n;

		w += strspn(w, " \t\n");
		n = strcspn(w, " \t\n");
		if (n && kexec_forbidden(w, n)) {
			snprintf(err, errlen, "variant cmdline: '%.*s' is not"
				 " allowed on a kexec host (it would run code or"
				 " change the root the host boots)",
				 (int)(n > 64 ? 64 : n), w);
			return -1;
		}
		w += n;
	}
	return 0;
}

char *kexec_cmdline(const char *host, int poll_queues, const char *token,
		    const char *extra)
{
	size_t cap = strlen(host) + strlen(token) + (extra ? strlen(extra) : 0)
		     + 64;
	char *out = calloc(1, cap), *p = out;
	const char *w = host;

	if (!out)
		return NULL;
	while (*w) {
		size_t n;

		w += strspn(w, " \t\n");
		n = strcspn(w, " \t\n");
		if (n && !dropped(w, n)) {
			memcpy(p, w, n);
			p += n;
			*p++ = ' ';
		}
		w += n;
	}
	p += sprintf(p, "nvme.poll_queues=%d %s", poll_queues, token);
	if (extra && *extra)
		sprintf(p, " %s", extra);
	return out;
}

char **kexec_load_argv(const char *image, const char *cmdline,
		       const char *initrd)
{
	char **v = calloc(6, sizeof(*v));
	int n = 0;

	if (!v)
		return NULL;
	v[n++] = strdup("kexec");
	v[n++] = strdup("-l");
	v[n++] = strdup(image);
	v[n++] = rutil_strdupf("--command-line=%s", cmdline);
	if (initrd)
		v[n++] = rutil_strdupf("--initrd=%s", initrd);
	for (int i = 0; i < n; i++)
		if (!v[i]) {
			kexec_argv_free(v);
			return NULL;
		}
	return v;
}

void kexec_argv_free(char **argv)
{
	for (char **p = argv; p && *p; p++)
		free(*p);
	free(argv);
}

int kexec_notes_build_id(const unsigned char *buf, size_t len, char *out,
			 size_t outlen)
{
	size_t off = 0;

	while (off + 12 <= len) {
		unsigned int nsz, dsz, type;
		size_t name, desc;

		memcpy(&nsz, buf + off, 4);
		memcpy(&dsz, buf + off + 4, 4);
		memcpy(&type, buf + off + 8, 4);
		name = off + 12;
		desc = name + ((nsz + 3) & ~3u);
		if (desc + dsz > len || desc < name)
			return -1;
		if (type == 3 && nsz == 4 && !memcmp(buf + name, "GNU", 4)) {
			if (dsz * 2 + 1 > outlen)
				return -1;
			for (unsigned int i = 0; i < dsz; i++)
				sprintf(out + 2 * i, "%02x", buf[desc + i]);
			return 0;
		}
		off = desc + ((dsz + 3) & ~3u);
	}
	return -1;
}

static char *root_file(const struct kexec_env *env, const char *path,
		       size_t *len)
{
	char full[4096];

	snprintf(full, sizeof(full), "%s%s", env->sysroot, path);
	return rutil_read_file(full, len);
}

static int has_word(const char *text, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = text; (p = strstr(p, word)); p += n)
		if ((p == text || p[-1] == ' ') &&
		    (p[n] == 0 || p[n] == ' ' || p[n] == '\n'))
			return 1;
	return 0;
}

int kexec_on_variant(const struct kexec_env *env)
{
	char *cmdline = root_file(env_or_default(env), "/proc/cmdline", NULL);
	int ret = 0;

	for (char *p = cmdline; p && (p = strstr(p, "perflab_job=")); p++)
		if (p == cmdline || p[-1] == ' ')
			ret = 1;
	free(cmdline);
	return ret;
}

int kexec_verify(const struct kexec_env *env, const struct kexec_state *s,
		 char *why, size_t len)
{
	char release[128] = "", id[128];
	char *rel, *cmdline, *notes;
	size_t nlen;
	int ret = -1;

	env = env_or_default(env);
	rel = root_file(env, "/proc/sys/kernel/osrelease", NULL);
	if (rel)
		sscanf(rel, "%127s", release);
	free(rel);
	cmdline = root_file(env, "/proc/cmdline", NULL);
	notes = root_file(env, "/sys/kernel/notes", &nlen);
	if (strcmp(release, s->release) && cmdline &&
	    has_word(cmdline, s->token)) {
		/* The kexec happened: the image is not what its build said. */
		snprintf(why, len, "the kernel this job loaded reports release "
			 "%s, its build produced %s", release, s->release);
	} else if (strcmp(release, s->release)) {
		snprintf(why, len, "booted kernel %s, expected %s (kexec "
			 "failed or the host rebooted)", release, s->release);
	} else if (!cmdline || !has_word(cmdline, s->token)) {
		snprintf(why, len, "kernel %s runs without %s on its command "
			 "line: not the kernel this job loaded", release,
			 s->token);
	} else if (s->build_id[0] && notes &&
		   !kexec_notes_build_id((unsigned char *)notes, nlen, id,
					 sizeof(id)) &&
		   strcmp(id, s->build_id)) {
		snprintf(why, len, "build id %s, expected %s", id,
			 s->build_id);
	} else {
		ret = 0;
	}
	free(cmdline);
	free(notes);
	return ret;
}

static int run_env(const struct kexec_env *env, char *const argv[],
		   char **out)
{
	char *o = NULL;
	int ret = env->exec(env->arg, argv, &o);

	if (out)
		*out = o ? o : strdup("");
	else
		free(o);
	return ret;
}

int kexec_start(const struct exec_ctx *c, const struct kexec_env *env,
		const struct job *j, struct outcome *o)
{
	const struct runner_cfg *cfg = c->cfg;
	char *systemctl[] = { "systemctl", "kexec", NULL };
	char *unload[] = { "kexec", "-u", NULL };
	struct kexec_state s = { .stage = "booting" };
	struct kbuild_result kr = { 0 };
	char **argv = NULL;
	char *host = NULL, *cmdline = NULL, *out = NULL;
	char err[512];
	int ret = -1;

	env = env_or_default(env);
	if (kexec_check_extra(j->cmdline, err, sizeof(err))) {
		outcome_fail(o, "internal", strdup(err));
		return -1;
	}
	if (exec_build(c, j, &kr, o))
		return -1;
	host = root_file(env, "/proc/cmdline", NULL);
	kexec_token(j->id, j->lease, s.token, sizeof(s.token));
	cmdline = kexec_cmdline(host ? host : "", kexec_opts(cfg)->poll_queues,
				s.token, j->cmdline);
	argv = cmdline ? kexec_load_argv(kr.image, cmdline,
					 kexec_opts(cfg)->initrd) : NULL;
	if (!argv) {
		outcome_fail(o, "internal", strdup("out of memory"));
		goto out;
	}
	s.job = j->raw;
	snprintf(s.image, sizeof(s.image), "%s", kr.image);
	snprintf(s.release, sizeof(s.release), "%s", kr.release);
	snprintf(s.build_id, sizeof(s.build_id), "%s", kr.build_id);
	s.build = o->build;
	s.build_s = o->build_s;
	s.started = time(NULL);
	if (kexec_state_save(kexec_opts(cfg)->state_file, &s)) {
		outcome_fail(o, "internal", rutil_strdupf("saving %s: %s",
			     kexec_opts(cfg)->state_file, strerror(errno)));
		goto out;
	}
	if (run_env(env, argv, &out)) {
		unlink(kexec_opts(cfg)->state_file);
		outcome_fail(o, "boot", rutil_strdupf("kexec -l failed:\n%s",
						      out));
		goto out;
	}
	if (c->phase)
		c->phase(c->arg, "boot", "kexec into the variant kernel");
	free(out);
	if (run_env(env, systemctl, &out)) {
		run_env(env, unload, NULL);
		unlink(kexec_opts(cfg)->state_file);
		outcome_fail(o, "boot", rutil_strdupf("systemctl kexec "
			     "failed:\n%s", out));
		goto out;
	}
	ret = KEXEC_REBOOTING;
out:
	free(out);
	kexec_argv_free(argv);
	free(cmdline);
	free(host);
	kbuild_result_free(&kr);
	return ret;
}

int kexec_resume_prepare(const struct runner_cfg *cfg,
			 const struct kexec_env *env, struct job *j,
			 char *why, size_t len)
{
	struct kexec_state s;
	char err[512], bad[4200];
	int ret;

	env = env_or_default(env);
	ret = kexec_state_load(kexec_opts(cfg)->state_file, &s, err, sizeof(err));
	if (ret == 1)
		return KEXEC_NOTHING;
	if (ret < 0) {
		fprintf(stderr, "perflab-runner: %s; moved aside\n", err);
		snprintf(bad, sizeof(bad), "%s.corrupt", kexec_opts(cfg)->state_file);
		rename(kexec_opts(cfg)->state_file, bad);
		return KEXEC_NOTHING;
	}
	if (strcmp(s.stage, "booting") && strcmp(s.stage, "running")) {
		/* Back from the variant kernel (or a failed return). */
		if (!kexec_verify(env, &s, why, len))
			fprintf(stderr, "perflab-runner: still on the variant "
				"kernel after the return reboot\n");
		unlink(kexec_opts(cfg)->state_file);
		kexec_state_free(&s);
		return KEXEC_NOTHING;
	}
	if (job_from_json(s.job, j, err, sizeof(err))) {
		fprintf(stderr, "perflab-runner: kexec state job: %s\n", err);
		unlink(kexec_opts(cfg)->state_file);
		kexec_state_free(&s);
		return KEXEC_NOTHING;
	}
	ret = kexec_verify(env, &s, why, len) ? KEXEC_WRONG_KERNEL : KEXEC_RUN;
	/*
	 * "running": the variant kernel came up and the bench started, so a
	 * default kernel now means the host was reset or lost power, not
	 * that the variant failed to boot.
	 */
	if (ret == KEXEC_WRONG_KERNEL && !strcmp(s.stage, "running")) {
		snprintf(why, len, "the host restarted during the run on "
			 "kernel %s (power loss or reset; the variant had "
			 "booted and verified)", s.release);
		ret = KEXEC_RESTARTED;
	}
	kexec_state_free(&s);
	return ret;
}

int kexec_resume_run(const struct exec_ctx *c, const struct job *j,
		     struct outcome *o)
{
	struct kexec_state s;
	char err[512];

	if (kexec_state_load(kexec_opts(c->cfg)->state_file, &s, err, sizeof(err))) {
		outcome_fail(o, "internal", strdup(err));
		return -1;
	}
	snprintf(s.stage, sizeof(s.stage), "running");
	if (kexec_state_save(kexec_opts(c->cfg)->state_file, &s)) {
		kexec_state_free(&s);
		outcome_fail(o, "internal", rutil_strdupf("saving %s: %s",
			     kexec_opts(c->cfg)->state_file, strerror(errno)));
		return -1;
	}
	o->build = s.build ? json_incref(s.build) : NULL;
	o->build_s = s.build_s;
	o->boot_s = s.started ? (double)(time(NULL) - s.started) : 0;
	o->boot_log = rutil_strdupf("kexec: kernel %s token %s\n", s.release,
				    s.token);
	kexec_state_free(&s);
	return j->nruns ? toggle_local(c, j, o) : hostbench_run(c, j, o);
}

int kexec_finish(const struct runner_cfg *cfg, const struct kexec_env *env,
		 int reboot)
{
	char *argv[] = { "systemctl", "reboot", NULL };
	struct kexec_state s;
	char err[512];
	int ret;

	env = env_or_default(env);
	if (!reboot) {
		unlink(kexec_opts(cfg)->state_file);
		return 0;
	}
	if (kexec_state_load(kexec_opts(cfg)->state_file, &s, err, sizeof(err))) {
		unlink(kexec_opts(cfg)->state_file);
		return -1;
	}
	snprintf(s.stage, sizeof(s.stage), "returning");
	ret = kexec_state_save(kexec_opts(cfg)->state_file, &s);
	kexec_state_free(&s);
	if (ret || run_env(env, argv, NULL)) {
		unlink(kexec_opts(cfg)->state_file);
		return -1;
	}
	return KEXEC_REBOOTING;
}

char *kexec_failure_log(const struct runner_cfg *cfg, const char *why)
{
	char *tail = kexec_opts(cfg)->console_log ?
		     rutil_read_tail(kexec_opts(cfg)->console_log, 16384) : NULL;
	char *log;

	if (!tail || !*tail) {
		free(tail);
		return strdup(why);
	}
	/* Serial consoles end lines with \r\n. */
	for (char *r = tail; (r = strchr(r, '\r'));)
		memmove(r, r + 1, strlen(r));
	log = rutil_strdupf("%s\n--- console of the previous boot (%s, "
			    "tail) ---\n%s", why, kexec_opts(cfg)->console_log, tail);
	free(tail);
	return log;
}

void kexec_abandon(const struct runner_cfg *cfg, const struct kexec_env *env)
{
	char *argv[] = { "kexec", "-u", NULL };

	env = env_or_default(env);
	run_env(env, argv, NULL);
	unlink(kexec_opts(cfg)->state_file);
}
