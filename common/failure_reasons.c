// SPDX-License-Identifier: MIT
/*
 * Failure reason table; see failure_reasons.h. Rows stay in the order a
 * job goes through them (apply, build, boot, run), then the lab's own.
 */
#include <stdio.h>
#include <string.h>

#include "common/failure_reasons.h"

#define RUNNER FAILURE_BY_RUNNER
#define BUILDER FAILURE_BY_BUILDER
#define DAEMON FAILURE_BY_DAEMON

const struct failure_reason failure_reasons[] = {
	{ "patch_apply", "the patch does not apply to the base tree",
	  "rebase the patch and submit it again",
	  false, RUNNER | BUILDER, FAILURE_BISECT_FAIL },
	{ "build", "the kernel does not build (config check or compiler error)",
	  "fix the build error shown in the log",
	  false, RUNNER | BUILDER, FAILURE_BISECT_SKIP },
	{ "setting", "a runtime setting of the variant was refused by the kernel",
	  "check the setting's name and value against the running kernel",
	  false, RUNNER, FAILURE_BISECT_FAIL },
	{ "boot", "the kernel did not boot to the bench (panic, hang, wrong kernel)",
	  "read the boot log; retried up to the attempt cap",
	  true, RUNNER | DAEMON, FAILURE_BISECT_FAIL },
	{ "bench", "the bench failed (non-zero exit, corrupt result, setup command failed)",
	  "read the job log; retried up to the attempt cap",
	  true, RUNNER | DAEMON, FAILURE_BISECT_FAIL },
	{ "internal", "the runner or the lab had a problem of its own",
	  "nothing to fix in the patch; retried up to the attempt cap",
	  true, RUNNER | BUILDER | DAEMON, FAILURE_BISECT_FAIL },
	{ "infrastructure", "a LAVA lab failed the job (its Incomplete outcome)",
	  "nothing to fix in the patch; retried up to the attempt cap",
	  true, DAEMON, FAILURE_BISECT_FAIL },
};

const size_t failure_reasons_count =
	sizeof(failure_reasons) / sizeof(failure_reasons[0]);

const struct failure_reason *failure_reason_find(const char *name)
{
	size_t i;

	for (i = 0; name && i < failure_reasons_count; i++)
		if (!strcmp(failure_reasons[i].name, name))
			return &failure_reasons[i];
	return NULL;
}

const struct failure_reason *failure_reason_for(const char *name,
						enum failure_reporter reporter)
{
	const struct failure_reason *r = failure_reason_find(name);

	return r && (r->reporters & reporter) ? r : NULL;
}

const char *failure_reason_names(enum failure_reporter reporter, char *buf,
				 size_t len)
{
	size_t i, k = 0, last = 0, used = 0;
	int w;

	for (i = 0; i < failure_reasons_count; i++)
		if (failure_reasons[i].reporters & reporter)
			last = i;
	if (!len)
		return buf;
	buf[0] = '\0';
	for (i = 0; i < failure_reasons_count; i++) {
		if (!(failure_reasons[i].reporters & reporter))
			continue;
		w = snprintf(buf + used, len - used, "%s%s",
			     !k ? "" : i == last ? " or " : ", ",
			     failure_reasons[i].name);
		if (w < 0 || (size_t)w >= len - used)
			break;
		used += (size_t)w;
		k++;
	}
	return buf;
}

const char *failure_reporter_name(enum failure_reporter r)
{
	switch (r) {
	case FAILURE_BY_RUNNER:
		return "runner";
	case FAILURE_BY_BUILDER:
		return "builder";
	case FAILURE_BY_DAEMON:
		return "daemon";
	}
	return "?";
}
