// SPDX-License-Identifier: MIT
/*
 * Description: libFuzzer harness for the perflab-insn plugin output and
 * symbol-map parsers (common/insn_profile.c): the bytes as a profile, the
 * same bytes as a System.map, and, when both parse, the exact_profile
 * JSON built from them. Parsed profiles must be sorted, distinct and add
 * up to their total (v2, cache model on: every event column to its
 * total, no LL missing more than its L1); every JSON row must be a symbol of the map.
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

/* A v2 profile's events add up to its totals; no LL beyond its L1. */
static void check_events(const struct insn_prof *p)
{
	for (int k = 0; k < INSN_EV_N; k++) {
		uint64_t sum = 0;

		for (size_t i = 0; i < p->n; i++)
			sum += p->ev[i * INSN_EV_N + k];
		if (sum != p->ev_total[k])
			abort();
	}
	for (size_t i = 0; i < p->n; i++) {
		const uint64_t *e = p->ev + i * INSN_EV_N;

		if (e[INSN_EV_LLIM] > e[INSN_EV_I1M] ||
		    e[INSN_EV_LLDRM] > e[INSN_EV_D1RM] ||
		    e[INSN_EV_LLDWM] > e[INSN_EV_D1WM])
			abort();
	}
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
		if (p.cache)
			check_events(&p);
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
