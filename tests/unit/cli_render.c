// SPDX-License-Identifier: MIT
/*
 * Description: CLI output helpers: field lookup with alternatives and
 * dotted paths, regression detection over comparisons, the experiment
 * summary (title, state, variants, a failed variant's log cut to its last
 * 20 lines) and the fallback LKP row when the daemon sent no text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/render.h"
#include "unit/check.h"

static char *render(void (*fn)(FILE *, json_t *), json_t *doc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		exit(1);
	fn(f, doc);
	fclose(f);
	return buf;
}

int main(void)
{
	json_t *o, *exp;
	char log[2048] = "", *out;
	int i;

	o = json_pack("{s:{s:i},s:n,s:s,s:f}", "a", "b", 7, "n", "s", "x",
		      "r", 1.5);
	CHECK(render_num(o, "a.b") == 7);
	CHECK(render_num(o, "n|a.b") == 7);		/* null is skipped */
	CHECK(render_num(o, "r") == 1.5);
	CHECK(render_num(o, "missing") != render_num(o, "missing")); /* NAN */
	CHECK(!strcmp(render_str(o, "zz|s", "d"), "x"));
	CHECK(!strcmp(render_str(o, "a.b", "d"), "d"));	/* not a string */
	CHECK(render_get(NULL, "a") == NULL);
	json_decref(o);

	o = json_pack("{s:[{s:s},{s:s}]}", "comparison", "verdict",
		      "no change", "verdict", "regression");
	CHECK(render_has_regression(o));
	json_decref(o);
	o = json_pack("{s:[{s:s}]}", "comparisons", "verdict", "improvement");
	CHECK(!render_has_regression(o));
	json_decref(o);

	for (i = 1; i <= 25; i++)
		snprintf(log + strlen(log), sizeof(log) - strlen(log),
			 "line %d\n", i);
	exp = json_pack("{s:i,s:s,s:s,s:i,s:[{s:s,s:b,s:s,s:[]},"
			"{s:s,s:b,s:s,s:s,s:s,s:[{s:s}]}],s:[]}",
			"id", 9, "title", "my test", "state", "done",
			"runs_planned", 3, "variants",
			"name", "base", "is_control", 1, "state", "active",
			"patches",
			"name", "x", "is_control", 0, "state", "failed",
			"failure_reason", "patch_apply", "failure_log", log,
			"patches", "subject", "the subject", "comparison");
	out = render(render_experiment, exp);
	CHECK(strstr(out, "experiment 9  my test\n") != NULL);
	CHECK(strstr(out, "runs       3 per variant") != NULL);
	CHECK(strstr(out, "the subject") != NULL);
	CHECK(strstr(out, "failed: patch_apply") != NULL);
	CHECK(strstr(out, "        ...\n        | line 6\n") != NULL);
	CHECK(strstr(out, "| line 25\n") != NULL);
	CHECK(strstr(out, "| line 5\n") == NULL);
	CHECK(strstr(out, "no verdict: no variant was compared") != NULL);
	free(out);
	json_decref(exp);

	/* no daemon text: the CLI draws the LKP row and the verdict line */
	exp = json_pack("{s:[{s:s,s:s,s:s,s:f,s:f,s:f,s:f,s:f,s:i}]}",
			"comparison", "variant", "tag", "control", "base",
			"verdict", "regression", "delta_pct", -0.3,
			"ci_low", -0.31, "ci_high", -0.29, "p_value", 0.001,
			"mde_pct", 0.02, "runs", 10);
	out = render(render_verdicts, exp);
	CHECK(strstr(out, "%stddev") != NULL);
	CHECK(strstr(out, "-0.30%") != NULL);
	CHECK(strstr(out, "tag: regression  -0.300%  95% CI [-0.310%, -0.290%]  p=0.001  (MDE 0.02% at 10 runs)") != NULL);
	if (fails)
		fputs(out, stderr);
	free(out);
	json_decref(exp);

	/* identical runs, no calibration: no MDE, not "MDE 0.00%" */
	exp = json_pack("{s:[{s:s,s:s,s:s,s:f,s:n,s:b,s:i}]}",
			"comparison", "variant", "tag", "control", "base",
			"verdict", "inconclusive", "delta_pct", 0.0,
			"mde_pct", "no_noise_estimate", 1, "runs", 5);
	out = render(render_verdicts, exp);
	CHECK(strstr(out, "tag: inconclusive  +0.000%  (no noise estimate)") != NULL);
	CHECK(strstr(out, "MDE") == NULL);
	if (fails)
		fputs(out, stderr);
	free(out);
	json_decref(exp);

	if (fails)
		return 1;
	printf("ok\n");
	return 0;
}
