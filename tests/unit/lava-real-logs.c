// SPDX-License-Identifier: MIT
/*
 * Description: real job logs of LAVA 2023.01 running perflab's guest
 * (tests/fixtures/lava/job-*.yaml, see their README) read end to end:
 * every record parses; the Complete job's console yields the bench JSON
 * that matches its size and sha256 (ns_per_io as the guest measured it)
 * and is a run; the Incomplete one (a kernel without init) is a boot
 * failure whose message carries LAVA's error type and the kernel panic
 * from LAVA's "lava"/"job" result.
 */
#include <string.h>

#include "daemon/lab/lava_console.h"
#include "daemon/lab/lava_log.h"
#include "daemon/lab/lava_result.h"
#include "unit/check.h"

static void one(const char *path, const char *health, int want_ok,
		const char *want_reason, const char *want_msg)
{
	struct lava_console con;
	struct lava_verdict v;
	struct lava_log l;
	char err[256], *text;
	size_t len;

	text = slurp(path, &len);
	CHECK(text, "%s (run from the top directory)", path);
	if (!text)
		return;
	CHECK(lava_log_parse(text, len, &l, err, sizeof(err)) == 0, "%s", err);
	CHECK(l.bad_lines == 0, "%s: %zu of %zu records did not parse", path,
	      l.bad_lines, l.lines);
	lava_console_parse(l.target, l.target_len, &con);
	CHECK(lava_classify(health, NULL, l.results, &con, &v) == 0);
	CHECK(v.ok == want_ok, "%s: ok %d (%s)", path, v.ok, v.message);
	if (want_ok) {
		json_t *b = json_loads(con.json, 0, NULL);
		double ns = json_real_value(json_object_get(json_object_get(b,
					    "summary"), "ns_per_io"));

		CHECK(b && ns > 1900 && ns < 2100, "ns_per_io %f", ns);
		CHECK(l.bench_dt > l.first_dt, "the bench's start is dated");
		json_decref(b);
	} else {
		CHECK(v.reason && !strcmp(v.reason, want_reason), "%s: reason %s",
		      path, v.reason);
		CHECK(strstr(v.message, want_msg) != NULL, "%s: message %s", path,
		      v.message);
	}
	lava_console_free(&con);
	lava_log_free(&l);
	free(text);
}

int main(void)
{
	one("tests/fixtures/lava/job-complete.yaml", "Complete", 1, NULL, NULL);
	one("tests/fixtures/lava/job-incomplete.yaml", "Incomplete", 0, "boot",
	    "LAVA job Incomplete (Job): Kernel panic - not syncing");
	DONE();
}
