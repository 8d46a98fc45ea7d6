// SPDX-License-Identifier: MIT
/*
 * Description: a finished LAVA job becomes a run or a failure reason. The
 * console (what perflab-lava-bench prints: the guest markers, the JSON in
 * base64 with its size and sha256) yields the bench JSON only when it is
 * whole and matches; a changed byte, a cut, bad base64 or a wrong size is
 * refused. LAVA's health and the error_type of its "lava"/"job" result
 * (the dict /usr/bin/lava-run of LAVA 2023.01 writes last; its types from
 * lava_common/exceptions.py) map to the reasons of lava_result.h:
 * Canceled and Infrastructure/Configuration/Bug -> infrastructure, a bench
 * that never started -> boot, one that left no result -> bench; a
 * verified result is a run even when LAVA calls the job Incomplete; a job
 * that is not finished decides nothing. The exact-profile dump of the
 * insn plugin is cut out of the console by its frame.
 */
#include <openssl/evp.h>
#include <openssl/sha.h>
#include <string.h>

#include "daemon/lab/lava_console.h"
#include "daemon/lab/lava_result.h"
#include "unit/check.h"

static const char json[] = "{\"version\": 1, \"tool\": \"perflab-bench\","
			   " \"summary\": {\"mean\": 1.0, \"ns_per_io\": 1990.294655}}";

/* A console as the guest prints it; @damage: 0 none, 1 a byte, 2 size,
 * 3 cut before the end marker, 4 bad base64. */
static char *console(int damage, const char *extra)
{
	unsigned char md[SHA256_DIGEST_LENGTH], b64[400];
	char hex[65], *out;
	int n = EVP_EncodeBlock(b64, (const unsigned char *)json, (int)strlen(json));

	SHA256((const unsigned char *)json, strlen(json), md);
	for (int i = 0; i < SHA256_DIGEST_LENGTH; i++)
		sprintf(hex + 2 * i, "%02x", md[i]);
	if (damage == 1)
		b64[10] = b64[10] == 'A' ? 'B' : 'A';
	if (damage == 4)
		b64[5] = '*';
	/* 76 columns like busybox base64 */
	char wrapped[500] = "";
	for (int i = 0; i < n; i += 76)
		snprintf(wrapped + strlen(wrapped), sizeof(wrapped) - strlen(wrapped),
			 "%.76s\n", (char *)b64 + i);
	if (asprintf(&out, "Linux version 6.1.192-perflab\nperflab-lava# [6n/lava-1/bin/lava-test-runner\n"
		     "%s==PERFLAB-BENCH-BEGIN==\nIOPS=504416, IOS/call=32/32, inflight=(0)\n"
		     "==PERFLAB-BENCH-END== rc=0\n==PERFLAB-RESULT-BEGIN==\n%s%s",
		     extra ? extra : "", wrapped,
		     damage == 3 ? "" : "") < 0)
		return NULL;
	if (damage != 3) {
		char *o2;

		if (asprintf(&o2, "%s==PERFLAB-RESULT-END== bytes=%zu sha256=%s\n"
			     "==PERFLAB-DONE==\n<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=perflab-bench RESULT=pass>\n",
			     out, strlen(json) + (damage == 2), hex) < 0)
			return NULL;
		free(out);
		out = o2;
	}
	return out;
}

static void consoles(void)
{
	struct lava_console c;
	char *t;

	t = console(0, NULL);
	lava_console_parse(t, strlen(t), &c);
	CHECK(c.status == LAVA_CON_OK, "%s", c.msg);
	CHECK(c.json && !strcmp(c.json, json), "the JSON comes back byte for byte");
	CHECK(c.bench_rc == 0 && !c.insn);
	lava_console_free(&c);
	free(t);
	for (int d = 1; d <= 4; d++) {
		t = console(d, NULL);
		lava_console_parse(t, strlen(t), &c);
		CHECK(c.status == LAVA_CON_BAD_RESULT && !c.json, "damage %d: %s", d, c.msg);
		lava_console_free(&c);
		free(t);
	}
	t = "Linux version 6.1.192\nKernel panic - not syncing: Requested init /x failed\n";
	lava_console_parse(t, strlen(t), &c);
	CHECK(c.status == LAVA_CON_NO_BENCH);
	lava_console_free(&c);
	t = "perflab-lava# \n==PERFLAB-ERROR== no block device /dev/nullb0 (kernel config or device?)\n";
	lava_console_parse(t, strlen(t), &c);
	CHECK(c.status == LAVA_CON_NO_BENCH && strstr(c.msg, "no block device"), "%s", c.msg);
	lava_console_free(&c);
	t = "==PERFLAB-BENCH-BEGIN==\nperflab-bench: polling not possible\n==PERFLAB-BENCH-END== rc=1\n"
	    "==PERFLAB-ERROR== perflab-bench exited 1\n";
	lava_console_parse(t, strlen(t), &c);
	CHECK(c.status == LAVA_CON_BENCH_FAILED && c.bench_rc == 1 &&
	      strstr(c.msg, "exited 1"), "%s", c.msg);
	lava_console_free(&c);
	/* The plugin's frame, written while the guest waits. */
	t = console(0, "\n==PERFLAB-INSN-BEGIN==\nperflab-insn 1\nmarkers 1 1\nwindow closed\n"
		       "blocks 2\ntotal 30\naddrs 2\nffffffff81000000 10\n401000 20\nend\n"
		       "==PERFLAB-INSN-END==\n");
	lava_console_parse(t, strlen(t), &c);
	CHECK(c.status == LAVA_CON_OK, "%s", c.msg);
	CHECK(c.insn && !strncmp(c.insn, "perflab-insn 1\n", 15) &&
	      c.insn_len >= 4 && !strcmp(c.insn + c.insn_len - 4, "end\n"),
	      "insn block: %s", c.insn ? c.insn : "(none)");
	lava_console_free(&c);
	free(t);
}

static json_t *job_result(const char *type, const char *msg)
{
	/* /usr/bin/lava-run's result_dict, LAVA 2023.01 */
	return json_pack("[{s:s,s:s,s:s,s:s,s:s}]", "definition", "lava", "case",
			 "job", "result", "fail", "error_msg", msg, "error_type", type);
}

static void mapping(void)
{
	struct lava_console ok, noboot, nobench;
	struct lava_verdict v;
	char *t = console(0, NULL);
	const char *nb = "Linux version\n";
	const char *nr = "==PERFLAB-BENCH-BEGIN==\nIOPS=1\n";
	json_t *r;
	static const struct {
		const char *health, *type;
		struct lava_console *con;
		int ok;
		const char *reason;
	} cases[] = {
		{ "Complete", NULL, NULL, 1, NULL },
		{ "Incomplete", "Infrastructure", NULL, 1, NULL },
		{ "Canceled", "Canceled", NULL, 1, NULL },
		{ "Incomplete", "Infrastructure", (void *)1, 0, "infrastructure" },
		{ "Incomplete", "Configuration", (void *)1, 0, "infrastructure" },
		{ "Incomplete", "Bug", (void *)2, 0, "infrastructure" },
		{ "Canceled", "Canceled", (void *)1, 0, "infrastructure" },
		{ "Canceled", NULL, (void *)2, 0, "infrastructure" },
		{ "Incomplete", "Job", (void *)1, 0, "boot" },
		{ "Incomplete", "LAVATimeout", (void *)1, 0, "boot" },
		{ "Incomplete", "Test", (void *)2, 0, "bench" },
		{ "Incomplete", "LAVATimeout", (void *)2, 0, "bench" },
		{ "Complete", NULL, (void *)1, 0, "boot" },
		{ "Complete", NULL, (void *)2, 0, "bench" },
	};

	lava_console_parse(t, strlen(t), &ok);
	lava_console_parse(nb, strlen(nb), &noboot);
	lava_console_parse(nr, strlen(nr), &nobench);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct lava_console *c = cases[i].con == NULL ? &ok :
					 cases[i].con == (void *)1 ? &noboot : &nobench;

		r = cases[i].type ? job_result(cases[i].type, "Kernel panic") : NULL;
		CHECK(lava_classify(cases[i].health, "Job timed out", r, c, &v) == 0);
		CHECK(v.ok == cases[i].ok, "case %zu: ok %d", i, v.ok);
		if (!cases[i].ok) {
			CHECK(v.reason && !strcmp(v.reason, cases[i].reason),
			      "case %zu (%s %s): %s", i, cases[i].health,
			      cases[i].type ? cases[i].type : "-", v.reason);
			CHECK(strstr(v.message, cases[i].health) &&
			      (!cases[i].type || strstr(v.message, cases[i].type)),
			      "case %zu: LAVA's words in '%s'", i, v.message);
		}
		json_decref(r);
	}
	CHECK(lava_classify("Unknown", NULL, NULL, &ok, &v) == -1, "a running job decides nothing");
	CHECK(lava_classify(NULL, NULL, NULL, &ok, &v) == -1);
	lava_console_free(&ok);
	lava_console_free(&noboot);
	lava_console_free(&nobench);
	free(t);
}

int main(void)
{
	consoles();
	mapping();
	DONE();
}
