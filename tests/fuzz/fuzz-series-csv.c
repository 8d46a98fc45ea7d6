// SPDX-License-Identifier: MIT
/*
 * Description: libFuzzer harness for series import (POST
 * /api/v1/series/import): CSV "time,value[,label]" text, and the same
 * bytes as a JSON points array.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "daemon/analysis/series_import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct series_point_in *pts = NULL;
	char err[256], *text;
	json_error_t jerr;
	json_t *arr;
	size_t n = 0;

	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (!series_parse_csv(text, &pts, &n, err, sizeof(err))) {
		if (n > SERIES_MAX_POINTS)
			abort();
		for (size_t i = 0; i < n; i++)
			if (!isfinite(pts[i].v) ||
			    memchr(pts[i].label, '\0', sizeof(pts[i].label)) == NULL)
				abort();
	}
	free(pts);
	pts = NULL;
	arr = json_loadb((const char *)data, size, 0, &jerr);
	if (arr) {
		series_parse_json_points(arr, &pts, &n, err, sizeof(err));
		free(pts);
		json_decref(arr);
	}
	free(text);
	return 0;
}
