// SPDX-License-Identifier: MIT
/*
 * Description: the runner's half of a toggle boot (runners/runner/toggle.c)
 * on hand-made console captures: the /toggle plan lists each run's job,
 * settings and "bench" in the claim's order; a capture that grows frame by
 * frame hands each run to run_done once, when its RUN-END line is
 * complete (not before, not twice), with the boot id and position from its
 * RUN line and the bench JSON whose sha256 it checked; a frame whose
 * result is corrupt is a "bench" failure of that run; job=1 does not match
 * job=12; after the boot, an unfinished run whose setting the kernel
 * refused is "setting" with the guest's words (no marker, no \r), one
 * that never started is "boot".
 */
#include <stdlib.h>
#include <string.h>

#include "runners/runner/rutil.h"
#include "runners/runner/toggle.h"
#include "unit/check.h"

static const char json[] = "{\"version\":1,\"samples\":[{\"t\":1}],"
			   "\"summary\":{\"mean\":1.0}}";

struct seen {
	int n, idx[8], pos[8];
	char boot[8][64];
	const char *reason[8];
};

static void done(void *arg, int i, struct outcome *o)
{
	struct seen *s = arg;

	s->idx[s->n] = i;
	s->pos[s->n] = o->boot_pos;
	snprintf(s->boot[s->n], sizeof(s->boot[0]), "%s", o->boot_id);
	s->reason[s->n] = o->reason;
	s->n++;
}

static char *frame(long long job, int pos, const char *sha)
{
	char h[65];

	rutil_sha256_hex(json, strlen(json), h);
	return rutil_strdupf("==PERFLAB-RUN== job=%lld pos=%d boot=b00t-1\r\n"
			     "perflab: /sys/x = 1\r\n"
			     "==PERFLAB-BENCH-BEGIN==\r\nIOPS=1\r\n"
			     "==PERFLAB-BENCH-END== rc=0\r\n"
			     "==PERFLAB-RESULT-BEGIN==\r\n%s\r\n"
			     "==PERFLAB-RESULT-END== bytes=%zu sha256=%s\r\n"
			     "==PERFLAB-RUN-END== job=%lld\r\n", job, pos, json,
			     strlen(json), sha ? sha : h, job);
}

int main(void)
{
	json_t *claim = json_pack("{s:I,s:s,s:{s:s},s:{},s:{s:[{s:I,s:s,s:i,s:{s:s,s:{s:s}}},"
				  "{s:I,s:s,s:i,s:{s:s,s:{s:s}}},{s:I,s:s,s:i,s:{s:s,s:{s:s}}}]}}",
		"job_id", (json_int_t)12, "lease", "L12", "variant", "name", "a",
		"bench", "toggle", "runs",
		"job_id", (json_int_t)12, "lease", "L12", "run_index", 0, "variant",
		"name", "a", "settings", "/sys/module/perflab/parameters/canary", "0",
		"job_id", (json_int_t)1, "lease", "L1", "run_index", 0, "variant",
		"name", "b", "settings", "/sys/module/perflab/parameters/canary", "256",
		"job_id", (json_int_t)13, "lease", "L13", "run_index", 1, "variant",
		"name", "b", "settings", "/proc/sys/kernel/io_uring_iter_save", "0");
	struct seen s = { 0 };
	struct exec_ctx c = { .run_done = done, .run_arg = &s };
	struct outcome boot = { 0 }, o = { 0 };
	struct toggle_console tc;
	struct job j;
	char err[256], *f1, *f2, *f3, *cap, *plan;
	size_t len;

	CHECK(claim != NULL);
	CHECK(job_from_json(claim, &j, err, sizeof(err)) == 0, "%s", err);
	CHECK(j.nruns == 3);
	plan = toggle_plan(&j);
	CHECK(plan && !strcmp(plan,
		"run 12\nset /sys/module/perflab/parameters/canary 0\nbench\n"
		"run 1\nset /sys/module/perflab/parameters/canary 256\nbench\n"
		"run 13\nset /proc/sys/kernel/io_uring_iter_save 0\nbench\n"), "%s", plan);

	tc = (struct toggle_console){ .c = &c, .j = &j, .boot = &boot };
	f1 = frame(12, 0, NULL);
	f2 = frame(1, 1, NULL);
	f3 = frame(13, 2, "0000000000000000000000000000000000000000000000000000000000000000");
	cap = rutil_strdupf("Linux version 6.1\r\n%s%s%s==PERFLAB-DONE==\r\n", f1, f2, f3);
	/* Growing capture: half of frame 1, then up to just before the end
	 * line's newline of frame 2, then everything, then again. */
	len = strlen("Linux version 6.1\r\n") + strlen(f1) / 2;
	toggle_on_console(&tc, cap, len);
	CHECK(s.n == 0, "a half frame is not a run");
	len = strlen("Linux version 6.1\r\n") + strlen(f1) + strlen(f2) - 1;
	toggle_on_console(&tc, cap, len);
	CHECK(s.n == 1 && s.idx[0] == 0 && !s.reason[0], "n %d", s.n);
	CHECK(!strcmp(s.boot[0], "b00t-1") && s.pos[0] == 0);
	toggle_on_console(&tc, cap, strlen(cap));
	toggle_on_console(&tc, cap, strlen(cap));
	CHECK(s.n == 3, "each run once: %d", s.n);
	CHECK(s.idx[1] == 1 && !s.reason[1] && s.pos[1] == 1, "job=1 is not job=12's frame");
	CHECK(s.idx[2] == 2 && s.reason[2] && !strcmp(s.reason[2], "bench"), "corrupt result");

	/* After a boot that stopped at run 2: refused, and never started. */
	free(cap);
	cap = rutil_strdupf("%s==PERFLAB-SETTING-REFUSED== job=1 /sys/module/perflab/"
			    "parameters/canary: writing '256' failed: sh: write error:"
			    " Numerical result out of range\r\n==PERFLAB-DONE==\r\n", f1);
	toggle_unfinished(&j, 1, cap, strlen(cap), &o);
	CHECK(o.reason && !strcmp(o.reason, "setting"));
	CHECK(!strcmp(o.log, "variant 'b': the kernel refused a setting: "
		      "/sys/module/perflab/parameters/canary: writing '256' failed:"
		      " sh: write error: Numerical result out of range"), "%s", o.log);
	outcome_free(&o);
	toggle_unfinished(&j, 2, cap, strlen(cap), &o);
	CHECK(o.reason && !strcmp(o.reason, "boot"));
	outcome_free(&o);

	/* A setting path the daemon would refuse is refused here too. */
	json_object_set_new(json_object_get(json_array_get(json_object_get(
		json_object_get(claim, "toggle"), "runs"), 0), "variant"), "settings",
		json_pack("{s:s}", "/sys/../etc/passwd", "x"));
	job_free(&j);
	CHECK(job_from_json(claim, &j, err, sizeof(err)) == -1 && strstr(err, ".."), "%s", err);
	free(f1);
	free(f2);
	free(f3);
	free(cap);
	free(plan);
	json_decref(claim);
	DONE();
}
