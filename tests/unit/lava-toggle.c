// SPDX-License-Identifier: MIT
/*
 * Description: a toggle boot as one LAVA job (lava_toggle.h). The test
 * step runs perflab-lava-bench once per run in the claim's order, joined
 * by "&&", each with its job, position and settings (written out here
 * by hand); a setting that breaks common/rtsetting.h's rules (a space, a
 * shell character, a path outside /sys and /proc/sys) or more than
 * LAVA_TOGGLE_MAX_RUNS runs renders nothing. Back from the console, each
 * frame is cut at its own job's end marker (job=1 is not job=12, another
 * job's end marker does not close it), a frame cut short is incomplete,
 * a refused setting keeps the guest's words, and a complete frame holds
 * the whole verified bench result (lava_console_parse on the frame alone).
 */
#include <openssl/evp.h>
#include <openssl/sha.h>
#include <string.h>

#include "daemon/lab/lava_console.h"
#include "daemon/lab/lava_toggle.h"
#include "unit/check.h"

static const char json[] = "{\"version\": 1, \"tool\": \"perflab-bench\","
			   " \"summary\": {\"mean\": 1.0}}";

/* One run as perflab-lava-bench frames it, its result whole. */
static void run_frame(char *buf, size_t len, int job, int pos)
{
	unsigned char md[SHA256_DIGEST_LENGTH], b64[200];
	char hex[65];

	EVP_EncodeBlock(b64, (const unsigned char *)json, (int)strlen(json));
	SHA256((const unsigned char *)json, strlen(json), md);
	for (int i = 0; i < SHA256_DIGEST_LENGTH; i++)
		sprintf(hex + 2 * i, "%02x", md[i]);
	snprintf(buf + strlen(buf), len - strlen(buf),
		 "==PERFLAB-RUN== job=%d pos=%d boot=b00t-1\n"
		 "perflab: /sys/module/perflab/parameters/canary = %d\n"
		 "==PERFLAB-BENCH-BEGIN==\nIOPS=1\n==PERFLAB-BENCH-END== rc=0\n"
		 "==PERFLAB-RESULT-BEGIN==\n%s\n==PERFLAB-RESULT-END== bytes=%zu"
		 " sha256=%s\n==PERFLAB-DONE==\n==PERFLAB-RUN-END== job=%d\n",
		 job, pos, pos * 8, b64, strlen(json), hex, job);
}

static void command(void)
{
	json_t *runs = json_loads("[{\"job_id\": 12, \"variant\": {\"settings\":"
		" {\"/sys/module/perflab/parameters/canary\": \"0\"}}},"
		" {\"job_id\": 13, \"variant\": {\"settings\": {"
		"\"/proc/sys/vm/dirty_ratio\": \"5\","
		" \"/sys/module/perflab/parameters/canary\": \"256\"}}},"
		" {\"job_id\": 14, \"variant\": {}}]", 0, NULL);
	char err[256] = "", *cmd;

	cmd = lava_toggle_command(runs, "nullb", "-d 128 -t 3", err, sizeof(err));
	CHECK(cmd && !strcmp(cmd,
		"/bin/perflab-lava-bench --run 12 0 --set"
		" /sys/module/perflab/parameters/canary 0 nullb -d 128 -t 3"
		" && /bin/perflab-lava-bench --run 13 1 --set /proc/sys/vm/dirty_ratio 5"
		" --set /sys/module/perflab/parameters/canary 256 nullb -d 128 -t 3"
		" && /bin/perflab-lava-bench --run 14 2 nullb -d 128 -t 3"),
	      "%s (%s)", cmd ? cmd : "NULL", err);
	free(cmd);
	json_decref(runs);

	static const char *const bad[] = {
		"{\"/sys/a b\": \"1\"}", "{\"/sys/x\": \"1;reboot\"}",
		"{\"/etc/passwd\": \"1\"}", "{\"/sys/../etc/x\": \"1\"}",
		"{\"/sys/x\": \"$(id)\"}", "{\"/sys/x\": 1}", NULL };
	for (int i = 0; bad[i]; i++) {
		char text[200];

		snprintf(text, sizeof(text), "[{\"job_id\": 1, \"variant\":"
			 " {\"settings\": %s}}]", bad[i]);
		runs = json_loads(text, 0, NULL);
		err[0] = 0;
		cmd = lava_toggle_command(runs, "nullb", "", err, sizeof(err));
		CHECK(!cmd && err[0], "%s rendered: %s", bad[i], cmd);
		free(cmd);
		json_decref(runs);
	}
	runs = json_array();
	for (int i = 0; i <= LAVA_TOGGLE_MAX_RUNS; i++)
		json_array_append_new(runs, json_pack("{s:i}", "job_id", i + 1));
	cmd = lava_toggle_command(runs, "nullb", "", err, sizeof(err));
	CHECK(!cmd && strstr(err, "runs"), "%d runs: %s", LAVA_TOGGLE_MAX_RUNS + 1, err);
	free(cmd);
	json_array_remove(runs, 0);
	cmd = lava_toggle_command(runs, "nullb", "", err, sizeof(err));
	CHECK(cmd, "%d runs refused: %s", LAVA_TOGGLE_MAX_RUNS, err);
	free(cmd);
	json_decref(runs);
}

static void frames(void)
{
	struct lava_frame fr[8];
	struct lava_console con;
	char text[8192] = "Linux version 6.1\nperflab-lava# /bin/perflab-lava-bench"
			  " --run 1 0 nullb && /bin/perflab-lava-bench --run 12 1\n";
	int n;

	run_frame(text, sizeof(text), 1, 0);
	/* job 12: another job's end marker inside, then its own */
	strcat(text, "==PERFLAB-RUN== job=12 pos=1 boot=b00t-1\n"
		     "==PERFLAB-RUN-END== job=1\n==PERFLAB-RUN-END== job=123\n"
		     "==PERFLAB-RUN-END== job=12\n");
	/* not a job: skipped */
	strcat(text, "==PERFLAB-RUN== job=0 pos=9 boot=x\n");
	strcat(text, "==PERFLAB-RUN== job=13 pos=2 boot=b00t-1\n"
		     "==PERFLAB-SETTING-REFUSED== job=13 /sys/x: wrote '9', reads"
		     " back '0'\r\n");
	strcat(text, "==PERFLAB-RUN== job=14 pos=3 boot=b00t-1\n"
		     "==PERFLAB-BENCH-BEGIN==\nIOPS=1\n");
	n = lava_toggle_frames(text, strlen(text), fr, 8);
	CHECK(n == 4, "%d frames", n);
	if (n != 4)
		return;
	CHECK(fr[0].job_id == 1 && fr[0].pos == 0 && fr[0].complete &&
	      !strcmp(fr[0].boot_id, "b00t-1") && !fr[0].refused[0]);
	lava_console_parse(text + fr[0].off, fr[0].len, &con);
	CHECK(con.status == LAVA_CON_OK && con.json_len == strlen(json) &&
	      !memcmp(con.json, json, con.json_len), "frame 1: %d %s",
	      con.status, con.msg);
	lava_console_free(&con);
	CHECK(fr[1].job_id == 12 && fr[1].pos == 1 && fr[1].complete);
	CHECK(strstr(text + fr[1].off, "==PERFLAB-RUN-END== job=12\n") ==
	      text + fr[1].off + fr[1].len - strlen("==PERFLAB-RUN-END== job=12\n"),
	      "job 12's frame ends at its own end marker");
	CHECK(fr[2].job_id == 13 && !fr[2].complete &&
	      !strcmp(fr[2].refused, "/sys/x: wrote '9', reads back '0'"),
	      "refused: '%s'", fr[2].refused);
	CHECK(fr[3].job_id == 14 && !fr[3].complete && !fr[3].refused[0] &&
	      fr[3].off + fr[3].len == strlen(text));
	lava_console_parse(text + fr[3].off, fr[3].len, &con);
	CHECK(con.status != LAVA_CON_OK, "a cut frame has no result");
	lava_console_free(&con);
	CHECK(lava_toggle_frames(text, strlen(text), fr, 2) == 2, "at most max");
	CHECK(lava_toggle_frames("no frames\n", 10, fr, 8) == 0);
}

int main(void)
{
	command();
	frames();
	DONE();
}
