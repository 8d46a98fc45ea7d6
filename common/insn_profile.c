// SPDX-License-Identifier: MIT
/*
 * insn_profile: parse the perflab-insn plugin's output and symbol maps,
 * and turn them into the exact_profile JSON of a bench result.
 */
#include "common/insn_profile.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINE	256
#define MAX_NAME	256

/* A cursor over the text: one line at a time, bounded length. */
struct cur {
	const char *p, *end;
	char line[MAX_LINE];
	unsigned long lineno;
};

/* Next line into c->line; 0 ok, -1 at end, -2 line too long or NUL. */
static int next_line(struct cur *c)
{
	const char *nl;
	size_t n;

	if (c->p >= c->end)
		return -1;
	nl = memchr(c->p, '\n', c->end - c->p);
	n = nl ? (size_t)(nl - c->p) : (size_t)(c->end - c->p);
	c->lineno++;
	if (n >= sizeof(c->line) || memchr(c->p, '\0', n))
		return -2;
	memcpy(c->line, c->p, n);
	c->line[n] = '\0';
	c->p += n + (nl ? 1 : 0);
	return 0;
}

/* Strict unsigned decimal or hex (no sign, no spaces, no overflow). */
static const char *parse_u64(const char *s, int base, uint64_t *out)
{
	uint64_t v = 0;
	int digits = 0;

	for (;; s++, digits++) {
		unsigned d;

		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			break;
		if (v > (UINT64_MAX - d) / base)
			return NULL;
		v = v * base + d;
	}
	if (!digits || digits > 20)
		return NULL;
	*out = v;
	return s;
}

/* "KEY <u64>" exactly. */
static int key_u64(const char *line, const char *key, uint64_t *v)
{
	size_t k = strlen(key);
	const char *e;

	if (strncmp(line, key, k) || line[k] != ' ')
		return -1;
	e = parse_u64(line + k + 1, 10, v);
	return e && !*e ? 0 : -1;
}

static int parse_fail(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int parse_fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

/* n decimal numbers separated by single spaces from s to the line end. */
static int u64_list(const char *s, uint64_t *v, int n)
{
	for (int i = 0; i < n; i++) {
		if (*s != ' ' || !(s = parse_u64(s + 1, 10, &v[i])))
			return -1;
	}
	return *s ? -1 : 0;
}

static int is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* One level's geometry: whole power-of-two sets of lines, 1-64 ways. */
static int geom_ok(uint64_t size, uint64_t ways, uint64_t line)
{
	return ways && ways <= 64 && size <= (1ull << 32) &&
	       size % (ways * line) == 0 && is_pow2(size / ways / line);
}

static int parse_cache_header(struct cur *c, struct insn_prof *p, char *err,
			      size_t errlen)
{
	struct insn_cache_geom *g = &p->geom;
	uint64_t v[7];
	char *s = c->line;

	if (next_line(c) || strncmp(s, "cache line", 10))
		return parse_fail(err, errlen, "line %lu: want cache", c->lineno);
	{
		const char *t = s + 10;
		static const char *const words[] = { "", " l1i", "", " l1d",
						     "", " ll", "" };

		for (int i = 0; i < 7; i++) {
			size_t k = strlen(words[i]);

			if (strncmp(t, words[i], k) || t[k] != ' ' ||
			    !(t = parse_u64(t + k + 1, 10, &v[i])))
				return parse_fail(err, errlen, "line %lu: want "
						  "cache line L l1i S W l1d S W "
						  "ll S W", c->lineno);
		}
		if (*t)
			return parse_fail(err, errlen, "line %lu: text after "
					  "the cache geometry", c->lineno);
	}
	*g = (struct insn_cache_geom){ v[0], v[1], v[2], v[3], v[4], v[5],
				       v[6] };
	if (!is_pow2(g->line) || g->line < 16 || g->line > 4096 ||
	    !geom_ok(g->l1i_size, g->l1i_ways, g->line) ||
	    !geom_ok(g->l1d_size, g->l1d_ways, g->line) ||
	    !geom_ok(g->ll_size, g->ll_ways, g->line))
		return parse_fail(err, errlen, "line %lu: impossible cache "
				  "geometry", c->lineno);
	if (next_line(c) || strncmp(c->line, "events", 6) ||
	    u64_list(c->line + 6, p->ev_total, INSN_EV_N))
		return parse_fail(err, errlen, "line %lu: want events and %d "
				  "counts", c->lineno, INSN_EV_N);
	return 0;
}

static int parse_header(struct cur *c, struct insn_prof *p, uint64_t *n,
			char *err, size_t errlen)
{
	static const char *const wins[] = { "none", "open", "closed",
					    "failed" };
	const char *e;
	size_t i;

	if (next_line(c) || (strcmp(c->line, "perflab-insn 1") &&
			      strcmp(c->line, "perflab-insn 2")))
		return parse_fail(err, errlen, "not a perflab-insn v1 or v2 "
				  "profile");
	p->cache = c->line[13] == '2';
	if (next_line(c) || strncmp(c->line, "markers ", 8) ||
	    !(e = parse_u64(c->line + 8, 10, &p->starts)) || *e != ' ' ||
	    !(e = parse_u64(e + 1, 10, &p->ends)) || *e)
		return parse_fail(err, errlen, "line %lu: want markers", c->lineno);
	if (next_line(c) || strncmp(c->line, "window ", 7))
		return parse_fail(err, errlen, "line %lu: want window", c->lineno);
	for (i = 0; i < 4 && strcmp(c->line + 7, wins[i]); i++)
		;
	if (i == 4)
		return parse_fail(err, errlen, "line %lu: bad window", c->lineno);
	p->window = (enum insn_window)i;
	if (next_line(c) || key_u64(c->line, "blocks", &p->blocks))
		return parse_fail(err, errlen, "line %lu: want blocks", c->lineno);
	if (next_line(c) || key_u64(c->line, "total", &p->total))
		return parse_fail(err, errlen, "line %lu: want total", c->lineno);
	if (p->cache && parse_cache_header(c, p, err, errlen))
		return -1;
	if (next_line(c) || key_u64(c->line, "addrs", n) ||
	    *n > INSN_PROF_MAX_ADDRS)
		return parse_fail(err, errlen, "line %lu: want addrs <= %u",
			    c->lineno, INSN_PROF_MAX_ADDRS);
	return 0;
}

struct pair {
	uint64_t addr, count;
	uint64_t ev[INSN_EV_N];
};

static int cmp_pair(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/*
 * An address's events are possible: no level misses more lines than it
 * was asked for (two per access at most: an access straddles at most
 * two lines of 16 bytes or more), and an LL miss is an L1 miss first.
 */
static int over_twice(uint64_t misses, uint64_t accesses)
{
	return accesses <= UINT64_MAX / 2 && misses > 2 * accesses;
}

static const char *events_impossible(const struct pair *v)
{
	const uint64_t *e = v->ev;

	if (over_twice(e[INSN_EV_I1M], v->count) ||
	    over_twice(e[INSN_EV_D1RM], e[INSN_EV_DR]) ||
	    over_twice(e[INSN_EV_D1WM], e[INSN_EV_DW]))
		return "more L1 misses than accesses";
	if (e[INSN_EV_LLIM] > e[INSN_EV_I1M] ||
	    e[INSN_EV_LLDRM] > e[INSN_EV_D1RM] ||
	    e[INSN_EV_LLDWM] > e[INSN_EV_D1WM])
		return "more LL misses than L1 misses";
	return NULL;
}

/* Column sums against the header's totals (overflow-checked). */
static int events_add_up(const struct insn_prof *p, const struct pair *v,
			 uint64_t n, char *err, size_t errlen)
{
	for (int k = 0; k < INSN_EV_N; k++) {
		uint64_t sum = 0;

		for (uint64_t i = 0; i < n; i++) {
			if (sum + v[i].ev[k] < sum)
				return parse_fail(err, errlen, "event counts "
						  "overflow");
			sum += v[i].ev[k];
		}
		if (sum != p->ev_total[k])
			return parse_fail(err, errlen, "event %d adds up to "
					  "%llu, events says %llu", k,
					  (unsigned long long)sum,
					  (unsigned long long)p->ev_total[k]);
	}
	return 0;
}

static int parse_body(struct cur *c, struct insn_prof *p, struct pair *v,
		      uint64_t n, char *err, size_t errlen)
{
	uint64_t sum = 0;
	const char *e, *why;

	for (uint64_t i = 0; i < n; i++) {
		if (next_line(c) || !(e = parse_u64(c->line, 16, &v[i].addr)) ||
		    *e != ' ' || !(e = parse_u64(e + 1, 10, &v[i].count)) ||
		    (p->cache ? u64_list(e, v[i].ev, INSN_EV_N) : *e != 0) ||
		    !v[i].count)
			return parse_fail(err, errlen, "line %lu: want \"hexaddr "
				    "count%s\" (count > 0)", c->lineno,
				    p->cache ? " and 8 events" : "");
		if (p->cache && (why = events_impossible(&v[i])))
			return parse_fail(err, errlen, "line %lu: %s", c->lineno,
					  why);
		if (sum + v[i].count < sum)
			return parse_fail(err, errlen, "counts overflow");
		sum += v[i].count;
	}
	if (p->cache && events_add_up(p, v, n, err, errlen))
		return -1;
	if (next_line(c) || strcmp(c->line, "end") || next_line(c) != -1)
		return parse_fail(err, errlen, "line %lu: want a final \"end\" "
			    "(truncated output?)", c->lineno);
	if (sum != p->total)
		return parse_fail(err, errlen, "counts add up to %llu, total says %llu",
			    (unsigned long long)sum,
			    (unsigned long long)p->total);
	qsort(v, n, sizeof(*v), cmp_pair);
	for (uint64_t i = 1; i < n; i++)
		if (v[i].addr == v[i - 1].addr)
			return parse_fail(err, errlen, "address %llx listed twice",
				    (unsigned long long)v[i].addr);
	return 0;
}

int insn_prof_parse(const char *text, size_t len, struct insn_prof *p,
		    char *err, size_t errlen)
{
	struct cur c = { .p = text, .end = text + len };
	struct pair *v = NULL;
	uint64_t n;

	memset(p, 0, sizeof(*p));
	if (len > INSN_PROF_MAX_BYTES)
		return parse_fail(err, errlen, "profile larger than %u bytes",
			    INSN_PROF_MAX_BYTES);
	if (parse_header(&c, p, &n, err, errlen))
		goto fail;
	v = calloc(n ? n : 1, sizeof(*v));
	p->addr = calloc(n ? n : 1, sizeof(*p->addr));
	p->count = calloc(n ? n : 1, sizeof(*p->count));
	if (p->cache)
		p->ev = calloc((n ? n : 1) * INSN_EV_N, sizeof(*p->ev));
	if (!v || !p->addr || !p->count || (p->cache && !p->ev)) {
		parse_fail(err, errlen, "out of memory");
		goto fail;
	}
	if (parse_body(&c, p, v, n, err, errlen))
		goto fail;
	for (uint64_t i = 0; i < n; i++) {
		p->addr[i] = v[i].addr;
		p->count[i] = v[i].count;
		if (p->cache)
			memcpy(p->ev + i * INSN_EV_N, v[i].ev, sizeof(v[i].ev));
	}
	p->n = n;
	free(v);
	return 0;
fail:
	free(v);
	insn_prof_free(p);
	return -1;
}

void insn_prof_free(struct insn_prof *p)
{
	free(p->addr);
	free(p->count);
	free(p->ev);
	memset(p, 0, sizeof(*p));
}

/* ---- symbol maps ------------------------------------------------------ */

struct rawsym {
	uint64_t addr;
	size_t order;		/* position in the file: stable ties */
	char *name;
};

static int cmp_raw(const void *a, const void *b)
{
	const struct rawsym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* "hexaddr T name" with a text type; name printable, no spaces. */
static char *map_line(const char *s, const char *end, uint64_t *addr)
{
	const char *e = s, *name;
	size_t n;

	while (e < end && *e != '\n' && (size_t)(e - s) < 20 &&
	       ((*e >= '0' && *e <= '9') || (*e >= 'a' && *e <= 'f') ||
		(*e >= 'A' && *e <= 'F')))
		e++;
	if (e == s || e + 3 > end || e[0] != ' ' || !strchr("tTwW", e[1]) ||
	    !e[1] || e[2] != ' ')
		return NULL;
	{
		char hex[24];

		memcpy(hex, s, e - s);
		hex[e - s] = '\0';
		if (!parse_u64(hex, 16, addr))
			return NULL;
	}
	name = e + 3;
	for (n = 0; name + n < end && name[n] > ' ' && name[n] < 0x7f; n++)
		if (n >= MAX_NAME)
			return NULL;
	if (!n || (name + n < end && name[n] != '\n'))
		return NULL;
	return strndup(name, n);
}

static int symtab_fill(struct insn_symtab *t, struct rawsym *r, size_t n)
{
	size_t k = 0;

	if (n)
		qsort(r, n, sizeof(*r), cmp_raw);
	t->start = calloc(n ? n : 1, sizeof(*t->start));
	t->end = calloc(n ? n : 1, sizeof(*t->end));
	t->name = calloc(n ? n : 1, sizeof(*t->name));
	if (!t->start || !t->end || !t->name)
		return -1;
	/* Aliases at one address: the first in the file names it. */
	for (size_t i = 0; i < n; i++) {
		if (k && t->start[k - 1] == r[i].addr) {
			free(r[i].name);
			continue;
		}
		t->start[k] = r[i].addr;
		t->name[k++] = r[i].name;
	}
	for (size_t i = 0; i < k; i++)
		t->end[i] = i + 1 < k ? t->start[i + 1] : t->start[i];
	t->n = k;
	return 0;
}

int insn_symtab_parse(const char *text, size_t len, struct insn_symtab *t)
{
	const char *p = text, *end = text + len;
	struct rawsym *r = NULL;
	size_t n = 0, cap = 0;

	memset(t, 0, sizeof(*t));
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		uint64_t addr;
		char *name = map_line(p, nl ? nl : end, &addr);

		p = nl ? nl + 1 : end;
		if (!name)
			continue;
		if (n == cap) {
			struct rawsym *nr;

			cap = cap ? cap * 2 : 4096;
			nr = realloc(r, cap * sizeof(*r));
			if (!nr) {
				free(name);
				goto fail;
			}
			r = nr;
		}
		r[n].addr = addr;
		r[n].order = n;
		r[n++].name = name;
	}
	if (symtab_fill(t, r, n))
		goto fail;
	free(r);
	return 0;
fail:
	if (!t->n)	/* the names were not handed to t yet */
		for (size_t i = 0; i < n; i++)
			free(r[i].name);
	free(r);
	insn_symtab_free(t);
	return -1;
}

long insn_symtab_find(const struct insn_symtab *t, uint64_t addr)
{
	size_t lo = 0, hi = t ? t->n : 0;

	/* Last symbol starting at or below addr. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->start[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || addr >= t->end[lo - 1])
		return -1;
	return (long)(lo - 1);
}

void insn_symtab_free(struct insn_symtab *t)
{
	for (size_t i = 0; t->name && i < t->n; i++)
		free(t->name[i]);
	free(t->start);
	free(t->end);
	free(t->name);
	memset(t, 0, sizeof(*t));
}
