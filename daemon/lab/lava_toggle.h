/* SPDX-License-Identifier: MIT */
/*
 * lava_toggle: a toggle boot as one LAVA job. The claim leases the boot's
 * jobs together (jobs.h, one lease group, A B B A order); the LAVA job's
 * test step runs perflab-lava-bench once per run, joined by "&&" so that
 * a run that fails ends the boot as on a runner:
 *
 *   perflab-lava-bench --run JOB POS [--set PATH VALUE]... TARGET FLAGS
 *
 * which writes and reads back the run's settings and frames the run on
 * the console between SERIAL_RUN job=JOB pos=POS boot=ID and
 * SERIAL_RUN_END job=JOB (common/guest_markers.h), or says
 * SERIAL_REFUSED job=JOB WHY. Back from LAVA, each frame is one run of
 * its job (lava_outcome.c). Nothing in a frame is trusted: a frame names
 * a job, and only the jobs of the LAVA job's own boot are taken
 * (lava.c).
 */
#ifndef PERFLAB_LAVA_TOGGLE_H
#define PERFLAB_LAVA_TOGGLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

/* Runs one LAVA job may carry (the command is one test step). */
#define LAVA_TOGGLE_MAX_RUNS 32

/*
 * The test step of the toggle runs @runs (the claim's "toggle.runs":
 * [{job_id, variant: {settings}}], in order), each benching @target with
 * perflab-bench @flags: heap, or NULL with err (a setting that breaks
 * common/rtsetting.h's rules, too many runs).
 */
char *lava_toggle_command(const json_t *runs, const char *target,
			  const char *flags, char *err, size_t errlen);

struct lava_frame {
	int64_t job_id;
	int pos;
	char boot_id[65];
	size_t off, len;	/* the frame in the console text */
	bool complete;		/* its SERIAL_RUN_END is there */
	char refused[400];	/* the guest's words when a setting was refused */
};

/* The frames of console @text in order, at most @max: their count. */
int lava_toggle_frames(const char *text, size_t len, struct lava_frame *out,
		       int max);

#endif
