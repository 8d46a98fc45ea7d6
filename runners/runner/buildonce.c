// SPDX-License-Identifier: MIT
/*
 * buildonce: config hashes, Redis credentials, build tasks.
 */
#include "runners/runner/buildonce.h"
#include "runners/runner/hb.h"
#include "runners/runner/kbuild.h"
#include "runners/runner/rutil.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

json_t *buildonce_configs(const struct runner_cfg *cfg)
{
	json_t *o = json_object();
	struct dirent *e;
	DIR *d = opendir(cfg->configs);
	char path[4400], name[72], hash[65];

	while (d && (e = readdir(d)) && json_object_size(o) < 64) {
		size_t n = strlen(e->d_name);

		if (n <= 7 || n - 7 >= sizeof(name) ||
		    strcmp(e->d_name + n - 7, ".config"))
			continue;
		snprintf(name, sizeof(name), "%.*s", (int)(n - 7), e->d_name);
		if (strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_-") !=
		    strlen(name))
			continue;
		snprintf(path, sizeof(path), "%s/%s", cfg->configs, e->d_name);
		if (!kbuild_config_hash(path, cfg->base_config, hash))
			json_object_set_new(o, name, json_string(hash));
	}
	if (d)
		closedir(d);
	return o;
}

/* A user name or password that survives a ccache URL: no @ : | / space. */
static int url_safe(const char *s)
{
	size_t n = strlen(s);

	return n > 0 && n < 128 && strspn(s, "abcdefghijklmnopqrstuvwxyz"
		"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-+=") == n;
}

int buildonce_redis_auth(const char *file, struct kbuild_ccache *cc, char *err,
			 size_t errlen)
{
	char *text = rutil_read_file(file, NULL), *save, *line;
	char kind[8], user[128], pass[128];

	if (!text)
		return snprintf(err, errlen, "%s: cannot read", file), -1;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#' || sscanf(line, "%7s %127s %127s", kind, user,
					     pass) != 3)
			continue;
		if (!url_safe(user) || !url_safe(pass)) {
			free(text);
			return snprintf(err, errlen, "%s: user names and passwords"
					" are [A-Za-z0-9._+=-]", file), -1;
		}
		if (!strcmp(kind, "rw")) {
			cc->rw_user = strdup(user);
			cc->rw_pass = strdup(pass);
		} else if (!strcmp(kind, "ro")) {
			cc->ro_user = strdup(user);
			cc->ro_pass = strdup(pass);
		}
	}
	free(text);
	if (!cc->rw_user || !cc->ro_user)
		return snprintf(err, errlen, "%s: needs an \"rw USER PASSWORD\""
				" and an \"ro USER PASSWORD\" line", file), -1;
	return 0;
}

static void task_phase(void *arg, const char *phase, const char *msg)
{
	if (hb_phase(arg, phase, msg))
		fprintf(stderr, "perflab-runner: phase %s: %s\n", phase, msg);
}

void buildonce_task(const struct proto *p, const struct runner_cfg *cfg,
		    const struct job *j, const volatile sig_atomic_t *stop)
{
	struct exec_ctx c = { .cfg = cfg, .proto = p };
	struct outcome out = { 0 };
	struct kbuild_result kr = { 0 };
	struct hb h;

	fprintf(stderr, "perflab-runner: build task %lld: experiment %lld"
		" variant %s, image %.12s\n", j->build_id, j->experiment_id,
		j->variant, j->image_key ? j->image_key : "?");
	if (hb_start_build(&h, p, j->build_id, j->lease, j->lease_seconds, stop)) {
		proto_build_fail(p, j->build_id, j->lease, "internal",
				 "cannot start heartbeat thread");
		return;
	}
	c.abort = &h.abort;
	c.phase = task_phase;
	c.arg = &h;
	if (!exec_build(&c, j, &kr, &out))
		kbuild_result_free(&kr);
	else if (!out.reason)
		outcome_fail(&out, "internal", strdup("build failed"));
	if (!out.reason && out.image_stored != 1)
		outcome_fail(&out, "internal", strdup("the image was built but"
			     " not stored"));
	if (h.lost) {
		fprintf(stderr, "perflab-runner: build task %lld: lease lost\n",
			j->build_id);
	} else if (out.reason) {
		hb_finish(&h, out.reason);
		fprintf(stderr, "perflab-runner: build task %lld failed (%s)\n",
			j->build_id, out.reason);
		proto_build_fail(p, j->build_id, j->lease, out.reason, out.log);
	} else {
		fprintf(stderr, "perflab-runner: build task %lld done\n",
			j->build_id);
	}
	hb_stop(&h);
	outcome_free(&out);
}
