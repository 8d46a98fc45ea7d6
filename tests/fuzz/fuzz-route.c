// SPDX-License-Identifier: MIT
/*
 * Description: libFuzzer harness for URL routing: the first line of the
 * input is the method, the rest the path. Matching must never read past
 * the path, and path parameters must point into the scratch copy.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/http/routes.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf, *nl, *path, *scratch;
	const struct route *rt = NULL;
	struct http_req req;
	char allow[128];

	buf = malloc(size + 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	nl = strchr(buf, '\n');
	path = nl ? nl + 1 : buf;
	if (nl)
		*nl = '\0';
	scratch = malloc(strlen(path) + 1);
	if (!scratch)
		goto out;
	memset(&req, 0, sizeof(req));
	if (route_find(nl ? buf : "GET", path, scratch, &req, &rt, allow,
		       sizeof(allow)) == ROUTE_FOUND) {
		if (!rt || req.nparams > HTTP_MAX_PARAMS)
			abort();
		for (int i = 0; i < req.nparams; i++)
			if (req.params[i].value < scratch ||
			    req.params[i].value > scratch + strlen(path))
				abort();
	}
	free(scratch);
out:
	free(buf);
	return 0;
}
