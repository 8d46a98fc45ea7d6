// SPDX-License-Identifier: MIT
/*
 * perf-diff benchmark: two 50K-symbol profiles (different symbol order,
 * ~5% of the symbols on one side only), diffed with perfdiff_compute; then
 * the perf diff text layout. Prints the median and best wall time of each
 * step over the iterations, and the median CPU time of this thread, which
 * other load on the machine disturbs less (goal: diff < 50 ms).
 *
 *	perfdiff-bench [SYMBOLS] [RUNS_PER_SIDE] [ITERATIONS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "daemon/analysis/perfdiff.h"

static double clock_ms(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Wall time, and the CPU time of this thread (steadier on a shared box). */
static double now_ms(void)
{
	return clock_ms(CLOCK_MONOTONIC);
}

static double cpu_ms(void)
{
	return clock_ms(CLOCK_THREAD_CPUTIME_ID);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static const char *const dsos[] = {
	"[kernel.kallsyms]", "[nvme]", "perflab-bench", "libc.so.6",
};

/* Profile with @n symbols out of a universe of names; @skew picks which. */
static void make_profile(struct perfdiff_run *p, char **names, size_t n,
			 size_t offset, uint64_t seed)
{
	struct perfdiff_sym *s = calloc(n, sizeof(*s));
	uint64_t total = 0;
	size_t i, j;

	for (i = 0; i < n; i++) {
		j = (i * 7919 + offset) % (n + n / 20);	/* shuffled, 5% shifted */
		s[i].dso = dsos[j % 4];
		s[i].name = names[j];
		s[i].count[0] = 1 + rnd(&seed) % 1000;
		total += s[i].count[0];
	}
	p->event = "cpu-clock";
	p->counter[0] = total + total / 10; /* samples; none lost */
	p->nr_syms = n;
	p->syms = s;
}

static void report(const char *what, double *t, double *c, int n)
{
	qsort(t, n, sizeof(*t), cmp_double);
	qsort(c, n, sizeof(*c), cmp_double);
	printf("%-34s wall median %7.2f ms  best %7.2f ms  cpu median %7.2f ms\n",
	       what, t[n / 2], t[0], c[n / 2]);
}

int main(int argc, char **argv)
{
	size_t nsym = argc > 1 ? strtoul(argv[1], NULL, 10) : 50000;
	size_t runs = argc > 2 ? strtoul(argv[2], NULL, 10) : 1;
	int iters = argc > 3 ? atoi(argv[3]) : 21, it;
	size_t universe = nsym + nsym / 20 + 1, i;
	char **names = malloc(universe * sizeof(*names));
	struct perfdiff_run *prof = calloc(2 * runs, sizeof(*prof));
	struct perfdiff_side sides[2];
	double *tc = calloc(iters, sizeof(double));
	double *tt = calloc(iters, sizeof(double));
	double *cc = calloc(iters, sizeof(double));
	double *ct = calloc(iters, sizeof(double));
	struct perfdiff_opts o;
	char err[128], what[80];
	size_t rows = 0, textlen = 0;

	if (!names || !prof || !tc || !tt || !cc || !ct || iters < 1)
		return 1;
	for (i = 0; i < universe; i++)
		if (asprintf(&names[i], "blk_mq_symbol_%zu_%s", i,
			     i % 3 ? "submit" : "complete") < 0)
			return 1;
	for (i = 0; i < runs; i++) {
		make_profile(&prof[i], names, nsym, 0, 88172645463325252ULL + i);
		make_profile(&prof[runs + i], names, nsym, nsym / 20, 1234567 + i);
	}
	sides[0] = (struct perfdiff_side){ "control", runs, prof };
	sides[1] = (struct perfdiff_side){ "tag", runs, prof + runs };
	perfdiff_default_opts(&o);
	for (it = 0; it < iters; it++) {
		double c0 = cpu_ms(), t0 = now_ms(), t1, t2, c1;
		struct perfdiff_result *r = perfdiff_compute(&perfdiff_samples, sides, 2, &o, err, sizeof(err));
		char *text;

		if (!r) {
			fprintf(stderr, "perfdiff_compute: %s\n", err);
			return 1;
		}
		t1 = now_ms();
		c1 = cpu_ms();
		text = perfdiff_text(r, &textlen);
		t2 = now_ms();
		cc[it] = c1 - c0;
		ct[it] = cpu_ms() - c1;
		tc[it] = t1 - t0;
		tt[it] = t2 - t1;
		rows = r->nr_rows;
		free(text);
		perfdiff_free(r);
	}
	printf("perf-diff of two %zu-symbol profiles, %zu run(s) per side, %zu rows, %d iterations\n",
	       nsym, runs, rows, iters);
	snprintf(what, sizeof(what), "compute (match, stats, sort)");
	report(what, tc, cc, iters);
	snprintf(what, sizeof(what), "text layout (%zu bytes)", textlen);
	report(what, tt, ct, iters);
	return 0;
}
