/* SPDX-License-Identifier: MIT */
/*
 * symtab - (dso, name) symbols interned for the perf diffs: an
 * open-addressing hash table giving each distinct symbol a dense index,
 * with one caller-defined accumulator per symbol and side. Names are not
 * copied: they must outlive the table.
 */
#ifndef PERFLAB_SYMTAB_H
#define PERFLAB_SYMTAB_H

#include <stddef.h>
#include <stdint.h>

struct symtab {
	size_t cap; /* slots, a power of two */
	uint32_t *slot; /* symbol index + 1, 0 = empty */
	uint64_t *hash; /* per symbol */
	const char **dso, **name; /* per symbol */
	size_t nr, nr_cap;
	unsigned char *acc; /* [nr_cap * nr_sides] accumulators, zeroed */
	size_t acc_size, nr_sides;
};

void symtab_init(struct symtab *t, size_t acc_size, size_t nr_sides);
/* Room for @want symbols without growing; -1 when out of memory. */
int symtab_reserve(struct symtab *t, size_t want);
/* Index of (dso, name), added if new; -1 when out of memory. */
long symtab_get(struct symtab *t, const char *dso, const char *name);
/* The accumulator of symbol @i on side @side. */
void *symtab_acc(const struct symtab *t, size_t i, size_t side);
void symtab_free(struct symtab *t);

#endif /* PERFLAB_SYMTAB_H */
