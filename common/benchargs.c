// SPDX-License-Identifier: MIT
/*
 * benchargs: bench parameters into perflab-bench flags; see benchargs.h.
 */
#include "common/benchargs.h"
#include "common/bench_params.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int push(struct benchargs *a, const char *s)
{
	if (a->n >= (int)(sizeof(a->v) / sizeof(a->v[0])) - 1)
		return -1;
	a->v[a->n] = strdup(s);
	if (!a->v[a->n])
		return -1;
	a->n++;
	a->v[a->n] = NULL;
	return 0;
}

static int get_value(const json_t *v, const struct bench_param *f, long long *out)
{
	if (json_is_boolean(v) && f->type == 'b') {
		*out = json_is_true(v);
		return 0;
	}
	if (!json_is_integer(v))
		return -1;
	*out = json_integer_value(v);
	return *out < f->min || *out > f->max ? -1 : 0;
}

int benchargs_from_json(const json_t *bench, struct benchargs *a, char *err,
			size_t errlen)
{
	const json_t *prof;
	char num[32];

	memset(a, 0, sizeof(*a));
	a->runtime = 10;
	a->warmup = 2;
	if (!json_is_object(bench)) {
		snprintf(err, errlen, "bench: not an object");
		return -1;
	}
	for (size_t i = 0; i < bench_params_count; i++) {
		const struct bench_param *f = &bench_params[i];
		const json_t *v = json_object_get(bench, f->name);
		long long x;

		if (!f->flag || !v || json_is_null(v))
			continue;
		if (get_value(v, f, &x)) {
			snprintf(err, errlen, "bench.%s: must be %s %lld..%lld",
				 f->name, f->type == 'b' ?
				 "a boolean or" : "an integer", f->min, f->max);
			goto fail;
		}
		if (!strcmp(f->name, "ios") && x == 0)
			continue;
		if (!strcmp(f->name, "runtime"))
			a->runtime = x;
		if (!strcmp(f->name, "warmup"))
			a->warmup = x;
		if (!strcmp(f->name, "ios"))
			a->ios = x;
		snprintf(num, sizeof(num), "%lld", x);
		if (push(a, f->flag) || push(a, num))
			goto nomem;
	}
	prof = json_object_get(bench, "profile");
	if (prof && !json_is_boolean(prof)) {
		snprintf(err, errlen, "bench.profile: must be a boolean");
		goto fail;
	}
	if (json_is_true(prof) && push(a, "-P"))
		goto nomem;
	return 0;
nomem:
	snprintf(err, errlen, "out of memory");
fail:
	benchargs_free(a);
	return -1;
}

char *benchargs_join(const struct benchargs *a, char sep)
{
	size_t len = 1;
	char *s, *p;

	for (int i = 0; i < a->n; i++)
		len += strlen(a->v[i]) + 1;
	s = p = calloc(1, len);
	if (!s)
		return NULL;
	for (int i = 0; i < a->n; i++) {
		if (i)
			*p++ = sep;
		p = stpcpy(p, a->v[i]);
	}
	return s;
}

int benchargs_drop(struct benchargs *a, const char *flag)
{
	for (int i = 0; i < a->n; i++) {
		if (strcmp(a->v[i], flag))
			continue;
		free(a->v[i]);
		memmove(&a->v[i], &a->v[i + 1], (a->n - i) * sizeof(a->v[0]));
		a->n--;
		return 1;
	}
	return 0;
}

void benchargs_free(struct benchargs *a)
{
	for (int i = 0; i < a->n; i++)
		free(a->v[i]);
	a->n = 0;
	a->v[0] = NULL;
}

char *benchargs_command(const json_t *bench, const char *target)
{
	const char *t = json_string_value(json_object_get(bench, "target"));
	struct benchargs a;
	char err[128], *flags, *cmd = NULL;

	if (benchargs_from_json(bench, &a, err, sizeof(err)))
		return NULL;
	flags = benchargs_join(&a, ' ');
	if (flags && asprintf(&cmd, "perflab-bench%s%s %s", a.n ? " " : "", flags,
			      t && *t ? t : target) < 0)
		cmd = NULL;
	free(flags);
	benchargs_free(&a);
	return cmd;
}
