/* SPDX-License-Identifier: MIT */
/*
 * rtsetting: the runtime settings of a toggle experiment's variants (a
 * sysctl under /proc/sys, a sysfs file, a module parameter under
 * /sys/module/NAME/parameters), checked by the daemon when an experiment
 * is made and again by the runner before it writes one as root. A path
 * is /proc/sys/... or /sys/... of [A-Za-z0-9_.:/-] without empty, "." or
 * ".." components; a value is 1-64 characters of [A-Za-z0-9_.,:+-], so
 * neither can leave the file it names nor say anything to a shell.
 */
#ifndef PERFLAB_RTSETTING_H
#define PERFLAB_RTSETTING_H

#include <stddef.h>

#define RTSETTING_MAX 8 /* settings per variant */
#define RTSETTING_PATH_MAX 200
#define RTSETTING_VALUE_MAX 64

/* 0 ok, -1 with the reason in @err. */
int rtsetting_path_check(const char *path, char *err, size_t errlen);
int rtsetting_value_check(const char *value, char *err, size_t errlen);

#endif
