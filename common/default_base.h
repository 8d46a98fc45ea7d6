/* SPDX-License-Identifier: MIT */
/*
 * The base an experiment, a track, a calibration or a `perflab-runner try`
 * uses when it names none: the Debian 6.1 tree that schema/0001_init.sql
 * seeds (SQL cannot include this; tests/unit/opttab-tables holds the two
 * to each other).
 */
#ifndef PERFLAB_DEFAULT_BASE_H
#define PERFLAB_DEFAULT_BASE_H

#define PERFLAB_DEFAULT_BASE "linux-6.1"

#endif
