/* SPDX-License-Identifier: MIT */
/*
 * lava_console: what the LAVA guest printed (the target text of
 * lava_log.h) -> the run. perflab-lava-bench (runners/runner/
 * initramfs.h) frames the bench with common/guest_markers.h's lines:
 *
 *   ==PERFLAB-BENCH-BEGIN==
 *   ...perflab-bench output...
 *   ==PERFLAB-BENCH-END== rc=N
 *   ==PERFLAB-RESULT-BEGIN==
 *   ...the bench JSON, base64, 76 columns...
 *   ==PERFLAB-RESULT-END== bytes=N sha256=HEX
 *   ==PERFLAB-DONE==
 * or ==PERFLAB-ERROR== message
 *
 * and with the perflab-insn plugin's console=on the worker's QEMU adds
 * the exact profile between INSN_CONSOLE_BEGIN/END (common/
 * insn_profile.h). All of it is hostile (the guest runs the patch under
 * test): sizes are bounded, the JSON must match its size and sha256.
 */
#ifndef PERFLAB_LAVA_CONSOLE_H
#define PERFLAB_LAVA_CONSOLE_H

#include <stddef.h>

#define LAVA_CON_MAX_JSON (64u << 20)

enum lava_con_status {
	LAVA_CON_OK = 0,	/* json is the verified bench JSON */
	LAVA_CON_NO_BENCH,	/* the bench never started: boot */
	LAVA_CON_BENCH_FAILED,	/* it ran and failed (or the guest said so) */
	LAVA_CON_BAD_RESULT,	/* truncated, bad base64, size or sha256 */
};

struct lava_console {
	enum lava_con_status status;
	int bench_rc;		/* -1 unknown */
	char *json;		/* heap, NUL-terminated, when OK */
	size_t json_len;
	char *insn;		/* plugin text (perflab-insn 1 ... end\n), or
				 * NULL when the console has none */
	size_t insn_len;
	char msg[512];		/* why, when not OK */
};

void lava_console_parse(const char *text, size_t len, struct lava_console *c);
void lava_console_free(struct lava_console *c);

#endif
