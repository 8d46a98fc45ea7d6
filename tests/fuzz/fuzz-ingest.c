// SPDX-License-Identifier: MIT
/*
 * Description: libFuzzer harness for result ingest validation: any bytes
 * as a runner's result body must be refused with a reason or accepted
 * as a well-formed result (docs/contracts.md sections 1 and 2).
 */
#include <stdint.h>
#include <stdlib.h>
#include <jansson.h>

#include "daemon/lab/ingest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_error_t jerr;
	struct lab_err e;
	json_t *body;

	body = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES,
			  &jerr);
	if (!body)
		return 0;
	e.msg[0] = '\0';
	if (ingest_validate(body, &e) && (!e.msg[0] || e.st != LAB_INVALID))
		abort();	/* a refusal must say why */
	json_decref(body);
	return 0;
}
