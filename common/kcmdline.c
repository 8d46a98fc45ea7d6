// SPDX-License-Identifier: MIT
/*
 * The variant kernel command-line check shared by daemon and runner.
 */
#include "kcmdline.h"

#include <stdio.h>
#include <string.h>

int kcmdline_check(const char *cmdline, char *err, size_t errlen)
{
	static const char *const ours[] = { "perflab_target=", "perflab_bench=",
					    "perflab_job=", NULL };

	if (strlen(cmdline) > 1024) {
		snprintf(err, errlen, "variant cmdline longer than 1024 bytes");
		return -1;
	}
	for (const char *p = cmdline; *p; p++) {
		if (*p < 0x20 || *p > 0x7e || *p == '"' || *p == '\'' ||
		    *p == '\\') {
			snprintf(err, errlen, "variant cmdline: character 0x%02x"
				 " not allowed (printable ASCII without quotes or"
				 " backslashes)", (unsigned char)*p);
			return -1;
		}
	}
	for (int i = 0; ours[i]; i++)
		if (strstr(cmdline, ours[i])) {
			snprintf(err, errlen, "variant cmdline may not set %.*s:"
				 " the runner sets it", (int)strlen(ours[i]) - 1,
				 ours[i]);
			return -1;
		}
	return 0;
}
