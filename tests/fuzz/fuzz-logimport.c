// SPDX-License-Identifier: MIT
/*
 * Description: libFuzzer harness for log import (POST /api/v1/compare):
 * t/io_uring and perflab-bench text, perflab-bench JSON and fio JSON.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "daemon/analysis/logimport.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct li_log log = { 0 };
	char err[256];

	if (logimport_parse((const char *)data, size, 2, &log, err,
			    sizeof(err)))
		return 0;
	for (size_t i = 0; i < log.nruns; i++) {
		const struct li_run *r = &log.runs[i];

		if (r->n > r->cap && r->cap)
			abort();
		for (size_t j = 0; j < r->n; j++)
			if (isnan(r->iops[j]))
				abort();
	}
	logimport_free(&log);
	return 0;
}
