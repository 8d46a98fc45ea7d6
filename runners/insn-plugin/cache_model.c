// SPDX-License-Identifier: MIT
/*
 * cache_model: see cache_model.h. Each set keeps its tags in recency
 * order (most recent first); ways are few (8-16), so a linear scan with
 * move-to-front is both the simplest and the fastest layout.
 */
#include "cache_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

static int level_init(struct cache_level *c, const char *name,
		      struct cache_geom g, unsigned line, char *err,
		      size_t errlen)
{
	uint64_t sets;

	if (!g.ways || g.ways > 64 || g.size % ((uint64_t)g.ways * line)) {
		snprintf(err, errlen, "%s: %llu bytes is not a multiple of "
			 "%u ways of %u-byte lines (1-64 ways)", name,
			 (unsigned long long)g.size, g.ways, line);
		return -1;
	}
	sets = g.size / g.ways / line;
	if (!is_pow2(sets) || sets > (1u << 24)) {
		snprintf(err, errlen, "%s: %llu sets, want a power of two "
			 "up to 2^24", name, (unsigned long long)sets);
		return -1;
	}
	c->tag = calloc(sets * g.ways, sizeof(*c->tag));
	if (!c->tag) {
		snprintf(err, errlen, "%s: out of memory", name);
		return -1;
	}
	c->set_mask = sets - 1;
	c->ways = g.ways;
	return 0;
}

int cache_model_init(struct cache_model *m, unsigned line,
		     struct cache_geom l1i, struct cache_geom l1d,
		     struct cache_geom ll, char *err, size_t errlen)
{
	memset(m, 0, sizeof(*m));
	if (!is_pow2(line) || line < 16 || line > 4096) {
		snprintf(err, errlen, "line size %u: want a power of two "
			 "from 16 to 4096", line);
		return -1;
	}
	m->line_bits = (unsigned)__builtin_ctz(line);
	if (level_init(&m->l1i, "l1i", l1i, line, err, errlen) ||
	    level_init(&m->l1d, "l1d", l1d, line, err, errlen) ||
	    level_init(&m->ll, "ll", ll, line, err, errlen)) {
		cache_model_free(m);
		return -1;
	}
	return 0;
}

void cache_model_free(struct cache_model *m)
{
	free(m->l1i.tag);
	free(m->l1d.tag);
	free(m->ll.tag);
	memset(m, 0, sizeof(*m));
}

/* Look the line up; 1 hit, 0 miss. Either way it ends most recent. */
static int level_ref(struct cache_level *c, uint64_t line)
{
	uint64_t *set = c->tag + (line & c->set_mask) * c->ways;
	uint64_t tag = line + 1;	/* 0 marks an empty way */
	unsigned i;

	if (set[0] == tag)
		return 1;
	for (i = 1; i < c->ways && set[i] != tag; i++)
		;
	/* A miss drops the least recent way (i == ways: the last one). */
	memmove(set + 1, set, (i < c->ways ? i : c->ways - 1) * sizeof(*set));
	set[0] = tag;
	return i < c->ways;
}

struct cache_miss cache_model_ref(struct cache_model *m, enum cache_side s,
				  uint64_t addr, unsigned size)
{
	struct cache_level *l1 = s == CACHE_I ? &m->l1i : &m->l1d;
	uint64_t first = addr >> m->line_bits;
	uint64_t last = (addr + size - 1) >> m->line_bits;
	struct cache_miss r = { 0, 0 };

	for (uint64_t line = first;; line++) {
		if (!level_ref(l1, line)) {
			r.l1++;
			if (!level_ref(&m->ll, line))
				r.ll++;
		}
		if (line == last)
			break;
	}
	return r;
}

int cache_geom_parse(const char *s, struct cache_geom *g)
{
	unsigned long long size, ways;
	char *e;

	if (*s < '0' || *s > '9')
		return -1;
	size = strtoull(s, &e, 10);
	if (size > (1ull << 32))
		return -1;
	if (*e == 'K' || *e == 'k')
		size <<= 10, e++;
	else if (*e == 'M' || *e == 'm')
		size <<= 20, e++;
	if (*e != ':' || e[1] < '0' || e[1] > '9')
		return -1;
	ways = strtoull(e + 1, &e, 10);
	if (*e || !size || size > (1ull << 32) || !ways || ways > 64)
		return -1;
	g->size = size;
	g->ways = (unsigned)ways;
	return 0;
}
