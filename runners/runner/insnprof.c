// SPDX-License-Identifier: MIT
/*
 * insnprof: plugin output + symbol tables -> bench["exact_profile"].
 */
#include "runners/runner/insnprof.h"
#include "runners/runner/rutil.h"
#include "common/insn_profile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int insnprof_path_ok(const char *path)
{
	return path && *path && !strchr(path, ',');
}

static char *read_bounded(const char *path, size_t max, size_t *len)
{
	struct stat st;

	if (stat(path, &st))
		return NULL;
	if (!S_ISREG(st.st_mode) || (size_t)st.st_size > max) {
		errno = EFBIG;
		return NULL;
	}
	return rutil_read_file(path, len);
}

/* The static bench's text symbols, via nm (sorted by address). */
static int bench_symtab(const struct insnprof_src *s, struct insn_symtab *t)
{
	char *argv[] = { "nm", "-n", "--defined-only", (char *)s->bench_static,
			 NULL };
	struct rutil_cmd cmd;
	size_t len;
	char *text;
	int st, rc;

	unlink(s->scratch);
	rutil_cmd_init(&cmd, argv);
	cmd.log = s->scratch;
	cmd.timeout_s = 60;
	rc = rutil_run(&cmd, &st);
	text = rc == RUTIL_EXITED && !st ? rutil_read_file(s->scratch, &len) :
	       NULL;
	unlink(s->scratch);
	if (!text)
		return -1;
	rc = insn_symtab_parse(text, len, t);
	free(text);
	return rc;
}

static uint64_t window_ios(const json_t *bench)
{
	const json_t *sum = json_object_get(bench, "summary");
	json_int_t v = json_integer_value(json_object_get(sum, "ios_measured"));

	if (v <= 0)
		v = json_integer_value(json_object_get(sum, "window_ios"));
	return v > 0 ? (uint64_t)v : 0;
}

int insnprof_attach(json_t *bench, const struct insnprof_src *s, char *err,
		    size_t errlen)
{
	struct insn_symtab ks = { 0 }, us = { 0 };
	struct insn_prof p = { 0 };
	json_t *j = NULL;
	size_t len;
	char *text;

	text = read_bounded(s->plugin_out, INSN_PROF_MAX_BYTES, &len);
	if (!text) {
		snprintf(err, errlen, "plugin output %s: %s", s->plugin_out,
			 strerror(errno));
		return -1;
	}
	if (insn_prof_parse(text, len, &p, err, errlen))
		goto out;
	free(text);
	text = s->sysmap && *s->sysmap ?
	       read_bounded(s->sysmap, 64u << 20, &len) : NULL;
	if (!text || insn_symtab_parse(text, len, &ks)) {
		snprintf(err, errlen, "kernel System.map %s unreadable",
			 s->sysmap && *s->sysmap ? s->sysmap : "(none cached)");
		goto out;
	}
	if (bench_symtab(s, &us)) {
		snprintf(err, errlen, "nm %s failed", s->bench_static);
		goto out;
	}
	j = insn_prof_json(&p, window_ios(bench), &ks, &us, "perflab-bench",
			   err, errlen);
	if (j)
		insn_prof_attach(bench, j);
out:
	free(text);
	insn_prof_free(&p);
	insn_symtab_free(&ks);
	insn_symtab_free(&us);
	return j ? 0 : -1;
}
