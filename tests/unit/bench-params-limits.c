// SPDX-License-Identifier: MIT
/*
 * Description: the shared bench parameter table (common/bench_params.c),
 * by which the daemon validates experiments and the runner builds the
 * perflab-bench command line, accepts nothing perflab-bench would refuse:
 * its limits sit within the bench's own (runners/perflab-bench/opts.h), every
 * default lies within its limits, and every name is unique.
 */
#include <string.h>

#include "common/bench_params.h"
#include "runners/perflab-bench/opts.h"
#include "unit/check.h"

static const struct bench_param *param(const char *name)
{
	for (size_t i = 0; i < bench_params_count; i++)
		if (!strcmp(bench_params[i].name, name))
			return &bench_params[i];
	return NULL;
}

int main(void)
{
	static const struct {
		const char *name;
		long long min, max;
	} bench[] = {
		{ "depth", 1, OPTS_MAX_DEPTH },
		{ "submit_batch", 1, OPTS_MAX_DEPTH },
		{ "complete_batch", 1, OPTS_MAX_DEPTH },
		{ "bs", 512, OPTS_MAX_BS },
		{ "threads", 1, OPTS_MAX_THREADS },
		{ "runtime", 1, OPTS_MAX_RUNTIME },
		{ "warmup", 0, OPTS_MAX_RUNTIME },
	};

	for (size_t i = 0; i < sizeof(bench) / sizeof(bench[0]); i++) {
		const struct bench_param *p = param(bench[i].name);

		CHECK(p != NULL, "%s missing", bench[i].name);
		if (!p)
			continue;
		CHECK(p->min >= bench[i].min && p->max <= bench[i].max,
		      "%s [%lld, %lld] exceeds perflab-bench's [%lld, %lld]",
		      p->name, p->min, p->max, bench[i].min, bench[i].max);
	}
	for (size_t i = 0; i < bench_params_count; i++) {
		const struct bench_param *p = &bench_params[i];

		CHECK(p->type == 's' || (p->def >= p->min && p->def <= p->max),
		      "%s default %lld outside [%lld, %lld]", p->name, p->def,
		      p->min, p->max);
		CHECK(param(p->name) == p, "%s listed twice", p->name);
		CHECK(!p->flag || p->type != 's', "%s: a string flag", p->name);
	}
	DONE();
}
