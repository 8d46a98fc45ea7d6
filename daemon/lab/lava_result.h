/* SPDX-License-Identifier: MIT */
/*
 * lava_result: a finished LAVA job -> perflab's outcome. A verified
 * bench result on the console (lava_console.h) is a run, whatever the
 * job's health (LAVA may fail a job after the bench, at power-off).
 * Otherwise the failure reason:
 *
 *   health Canceled                                  -> infrastructure
 *   Incomplete, error_type Infrastructure,
 *     Configuration, Bug, ObjectNotPersisted,
 *     Canceled (lava_common/exceptions.py)            -> infrastructure
 *   Incomplete (Job, Test, LAVATimeout, none) or
 *   Complete without a result: the console says      -> boot (the bench
 *                                                       never started) or
 *                                                       bench
 *
 * error_type and error_msg come from the log's "lava"/"job" result
 * (lava-run writes it last); the message names LAVA's health, type and
 * message, then the console's own reason.
 */
#ifndef PERFLAB_LAVA_RESULT_H
#define PERFLAB_LAVA_RESULT_H

#include <stddef.h>
#include <jansson.h>

#include "daemon/lab/lava_console.h"

struct lava_verdict {
	int ok;			/* a run: the console's result is verified */
	const char *reason;	/* infrastructure | boot | bench when !ok */
	char message[1024];
};

/*
 * @health: LAVA's health string; @failure_comment may be NULL; @results
 * the log's results (lava_log.h), may be NULL; @con the parsed console.
 * Returns 0, or -1 when @health is not a finished one (nothing decided).
 */
int lava_classify(const char *health, const char *failure_comment,
		  const json_t *results, const struct lava_console *con,
		  struct lava_verdict *v);

#endif
