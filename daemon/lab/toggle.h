/* SPDX-License-Identifier: MIT */
/*
 * Toggle experiments: one kernel image booted once, variants
 * that differ only by runtime settings (sysctl under /proc/sys, sysfs, a
 * module parameter under /sys/module/NAME/parameters), run alternately in
 * that boot. This module checks the settings a request asks for against
 * the path rules and the admins' allowlist (table setting_allowlist, the
 * runtime counterpart of the cmdline allowlist of trust.h), and checks
 * that the variants really share one image.
 */
#ifndef PERFLAB_TOGGLE_H
#define PERFLAB_TOGGLE_H

#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>

#include "daemon/store/conn.h"

#include "daemon/lab/planner.h"
#include "daemon/lab/trust.h"
#include "rtsetting.h"

/* An allowlist pattern: a valid path, optionally ending in '*'. 0, or
 * -1 LAB_REJECTED. */
int toggle_pattern_check(const char *pattern, struct lab_err *e);

/*
 * Check variant @name's "settings" object @settings (may be NULL: none)
 * for @who: path and value rules, at most RTSETTING_MAX, and for
 * non-admin keys every path in setting_allowlist. 0, or -1: LAB_INVALID
 * (a path or value breaks the rules), LAB_FORBIDDEN (off the allowlist).
 */
int toggle_settings_check(store_conn *db, const struct trust_who *who,
			  const json_t *settings, struct lab_err *e);

/*
 * The variants of a toggle experiment share one image: same patches,
 * cmdline and setup; they differ only by settings (equal settings make an
 * A/A, which is allowed), and one commit: each variant's base_commit,
 * or the experiment's @commit (NULL: a tarball base). 0, or -1
 * LAB_REJECTED (commits differ) or LAB_INVALID naming the variant.
 */
int toggle_variants_check(const struct variant_spec *v, int n,
			  const char *commit, struct lab_err *e);

#endif
