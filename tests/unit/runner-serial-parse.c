// SPDX-License-Identifier: MIT
/*
 * Description: the runner extracts the bench JSON from a guest console
 * capture (CRLF line ends, kernel messages around it), verifies its
 * length and sha256, and classifies every failure: no boot, bench error,
 * init error, truncated or corrupted result.
 */
#include <stdlib.h>
#include <string.h>

#include "runners/runner/rutil.h"
#include "runners/runner/serial.h"
#include "unit/check.h"

static const char json[] = "{\"version\":1,\"samples\":[{\"t\":1}],"
			   "\"summary\":{\"mean\":1.0}}";

static char *console(const char *json_text, const char *sha, int rc,
		     int cut)
{
	char h[65];
	char *s;

	rutil_sha256_hex(json_text, strlen(json_text), h);
	s = rutil_strdupf(
		"Linux version 6.1.0-perflab\r\nnull_blk: module loaded\r\n"
		"Run /init as init process\r\n"
		"==PERFLAB-BENCH-BEGIN==\r\nIOPS=234512, IOS/call=32/31, "
		"inflight=(75)\r\n==PERFLAB-BENCH-END== rc=%d\r\n"
		"==PERFLAB-RESULT-BEGIN==\r\n%s\r\n"
		"==PERFLAB-RESULT-END== bytes=%zu sha256=%s\r\n"
		"==PERFLAB-DONE==\r\nreboot: Power down\r\n", rc, json_text,
		strlen(json_text), sha ? sha : h);
	if (cut)
		*strstr(s, "==PERFLAB-RESULT-END") = 0;
	return s;
}

static struct serial_result parse(const char *s)
{
	struct serial_result r;

	serial_parse(s, strlen(s), &r);
	return r;
}

int main(void)
{
	struct serial_result r;
	char *s;

	s = console(json, NULL, 0, 0);
	CHECK(serial_phase(s, strlen(s)) == SERIAL_FINISHED);
	r = parse(s);
	CHECK(r.status == SERIAL_OK);
	CHECK(r.json && !strcmp(r.json, json));
	CHECK(r.bench_rc == 0);
	CHECK(r.bench_log && strstr(r.bench_log, "IOPS=234512"));
	serial_result_free(&r);
	free(s);

	/* Corrupted byte in transit. */
	s = console(json, NULL, 0, 0);
	*strstr(s, "samples") = 'S';
	r = parse(s);
	CHECK(r.status == SERIAL_BAD_RESULT && strstr(r.msg, "sha256"));
	CHECK(!r.json);
	serial_result_free(&r);
	free(s);

	/* Truncated: guest died while printing. */
	s = console(json, NULL, 0, 1);
	r = parse(s);
	CHECK(r.status == SERIAL_BAD_RESULT && strstr(r.msg, "truncated"));
	serial_result_free(&r);
	free(s);

	/* Bench failed. */
	s = console(json, NULL, 3, 0);
	r = parse(s);
	CHECK(r.status == SERIAL_BENCH_FAILED && r.bench_rc == 3);
	CHECK(strstr(r.msg, "exited 3"));
	serial_result_free(&r);
	free(s);

	/* Kernel panic before init. */
	s = strdup("Linux version 6.1.0\r\nKernel panic - not syncing: VFS\r\n");
	CHECK(serial_phase(s, strlen(s)) == SERIAL_BOOTING);
	r = parse(s);
	CHECK(r.status == SERIAL_NO_BENCH && strstr(r.msg, "never started"));
	serial_result_free(&r);
	free(s);

	/* Bench started, then the guest hung. */
	s = strdup("boot\r\n==PERFLAB-BENCH-BEGIN==\r\nIOPS=1\r\n");
	CHECK(serial_phase(s, strlen(s)) == SERIAL_RUNNING);
	r = parse(s);
	CHECK(r.status == SERIAL_BENCH_FAILED && strstr(r.msg, "did not finish"));
	serial_result_free(&r);
	free(s);

	/* init could not find the device. */
	s = strdup("boot\r\n==PERFLAB-ERROR== no block device /dev/nvme0n1\r\n");
	CHECK(serial_phase(s, strlen(s)) == SERIAL_FINISHED);
	r = parse(s);
	CHECK(r.status == SERIAL_NO_BENCH && strstr(r.msg, "/dev/nvme0n1"));
	serial_result_free(&r);
	free(s);

	/* A marker mid-line (e.g. echoed by a kernel message) is ignored. */
	s = strdup("x ==PERFLAB-BENCH-BEGIN==\r\n");
	CHECK(serial_phase(s, strlen(s)) == SERIAL_BOOTING);
	free(s);
	DONE();
}
