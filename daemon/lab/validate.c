// SPDX-License-Identifier: MIT
/*
 * Input checks of the lab's own rules; see validate.h.
 */
#include <stdio.h>
#include <string.h>

#include "common/bench_params.h"
#include "daemon/lab/validate.h"

int json_check_keys(json_t *o, const char *const *allowed, const char **bad)
{
	const char *k;
	json_t *v;
	int i;

	json_object_foreach(o, k, v) {
		for (i = 0; allowed[i]; i++)
			if (!strcmp(allowed[i], k))
				break;
		if (!allowed[i]) {
			*bad = k;
			return -1;
		}
	}
	return 0;
}

int lab_valid_name(const char *s)
{
	size_t n = strlen(s), i;

	if (n == 0 || n > 64)
		return 0;
	for (i = 0; i < n; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '.' || c == '_' ||
		      c == '-' || c == '+'))
			return 0;
	}
	return 1;
}

json_t *bench_params_json(json_t *in, struct lab_err *e)
{
	json_t *o = json_object(), *v;
	const char *k;
	size_t i;

	if (!o)
		return lab_fail(e, LAB_INTERNAL, "out of memory"), NULL;
	for (i = 0; i < bench_params_count; i++) {
		const struct bench_param *f = &bench_params[i];

		json_object_set_new(o, f->name, f->type == 'i' ? json_integer(f->def) :
				    f->type == 'b' ? json_boolean(f->def) : json_string(""));
	}
	if (in && !json_is_object(in)) {
		lab_fail(e, LAB_INVALID, "field 'bench' must be an object");
		goto fail;
	}
	json_object_foreach(in, k, v) {
		for (i = 0; i < bench_params_count; i++)
			if (!strcmp(bench_params[i].name, k))
				break;
		if (i == bench_params_count) {
			lab_fail(e, LAB_INVALID, "unknown bench parameter '%.64s'", k);
			goto fail;
		}
		const struct bench_param *f = &bench_params[i];

		if ((f->type == 'i' && (!json_is_integer(v) ||
					json_integer_value(v) < f->min ||
					json_integer_value(v) > f->max)) ||
		    (f->type == 'b' && !json_is_boolean(v)) ||
		    (f->type == 's' && (!json_is_string(v) ||
					json_string_length(v) > (size_t)f->max ||
					strlen(json_string_value(v)) != json_string_length(v)))) {
			if (f->type == 'i')
				lab_fail(e, LAB_INVALID, "bench.%s must be an integer"
					 " in [%lld, %lld]", k, f->min, f->max);
			else
				lab_fail(e, LAB_INVALID, "bench.%s must be a %s", k,
					 f->type == 'b' ? "boolean" :
					 "string of at most 256 bytes");
			goto fail;
		}
		json_object_set(o, k, v);
	}
	if (json_integer_value(json_object_get(o, "warmup")) >=
	    json_integer_value(json_object_get(o, "runtime"))) {
		lab_fail(e, LAB_INVALID, "bench.warmup must be shorter than"
			 " bench.runtime");
		goto fail;
	}
	return o;
fail:
	json_decref(o);
	return NULL;
}
