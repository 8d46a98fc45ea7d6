// SPDX-License-Identifier: MIT
/*
 * symtab - (dso, name) symbols interned for the perf diffs.
 */
#include "daemon/analysis/symtab.h"

#include <stdlib.h>
#include <string.h>

static uint64_t sym_hash(const char *dso, const char *name)
{
	uint64_t h = 1469598103934665603ULL;
	const unsigned char *p;

	for (p = (const unsigned char *)dso; *p; p++)
		h = (h ^ *p) * 1099511628211ULL;
	h = (h ^ 0xff) * 1099511628211ULL;
	for (p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 1099511628211ULL;
	return h ^ (h >> 29);
}

void symtab_init(struct symtab *t, size_t acc_size, size_t nr_sides)
{
	memset(t, 0, sizeof(*t));
	t->acc_size = acc_size;
	t->nr_sides = nr_sides;
}

static int grow_slots(struct symtab *t)
{
	size_t ncap = t->cap ? t->cap * 2 : 1024, i;
	uint32_t *ns = calloc(ncap, sizeof(*ns));

	if (!ns)
		return -1;
	for (i = 0; i < t->nr; i++) {
		size_t j = t->hash[i] & (ncap - 1);

		while (ns[j])
			j = (j + 1) & (ncap - 1);
		ns[j] = i + 1;
	}
	free(t->slot);
	t->slot = ns;
	t->cap = ncap;
	return 0;
}

static int grow_symbols(struct symtab *t)
{
	size_t ncap = t->nr_cap ? t->nr_cap * 2 : 1024;
	size_t row = t->nr_sides * t->acc_size;
	uint64_t *h = realloc(t->hash, ncap * sizeof(*h));
	const char **d, **n;
	unsigned char *a;

	if (!h)
		return -1;
	t->hash = h;
	d = realloc(t->dso, ncap * sizeof(*d));
	if (!d)
		return -1;
	t->dso = d;
	n = realloc(t->name, ncap * sizeof(*n));
	if (!n)
		return -1;
	t->name = n;
	a = realloc(t->acc, ncap * row);
	if (!a)
		return -1;
	memset(a + t->nr_cap * row, 0, (ncap - t->nr_cap) * row);
	t->acc = a;
	t->nr_cap = ncap;
	return 0;
}

int symtab_reserve(struct symtab *t, size_t want)
{
	while (t->nr_cap < want)
		if (grow_symbols(t))
			return -1;
	while (t->cap < 2 * want)
		if (grow_slots(t))
			return -1;
	return 0;
}

long symtab_get(struct symtab *t, const char *dso, const char *name)
{
	uint64_t h = sym_hash(dso, name);
	size_t j;

	if ((t->nr + 1) * 2 > t->cap && grow_slots(t))
		return -1;
	for (j = h & (t->cap - 1); t->slot[j]; j = (j + 1) & (t->cap - 1)) {
		size_t i = t->slot[j] - 1;

		if (t->hash[i] == h && !strcmp(t->name[i], name) &&
		    !strcmp(t->dso[i], dso))
			return (long)i;
	}
	if (t->nr == t->nr_cap && grow_symbols(t))
		return -1;
	t->dso[t->nr] = dso;
	t->name[t->nr] = name;
	t->hash[t->nr] = h;
	t->slot[j] = t->nr + 1;
	return (long)t->nr++;
}

void *symtab_acc(const struct symtab *t, size_t i, size_t side)
{
	return t->acc + (i * t->nr_sides + side) * t->acc_size;
}

void symtab_free(struct symtab *t)
{
	free(t->slot);
	free(t->hash);
	free(t->dso);
	free(t->name);
	free(t->acc);
	memset(t, 0, sizeof(*t));
}
