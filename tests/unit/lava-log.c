// SPDX-License-Identifier: MIT
/*
 * Description: LAVA's job log lines (tests/fixtures/lava/log-lines.yaml,
 * written by LAVA 2023.01's own emitter, lava_common.log.dump) read into
 * exactly what PyYAML, LAVA's reader, makes of them (log-lines.json, same
 * generator): quotes LAVA escaped, tabs, non-ASCII and \x/\u/\U escapes,
 * NUL, "! "5"" numbers, nested results, lists. The whole log then gives
 * the target text with LAVA's '\"' undone, the results, the errors and the
 * bench marker's time; malformed or hostile lines are skipped, never
 * fatal.
 */
#include <string.h>

#include "daemon/lab/lava_log.h"
#include "unit/check.h"

static void line_by_line(const char *yaml, const char *jsonl)
{
	const char *y = yaml, *j = jsonl;
	int n = 0;

	while (*y && *j) {
		const char *ye = strchr(y, '\n'), *je = strchr(j, '\n');
		char err[256];
		json_t *got = lava_log_line(y, (size_t)(ye - y), err, sizeof(err));
		json_t *want = json_loadb(j, (size_t)(je - j), JSON_ALLOW_NUL, NULL);

		CHECK(got, "line %d: %s", n + 1, err);
		CHECK(want, "fixture line %d", n + 1);
		if (got && want && !json_equal(got, want)) {
			char *a = json_dumps(got, JSON_SORT_KEYS | JSON_ENSURE_ASCII);
			char *b = json_dumps(want, JSON_SORT_KEYS | JSON_ENSURE_ASCII);

			CHECK(0, "line %d:\n got  %s\n want %s", n + 1, a, b);
			free(a);
			free(b);
		}
		json_decref(got);
		json_decref(want);
		y = ye + 1;
		j = je + 1;
		n++;
	}
	CHECK(n == 12, "%d fixture lines", n);
}

static void whole_log(const char *yaml)
{
	char err[256], *bad;
	struct lava_log l;
	size_t n;
	const char *junk = "- {\"dt\": \"x\", \"lvl\": \"target\", \"msg\": \"unterminated\n"
			   "not a record\n"
			   "- {\"lvl\": \"target\", \"msg\": {\"nested\": [[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]}}\n"
			   "- {\"lvl\": \"target\", \"msg\": \"bad \\q escape\"}\n"
			   "- {\"lvl\": \"target\", \"msg\": \"ok\"} trailing\n";

	CHECK(lava_log_parse(yaml, strlen(yaml), &l, err, sizeof(err)) == 0, "%s", err);
	CHECK(l.lines == 12 && l.bad_lines == 0, "%zu lines, %zu bad", l.lines, l.bad_lines);
	CHECK(strstr(l.target, "parameters \"nokaslr\", will") != NULL,
	      "LAVA's \\\" undone: %s", l.target);
	CHECK(strstr(l.target, "==PERFLAB-BENCH-BEGIN==\n") != NULL);
	CHECK(strstr(l.target, "\u00e9\u20ac\U0001f600") != NULL, "UTF-8 kept");
	CHECK(json_array_size(l.results) == 3, "%zu results", json_array_size(l.results));
	CHECK(json_real_value(json_object_get(json_array_get(l.results, 1),
					      "measurement")) == 5123.456789);
	CHECK(!strcmp(json_string_value(json_object_get(json_array_get(l.results, 2),
				       "error_type")), "Job"));
	CHECK(strstr(l.errors, "Requested init /perflab-no-init failed") != NULL);
	CHECK(l.bench_dt > l.first_dt && l.end_dt > l.bench_dt);
	CHECK((long)(l.bench_dt - l.first_dt) == 6, "%f", l.bench_dt - l.first_dt);
	lava_log_free(&l);

	n = strlen(yaml) + strlen(junk);
	bad = malloc(n + 1);
	strcpy(bad, junk);
	strcat(bad, yaml);
	CHECK(lava_log_parse(bad, n, &l, err, sizeof(err)) == 0);
	CHECK(l.lines == 17 && l.bad_lines == 5, "%zu lines, %zu bad", l.lines, l.bad_lines);
	CHECK(json_array_size(l.results) == 3);
	lava_log_free(&l);
	free(bad);
}

int main(void)
{
	size_t ly, lj;
	char *yaml = slurp("tests/fixtures/lava/log-lines.yaml", &ly);
	char *jsonl = slurp("tests/fixtures/lava/log-lines.json", &lj);

	if (!yaml || !jsonl) {
		printf("fixtures missing (run from the top directory)\n");
		return 1;
	}
	line_by_line(yaml, jsonl);
	whole_log(yaml);
	free(yaml);
	free(jsonl);
	DONE();
}
