/* SPDX-License-Identifier: MIT */
/*
 * calibrate - `perflab calibrate HOST|--label L [--aa|--ladder] ...`:
 * with --aa or --ladder, start a calibration experiment on a host (or any
 * host of a label) through POST /api/v1/calibrations; without, list that
 * host's or label's calibrations (GET /api/v1/calibrations): A/A noise,
 * ladder fit (cost per canary unit, R^2), per-step deltas, MDE.
 */
#ifndef PERFLAB_CLI_CALIBRATE_H
#define PERFLAB_CLI_CALIBRATE_H

#include "cli/commands.h"

extern const struct cli_command cli_calibrate;

int cmd_calibrate(const struct client *c, int argc, char **argv);

#endif /* PERFLAB_CLI_CALIBRATE_H */
