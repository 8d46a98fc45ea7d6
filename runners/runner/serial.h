/* SPDX-License-Identifier: MIT */
/*
 * serial: what the guest's init prints on the console, and its parser.
 *
 *   ==PERFLAB-BENCH-BEGIN==
 *   ...perflab-bench output (IOPS=... lines)...
 *   ==PERFLAB-BENCH-END== rc=N
 *   ==PERFLAB-RESULT-BEGIN==
 *   ...bench JSON (the -j file), then one newline...
 *   ==PERFLAB-RESULT-END== bytes=N sha256=HEX
 *   ==PERFLAB-DONE==
 * or, when init cannot run the bench:
 *   ==PERFLAB-ERROR== message
 * Lines may end in \r\n (tty onlcr); kernel messages may precede markers.
 */
#ifndef PERFLAB_SERIAL_H
#define PERFLAB_SERIAL_H

#include <stddef.h>

#include "common/guest_markers.h"

enum serial_phase {
	SERIAL_BOOTING = 0,	/* no marker yet */
	SERIAL_RUNNING,		/* bench started */
	SERIAL_FINISHED,	/* done or error marker seen */
};

enum serial_status {
	SERIAL_OK = 0,		/* json holds the verified bench JSON */
	SERIAL_NO_BENCH,	/* guest never started the bench: boot */
	SERIAL_BENCH_FAILED,	/* bench ran and failed, or init error */
	SERIAL_BAD_RESULT,	/* truncated or checksum mismatch */
};

struct serial_result {
	enum serial_status status;
	int bench_rc;		/* -1 if unknown */
	char *json;		/* heap, NUL-terminated; NULL unless OK */
	size_t json_len;
	char *bench_log;	/* heap: bench output between markers */
	char msg[512];		/* why, when not OK */
};

enum serial_phase serial_phase(const char *text, size_t len);
/* Parse a whole console capture (\r removed internally). */
void serial_parse(const char *text, size_t len, struct serial_result *r);
void serial_result_free(struct serial_result *r);

#endif
