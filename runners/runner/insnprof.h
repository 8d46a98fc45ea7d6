/* SPDX-License-Identifier: MIT */
/*
 * insnprof: the exact instruction profile of a qemu-icount run. The
 * perflab-insn plugin's output (hostile: the guest decides what runs) is
 * symbolised with the image's System.map and the static bench's symbol
 * table and added to the bench JSON as "exact_profile" (contracts §1).
 */
#ifndef PERFLAB_INSNPROF_H
#define PERFLAB_INSNPROF_H

#include <jansson.h>
#include <stddef.h>

struct insnprof_src {
	const char *plugin_out;	/* the plugin's out= file */
	const char *sysmap;	/* kernel System.map */
	const char *bench_static; /* the perflab-bench binary in the guest */
	const char *scratch;	/* file for `nm` output */
};

/*
 * Add bench["exact_profile"]. The IO count is summary.ios_measured, or
 * summary.window_ios for a time-bound run. 0 ok; -1 with err (bench is
 * left as it was).
 */
int insnprof_attach(json_t *bench, const struct insnprof_src *s, char *err,
		    size_t errlen);

/* A path QEMU's -plugin option can carry (',' separates its options). */
int insnprof_path_ok(const char *path);

#endif
