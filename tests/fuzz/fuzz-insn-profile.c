// SPDX-License-Identifier: MIT
/*
 * Description: libFuzzer harness for the perflab-insn plugin output and
 * symbol-map parsers (common/insn_profile.c): the bytes as a profile, the
 * same bytes as a System.map, and, when both parse, the exact_profile
 * JSON built from them. Parsed profiles must be sorted, distinct and add
 * up to their total; every JSON row must be a symbol of the map.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/insn_profile.h"

static void check_json(const struct insn_prof *p, json_t *j)
{
	uint64_t sum, prev = UINT64_MAX;
	json_t *row;
	size_t i;

	if (!j)
		return;
	sum = json_integer_value(json_object_get(j, "kernel")) +
	      json_integer_value(json_object_get(j, "user"));
	if (sum != p->total)
		abort();
	json_array_foreach(json_object_get(j, "symbols"), i, row) {
		uint64_t v = json_integer_value(json_object_get(row, "insns"));

		if (!v || v > prev || !json_is_string(json_object_get(row, "sym")))
			abort();
		prev = v;
	}
	json_decref(j);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct insn_symtab t;
	struct insn_prof p;
	uint64_t sum = 0;
	char err[256];

	if (!insn_prof_parse(text, size, &p, err, sizeof(err))) {
		for (size_t i = 0; i < p.n; i++) {
			if (!p.count[i] || (i && p.addr[i] <= p.addr[i - 1]))
				abort();
			sum += p.count[i];
		}
		if (sum != p.total)
			abort();
	}
	if (!insn_symtab_parse(text, size, &t)) {
		for (size_t i = 0; i < t.n; i++)
			if ((i && t.start[i] <= t.start[i - 1]) ||
			    t.end[i] < t.start[i] || !t.name[i][0])
				abort();
		if (p.n || p.window == INSN_WIN_CLOSED)
			check_json(&p, insn_prof_json(&p, 1000, &t, &t,
						      "perflab-bench", err,
						      sizeof(err)));
		insn_symtab_free(&t);
	}
	insn_prof_free(&p);
	return 0;
}
