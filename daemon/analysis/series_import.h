/* SPDX-License-Identifier: MIT */
/*
 * Parsing of imported series points (POST /api/v1/series/import): CSV
 * lines "time,value[,label]" (a header line is skipped) or a JSON array
 * of {time, value, label|commit}. time is UNIX seconds or ISO 8601 (UTC).
 * Kept apart from the endpoint so it can be fuzzed on its own.
 */
#ifndef PERFLAB_SERIES_IMPORT_H
#define PERFLAB_SERIES_IMPORT_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#define SERIES_MAX_POINTS 200000

struct series_point_in {
	int64_t t;
	double v;
	char label[128];
};

/*
 * Parse NUL-terminated @text. On success 0 with a malloc'ed array in
 * *@pts (caller frees, also on error); -1 with the reason in @err.
 */
int series_parse_csv(const char *text, struct series_point_in **pts,
		     size_t *n, char *err, size_t errlen);
int series_parse_json_points(json_t *arr, struct series_point_in **pts,
			     size_t *n, char *err, size_t errlen);

#endif
