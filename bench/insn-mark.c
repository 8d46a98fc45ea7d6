// SPDX-License-Identifier: MIT
/*
 * insn-mark start|end: executes one perflab-insn window mark
 * (runners/perflab-bench/insn_marker.h), so a guest shell can put the exact
 * instruction window of the TCG plugin around a program that has no marks
 * of its own (bench/bench-vs-fio-guest.sh ACCOUNT=1 wraps t/io_uring).
 */
#include <stdio.h>
#include <string.h>

#include "runners/perflab-bench/insn_marker.h"

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "start")) {
		insn_marker_start();
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "end")) {
		insn_marker_end();
		return 0;
	}
	fprintf(stderr, "usage: insn-mark start|end\n");
	return 2;
}
