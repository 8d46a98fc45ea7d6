/* SPDX-License-Identifier: MIT */
/*
 * What any variant's kernel command line must look like, checked by the
 * daemon when an experiment is made and again by the runner before it
 * boots (qemu and kexec): at most 1024 bytes of printable ASCII without
 * quotes or backslashes (with them the kernel would split the line into
 * other parameters than the ones checked), and none of the parameters
 * the runner sets itself (perflab_target=, perflab_bench=, perflab_job=).
 */
#ifndef PERFLAB_KCMDLINE_H
#define PERFLAB_KCMDLINE_H

#include <stddef.h>

/* 0 ok, -1 with the reason in @err. */
int kcmdline_check(const char *cmdline, char *err, size_t errlen);

#endif
