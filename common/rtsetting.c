// SPDX-License-Identifier: MIT
/*
 * rtsetting: what a toggle variant's runtime setting may look like; see
 * rtsetting.h.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "rtsetting.h"

static bool path_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || strchr("_.:/-", c);
}

int rtsetting_path_check(const char *path, char *err, size_t errlen)
{
	size_t n = strlen(path);
	const char *c;

	if (n == 0 || n > RTSETTING_PATH_MAX) {
		snprintf(err, errlen, "a setting path is 1 to %d characters",
			 RTSETTING_PATH_MAX);
		return -1;
	}
	/* Runtime settings only: no device nodes, no files of the host. */
	if (strncmp(path, "/proc/sys/", 10) && strncmp(path, "/sys/", 5)) {
		snprintf(err, errlen,
			 "setting '%.64s': only /proc/sys/ and /sys/"
			 " paths are runtime settings",
			 path);
		return -1;
	}
	for (c = path; *c; c++) {
		if (!path_char(*c)) {
			snprintf(err, errlen,
				 "setting '%.64s': character 0x%02x"
				 " is not allowed in a path",
				 path, (unsigned char)*c);
			return -1;
		}
	}
	/* Components: none empty (//, trailing /), none "." or "..". */
	for (c = path + 1; *c;) {
		size_t len = strcspn(c, "/");

		if (len == 0 || (len == 1 && c[0] == '.') ||
		    (len == 2 && c[0] == '.' && c[1] == '.')) {
			snprintf(err, errlen,
				 "setting '%.64s': empty, '.' or"
				 " '..' path component",
				 path);
			return -1;
		}
		c += len;
		if (*c == '/')
			c++;
		if (*c == '\0' && c[-1] == '/') {
			snprintf(err, errlen,
				 "setting '%.64s': a path may not"
				 " end in '/'",
				 path);
			return -1;
		}
	}
	return 0;
}

int rtsetting_value_check(const char *value, char *err, size_t errlen)
{
	size_t n = strlen(value);

	if (n == 0 || n > RTSETTING_VALUE_MAX ||
	    strspn(value, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			  "0123456789_.,:+-") != n) {
		snprintf(err, errlen,
			 "setting value '%.64s': 1 to %d characters"
			 " of [A-Za-z0-9_.,:+-]",
			 value, RTSETTING_VALUE_MAX);
		return -1;
	}
	return 0;
}
