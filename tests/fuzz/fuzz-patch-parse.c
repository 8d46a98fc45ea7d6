// SPDX-License-Identifier: MIT
/*
 * Description: libFuzzer harness for the mbox/diff patch parser
 * (POST /api/v1/patches) and the runner's reading of the same text
 * (common/patch_paths). Any input must parse or be refused with a
 * reason; an accepted series must be internally consistent, and no name
 * either side accepts may leave the tree.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/patch_paths.h"
#include "daemon/analysis/patch_parse.h"

static void runner_side(const uint8_t *data, size_t size)
{
	struct pp_paths p;
	char err[256] = "";

	if (pp_paths_of((const char *)data, size, &p, err, sizeof(err))) {
		if (!err[0])
			abort();
		return;
	}
	for (int i = 0; i < p.n; i++)
		if (pp_problem(p.v[i]))
			abort();
	pp_paths_free(&p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct patch_series s;
	char err[256];

	runner_side(data, size);
	memset(&s, 0, sizeof(s));
	if (patch_parse((const char *)data, size, &s, err, sizeof(err))) {
		if (!err[0])
			abort();	/* a refusal must say why */
		return 0;
	}
	if (s.n <= 0)
		abort();
	for (int i = 0; i < s.n; i++) {
		struct patch *p = &s.patches[i];

		if (!p->raw || p->raw_len > size || strlen(p->sha256) != 64)
			abort();
		for (int j = 0; j < p->nfiles; j++) {
			const char *np = p->files[j].new_path;

			if (!np || !strcmp(np, "/dev/null"))
				continue;
			if (np[0] == '/' || !strcmp(np, "..") ||
			    !strncmp(np, "../", 3) || strstr(np, "/../"))
				abort();
		}
	}
	patch_series_free(&s);
	return 0;
}
