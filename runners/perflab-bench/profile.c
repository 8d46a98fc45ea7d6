// SPDX-License-Identifier: MIT
/*
 * libperf-based system-wide sampling. The main thread drains the ring
 * buffers while the benchmark runs; distinct callchains are kept in an
 * open-addressing table with counts. Symbolisation happens after the run.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <perf/core.h>
#include <perf/cpumap.h>
#include <perf/event.h>
#include <perf/evlist.h>
#include <perf/evsel.h>
#include <perf/mmap.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jw.h"
#include "profile.h"
#include "symbols.h"

#define MMAP_PAGES	128	/* data pages per CPU, power of two */
#define MAX_FRAMES	128
#define JSON_STACKS	2000	/* folded stacks written, most samples first */

struct stack {
	uint64_t hash;
	uint64_t count;
	size_t off;		/* first ip in p->ips */
	uint32_t nr;
	int pid;		/* owner of user frames, -1 if none */
};

struct count {
	const char *a, *b;	/* dso + symbol, or folded stack + NULL */
	char *owned;
	uint64_t n;
};

struct profile {
	struct perf_evlist *evlist;
	const char *event;
	unsigned int freq;
	uint64_t total, lost, dropped;
	uint64_t drain_ns;	/* CPU time spent reading the buffers */
	struct stack *tab;	/* power-of-two sized, hash 0 = empty */
	size_t cap, used;
	uint64_t *ips;
	size_t nips, capips;
	struct ksyms *ks;
	struct usyms *us;
	struct count *syms, *stacks;
	size_t nsyms, nstacks;
};

static int quiet_print(enum libperf_print_level level, const char *fmt,
		       va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static int try_open(struct profile *p, __u32 type, __u64 config)
{
	struct perf_event_attr attr = {
		.type = type,
		.size = sizeof(attr),
		.config = config,
		.disabled = 1,
		.freq = 1,
		.sample_freq = p->freq,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			       PERF_SAMPLE_CALLCHAIN,
	};
	struct perf_cpu_map *cpus = perf_cpu_map__new(NULL);
	struct perf_evsel *evsel;
	int err = -ENOMEM;

	p->evlist = perf_evlist__new();
	if (!cpus || !p->evlist)
		goto out;
	evsel = perf_evsel__new(&attr);
	if (!evsel)
		goto out;
	perf_evlist__add(p->evlist, evsel);
	perf_evlist__set_maps(p->evlist, cpus, NULL);
	err = perf_evlist__open(p->evlist);
	if (!err)
		err = perf_evlist__mmap(p->evlist, MMAP_PAGES);
out:
	perf_cpu_map__put(cpus);
	if (err && p->evlist) {
		perf_evlist__delete(p->evlist);
		p->evlist = NULL;
	}
	return err > 0 ? -err : err;
}

struct profile *profile_open(unsigned int freq, char *err, size_t len)
{
	struct profile *p = calloc(1, sizeof(*p));
	int ret;

	if (!p) {
		snprintf(err, len, "profile: out of memory");
		return NULL;
	}
	libperf_init(quiet_print);
	p->freq = freq;
	p->cap = 4096;
	p->tab = calloc(p->cap, sizeof(*p->tab));
	p->us = usyms_new();
	if (!p->tab || !p->us) {
		snprintf(err, len, "profile: out of memory");
		goto fail;
	}
	p->event = "cycles";
	ret = try_open(p, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	if (ret) {
		p->event = "cpu-clock";
		ret = try_open(p, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
	}
	if (ret) {
		snprintf(err, len,
			 "profile: perf_event_open (system-wide cpu-clock) failed: %s "
			 "(needs root or kernel.perf_event_paranoid <= 0, and a "
			 "kernel with CONFIG_PERF_EVENTS)",
			 strerror(-ret));
		goto fail;
	}
	return p;
fail:
	profile_close(p);
	return NULL;
}

const char *profile_event(const struct profile *p)
{
	return p->event;
}

void profile_enable(struct profile *p)
{
	perf_evlist__enable(p->evlist);
}

void profile_disable(struct profile *p)
{
	perf_evlist__disable(p->evlist);
}

uint64_t profile_total(const struct profile *p)
{
	return p->total;
}

uint64_t profile_lost(const struct profile *p)
{
	return p->lost;
}

static uint64_t hash_chain(int pid, const uint64_t *ips, uint32_t nr)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ (uint64_t)(uint32_t)pid;
	uint32_t i;

	for (i = 0; i < nr; i++) {
		h ^= ips[i];
		h *= 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	return h ? h : 1;
}

static int grow_table(struct profile *p)
{
	size_t cap = p->cap * 2, i;
	struct stack *t = calloc(cap, sizeof(*t));

	if (!t)
		return -1;
	for (i = 0; i < p->cap; i++) {
		size_t j;

		if (!p->tab[i].hash)
			continue;
		for (j = p->tab[i].hash & (cap - 1); t[j].hash; j = (j + 1) & (cap - 1))
			;
		t[j] = p->tab[i];
	}
	free(p->tab);
	p->tab = t;
	p->cap = cap;
	return 0;
}

static int push_ips(struct profile *p, const uint64_t *ips, uint32_t nr)
{
	if (p->nips + nr > p->capips) {
		size_t cap = p->capips ? p->capips * 2 : 65536;
		uint64_t *v;

		while (cap < p->nips + nr)
			cap *= 2;
		v = realloc(p->ips, cap * sizeof(*v));
		if (!v)
			return -1;
		p->ips = v;
		p->capips = cap;
	}
	memcpy(p->ips + p->nips, ips, nr * sizeof(*ips));
	p->nips += nr;
	return 0;
}

static void add_chain(struct profile *p, int pid, const uint64_t *ips,
		      uint32_t nr)
{
	uint64_t h = hash_chain(pid, ips, nr);
	size_t j;

	if (p->used * 2 >= p->cap && grow_table(p)) {
		p->dropped++;
		return;
	}
	for (j = h & (p->cap - 1); p->tab[j].hash; j = (j + 1) & (p->cap - 1)) {
		struct stack *s = &p->tab[j];

		if (s->hash == h && s->pid == pid && s->nr == nr &&
		    !memcmp(p->ips + s->off, ips, nr * sizeof(*ips))) {
			s->count++;
			return;
		}
	}
	if (push_ips(p, ips, nr)) {
		p->dropped++;
		return;
	}
	p->tab[j] = (struct stack){ h, 1, p->nips - nr, nr, pid };
	p->used++;
}

static void on_sample(struct profile *p, const union perf_event *ev)
{
	const uint64_t *a = (const uint64_t *)ev->sample.array;
	size_t words = (ev->header.size - sizeof(ev->header)) / sizeof(*a);
	uint64_t nr, one[2];
	int pid;
	bool user = false;
	uint64_t i;

	if (words < 3)
		return;
	pid = (int)(uint32_t)(a[1] & 0xffffffffu);
	nr = a[2];
	if (nr > words - 3)
		return;
	p->total++;
	if (!nr) {
		one[0] = a[0] >= 0xffff800000000000ULL ? PERF_CONTEXT_KERNEL :
							  PERF_CONTEXT_USER;
		one[1] = a[0];
		add_chain(p, one[0] == PERF_CONTEXT_USER ? pid : -1, one, 2);
		return;
	}
	if (nr > MAX_FRAMES)
		nr = MAX_FRAMES;
	for (i = 0; i < nr; i++)
		user |= a[3 + i] == PERF_CONTEXT_USER;
	if (user && pid > 0)
		usyms_note_pid(p->us, pid);
	add_chain(p, user ? pid : -1, a + 3, nr);
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

void profile_drain(struct profile *p)
{
	uint64_t t0 = thread_cpu_ns();
	struct perf_mmap *map;
	union perf_event *ev;

	perf_evlist__for_each_mmap(p->evlist, map, false) {
		if (perf_mmap__read_init(map) < 0)
			continue;
		while ((ev = perf_mmap__read_event(map))) {
			if (ev->header.type == PERF_RECORD_SAMPLE)
				on_sample(p, ev);
			else if (ev->header.type == PERF_RECORD_LOST)
				p->lost += ev->lost.lost;
			else if (ev->header.type == PERF_RECORD_LOST_SAMPLES)
				p->lost += ev->lost_samples.lost;
			perf_mmap__consume(map);
		}
		perf_mmap__read_done(map);
	}
	p->drain_ns += thread_cpu_ns() - t0;
}

/* ---- after the run ---------------------------------------------------- */

static struct sym_hit resolve(struct profile *p, int pid, uint64_t ip,
			      uint64_t ctx)
{
	if (ctx == PERF_CONTEXT_KERNEL ||
	    (ctx != PERF_CONTEXT_USER && ip >= 0xffff800000000000ULL))
		return ksyms_lookup(p->ks, ip);
	return usyms_lookup(p->us, pid, ip);
}

static int count_push(struct count **v, size_t *n, struct count c)
{
	struct count *nv = realloc(*v, (*n + 1) * sizeof(**v));

	if (!nv)
		return -1;
	*v = nv;
	nv[(*n)++] = c;
	return 0;
}

static int cmp_name(const void *x, const void *y)
{
	const struct count *a = x, *b = y;
	int r = strcmp(a->a, b->a);

	if (r || !a->b)
		return r;
	return strcmp(a->b, b->b);
}

static int cmp_count(const void *x, const void *y)
{
	const struct count *a = x, *b = y;

	if (a->n != b->n)
		return a->n < b->n ? 1 : -1;
	return cmp_name(x, y);
}

/* Sorts by name, merges equal names, then sorts by count. */
static void merge_counts(struct count *v, size_t *n)
{
	size_t i, out = 0;

	qsort(v, *n, sizeof(*v), cmp_name);
	for (i = 0; i < *n; i++) {
		if (out && !cmp_name(&v[out - 1], &v[i])) {
			v[out - 1].n += v[i].n;
			free(v[i].owned);
			continue;
		}
		v[out++] = v[i];
	}
	*n = out;
	qsort(v, *n, sizeof(*v), cmp_count);
}

static int append(char **buf, size_t *len, size_t *cap, const char *s)
{
	size_t n = strlen(s);

	if (*len + n + 2 > *cap) {
		size_t c = (*cap ? *cap : 256);
		char *b;

		while (*len + n + 2 > c)
			c *= 2;
		b = realloc(*buf, c);
		if (!b)
			return -1;
		*buf = b;
		*cap = c;
	}
	if (*len)
		(*buf)[(*len)++] = ';';
	memcpy(*buf + *len, s, n + 1);
	*len += n;
	return 0;
}

/* Folds one callchain root first and counts its leaf symbol. */
static int fold(struct profile *p, const struct stack *s)
{
	const uint64_t *ips = p->ips + s->off;
	struct sym_hit hits[MAX_FRAMES];
	uint64_t ctx = 0;
	uint32_t i, nh = 0;
	char *buf = NULL, name[160];
	size_t len = 0, cap = 0;

	for (i = 0; i < s->nr; i++) {
		if (ips[i] >= PERF_CONTEXT_MAX) {
			ctx = ips[i];
			continue;
		}
		/* Callers are return addresses: look up the call itself. */
		hits[nh] = resolve(p, s->pid, nh ? ips[i] - 1 : ips[i], ctx);
		nh++;
	}
	if (!nh) /* a callchain of context markers only */
		hits[nh++] = (struct sym_hit){ "[unknown]", "[unknown]" };
	if (count_push(&p->syms, &p->nsyms,
		       (struct count){ hits[0].dso, hits[0].sym, NULL, s->count }))
		return -1;
	for (i = nh; i > 0; i--) {
		const struct sym_hit *h = &hits[i - 1];

		if (strcmp(h->sym, "[unknown]") || h->dso[0] == '[')
			snprintf(name, sizeof(name), "%s", h->sym);
		else
			snprintf(name, sizeof(name), "[%s]", h->dso);
		if (append(&buf, &len, &cap, name)) {
			free(buf);
			return -1;
		}
	}
	if (count_push(&p->stacks, &p->nstacks,
		       (struct count){ buf, NULL, buf, s->count })) {
		free(buf);
		return -1;
	}
	return 0;
}

int profile_resolve(struct profile *p)
{
	size_t i;

	p->ks = ksyms_load(NULL);
	for (i = 0; i < p->cap; i++)
		if (p->tab[i].hash && fold(p, &p->tab[i]))
			return -1;
	merge_counts(p->syms, &p->nsyms);
	merge_counts(p->stacks, &p->nstacks);
	return 0;
}

void profile_write_json(const struct profile *p, struct jw *j)
{
	uint64_t omitted = 0;
	size_t i;

	jw_obj_open(j);
	jw_key(j, "event");
	jw_str(j, p->event);
	jw_key(j, "freq");
	jw_u64(j, p->freq);
	jw_key(j, "total");
	jw_u64(j, p->total);
	jw_key(j, "lost");
	jw_u64(j, p->lost);
	jw_key(j, "dropped");
	jw_u64(j, p->dropped);
	jw_key(j, "drain_cpu_ns");
	jw_u64(j, p->drain_ns);
	jw_key(j, "kallsyms");
	jw_u64(j, ksyms_count(p->ks));
	jw_key(j, "symbols");
	jw_arr_open(j);
	for (i = 0; i < p->nsyms; i++) {
		jw_nl(j);
		jw_obj_open(j);
		jw_key(j, "dso");
		jw_str(j, p->syms[i].a);
		jw_key(j, "sym");
		jw_str(j, p->syms[i].b);
		jw_key(j, "samples");
		jw_u64(j, p->syms[i].n);
		jw_obj_close(j);
	}
	jw_arr_close(j);
	jw_key(j, "stacks");
	jw_arr_open(j);
	for (i = 0; i < p->nstacks; i++) {
		if (i >= JSON_STACKS) {
			omitted += p->stacks[i].n;
			continue;
		}
		jw_nl(j);
		jw_obj_open(j);
		jw_key(j, "stack");
		jw_str(j, p->stacks[i].a);
		jw_key(j, "samples");
		jw_u64(j, p->stacks[i].n);
		jw_obj_close(j);
	}
	jw_arr_close(j);
	jw_key(j, "stacks_omitted_samples");
	jw_u64(j, omitted);
	jw_obj_close(j);
}

void profile_print_top(const struct profile *p, FILE *f, unsigned int n)
{
	size_t i;

	fprintf(f, "Profile: event=%s, %llu samples, %llu lost\n", p->event,
		(unsigned long long)p->total, (unsigned long long)p->lost);
	for (i = 0; i < p->nsyms && i < n; i++)
		fprintf(f, "  %6.2f%%  %-20s %s\n",
			p->total ? 100.0 * p->syms[i].n / p->total : 0.0,
			p->syms[i].a, p->syms[i].b);
}

void profile_close(struct profile *p)
{
	size_t i;

	if (!p)
		return;
	if (p->evlist)
		perf_evlist__delete(p->evlist);
	for (i = 0; i < p->nstacks; i++)
		free(p->stacks[i].owned);
	free(p->stacks);
	free(p->syms);
	free(p->tab);
	free(p->ips);
	ksyms_free(p->ks);
	usyms_free(p->us);
	free(p);
}
