// SPDX-License-Identifier: MIT
/*
 * Bisections on a noisy host, simulated with the lab's own decision code:
 * each step is an experiment whose runs are drawn (normal, sd @noise % of
 * the value, seeded), analysed by verdict_compare_values() at the looks
 * the planner plans (planner_points(), planner_look_alpha(); an
 * inconclusive verdict gets more runs up to the next point, as
 * analysis.c does), and the driver decides as lab/bisect_run.c does:
 *   old: step B vs G (5 runs, max 10) must be a regression or an
 *        improvement, its delta is the step; each midpoint is one more
 *        G vs M experiment, bad when bisect_is_bad(delta, step);
 *   new: the same reproduce check; each midpoint is one experiment of G,
 *        M and B (5 runs, max 20), decided by bisect_call() on M's 95 %
 *        CI against half of B's delta in that same experiment; unknown
 *        adds runs (10, then 20) and at the cap ends the bisection as
 *        "unknown"; the culprit found is measured against its parent
 *        (5 runs, max 10) and named only when that is significant in
 *        the step's direction (else "unknown": not confirmed);
 *   split: the new driver, but a midpoint that bisect_splits() puts
 *        between both ends hands the range to two bisections (lo..m and
 *        m..hi), each with its own first step; every culprit confirmed
 *        is named. Its outcome: right when every regression (the one
 *        culprit) is named and no commit that is not a change; wrong
 *        when any such commit is named; "unknown" when some but not
 *        all regressions are named, or a range ended unknown; "no
 *        repro" when every range's step did not reproduce.
 * 64 commits (G, 62 between, B), one culprit uniform over 1..63, a drop
 * of @k noise sds. Outcomes: right culprit, wrong (and more than two
 * commits away), did not reproduce, unknown; mean experiments and runs.
 * Figures, no assertions.
 *
 *   bisect-verdicts [-n BISECTIONS] [-r RUNS]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/analysis/bisect.h"
#include "daemon/analysis/stats.h"
#include "daemon/analysis/verdict.h"
#include "daemon/lab/planner.h"

#define NC 64
#define MAXR 64

struct sim {
	struct stats_rng rng;
	double noise;		/* sd, fraction */
	double step;		/* drop, fraction */
	size_t culprit;
	/* Scenarios: changes at pos[i] of rel[i] (fraction), culprits right[]. */
	int nch;
	size_t pos[3];
	double rel[3];
	int right[3];
	uint64_t nexp;
	long runs;		/* runs measured, all variants */
	long exps;
	size_t ctrl;		/* the control commit of experiment() */
	/* split driver: commits named, and in which direction */
	size_t named[NC];
	int nnamed, nunknown;
};

static double truth(const struct sim *s, size_t i)
{
	double f = 1;

	if (!s->nch)
		return 1e6 * (1 - (i >= s->culprit ? s->step : 0));
	for (int k = 0; k < s->nch; k++)
		if (i >= s->pos[k])
			f += s->rel[k];
	return 1e6 * f;
}

/* 1 when @c is a right answer of the scenario. */
static int is_right(const struct sim *s, size_t c)
{
	if (!s->nch)
		return c == s->culprit;
	for (int k = 0; k < s->nch; k++)
		if (s->right[k] && s->pos[k] == c)
			return 1;
	return 0;
}

static void draw(struct sim *s, size_t commit, double *v, int from, int to)
{
	for (int i = from; i < to; i++)
		v[i] = truth(s, commit) * (1 + s->noise * stats_rng_normal(&s->rng));
	s->runs += to - from;
}

/* Compare variant @v against control @c at @rounds of a (runs, max) plan. */
static void compare(struct sim *s, const double *c, const double *v, int rounds,
		    int runs, int max, int more, struct verdict_result *r)
{
	struct verdict_opts o;
	int at[32], looks;

	verdict_opts_default(&o);
	o.resamples = 1000;
	o.seed ^= s->nexp * 1000003u;
	planner_points(runs, max, VERDICT_MIN_RUNS, at, 32, &looks);
	o.looks = looks;
	o.alpha_look = planner_look_alpha(runs, max, VERDICT_MIN_RUNS, o.alpha,
					  rounds);
	o.more_runs = more;
	verdict_compare_values(c, (size_t)rounds, v, (size_t)rounds,
			       VERDICT_IOPS, &o, r);
}

/* The next planned point after @rounds, or 0. */
static int next_point(int runs, int max, int rounds)
{
	int at[32], looks, n = planner_points(runs, max, VERDICT_MIN_RUNS, at,
					      32, &looks);

	for (int i = 0; i < n; i++)
		if (at[i] > rounds)
			return at[i];
	return 0;
}

/*
 * One experiment: control @g and variants @cm[0..nv) at @runs, max @max,
 * extended while a verdict is inconclusive (analysis.c) and, when
 * @want is given, while want() says so. Results in @r; rounds returned.
 */
static int experiment(struct sim *s, const size_t *commits, int nv, int runs,
		      int max, struct verdict_result *r,
		      int (*want)(const struct verdict_result *, void *),
		      void *arg)
{
	double g[MAXR], v[3][MAXR];
	int rounds = 0, target = runs;

	s->nexp++;
	s->exps++;
	for (;;) {
		int next, incon = 0;

		draw(s, s->ctrl, g, rounds, target);
		for (int i = 0; i < nv; i++)
			draw(s, commits[i], v[i], rounds, target);
		rounds = target;
		next = next_point(runs, max, rounds);
		for (int i = 0; i < nv; i++) {
			compare(s, g, v[i], rounds, runs, max, next > 0, &r[i]);
			incon |= r[i].kind == VERDICT_INCONCLUSIVE;
		}
		if (next && (incon || (want && want(r, arg)))) {
			target = next;
			continue;
		}
		return rounds;
	}
}

enum outcome { RIGHT, WRONG, NOREPRO, UNKNOWN, NOUT };

static int significant(const struct verdict_result *r)
{
	return r->kind == VERDICT_REGRESSION || r->kind == VERDICT_IMPROVEMENT;
}

static int first_step(struct sim *s, int runs, double *delta)
{
	struct verdict_result r;
	size_t b = NC - 1;

	experiment(s, &b, 1, runs, 2 * runs, &r, NULL, NULL);
	*delta = r.delta_pct;
	return significant(&r);
}

static enum outcome old_driver(struct sim *s, int runs, size_t *found)
{
	enum bisect_state st[NC] = { BISECT_GOOD };
	double step;

	st[NC - 1] = BISECT_BAD;
	if (!first_step(s, runs, &step))
		return NOREPRO;
	for (;;) {
		struct bisect_step b = bisect_next(st, NC);
		struct verdict_result r;

		if (b.result == BISECT_FOUND) {
			*found = b.index;
			return is_right(s, b.index) ? RIGHT : WRONG;
		}
		if (b.result != BISECT_TEST)
			return UNKNOWN;
		experiment(s, &b.index, 1, runs, 2 * runs, &r, NULL, NULL);
		st[b.index] = bisect_is_bad(r.delta_pct, step) ? BISECT_BAD :
								 BISECT_GOOD;
	}
}

struct callarg {
	int dir;
};

/* More runs while M's call is unknown. */
static int unknown(const struct verdict_result *r, void *arg)
{
	const struct callarg *a = arg;

	return bisect_call(r[0].ci_lo, r[0].ci_hi, r[1].delta_pct, a->dir) ==
	       BISECT_CALL_UNKNOWN;
}

/* The culprit @c against its parent: significant in direction @dir. */
static int confirmed(struct sim *s, int runs, size_t c, int dir)
{
	struct verdict_result r;
	double g[MAXR], v[MAXR];
	int rounds = 0, target = runs;

	s->nexp++;
	s->exps++;
	for (;;) {
		int next;

		draw(s, c - 1, g, rounds, target);
		draw(s, c, v, rounds, target);
		rounds = target;
		next = next_point(runs, 2 * runs, rounds);
		compare(s, g, v, rounds, runs, 2 * runs, next > 0, &r);
		if (next && r.kind == VERDICT_INCONCLUSIVE) {
			target = next;
			continue;
		}
		return significant(&r) && dir * r.delta_pct > 0;
	}
}

static enum outcome new_driver(struct sim *s, int runs, size_t *found)
{
	enum bisect_state st[NC] = { BISECT_GOOD };
	struct callarg a;
	double step;

	st[NC - 1] = BISECT_BAD;
	if (!first_step(s, runs, &step))
		return NOREPRO;
	a.dir = step > 0 ? 1 : -1;
	for (;;) {
		struct bisect_step b = bisect_next(st, NC);
		struct verdict_result r[2];
		size_t cm[2];
		enum bisect_call c;

		if (b.result == BISECT_FOUND) {
			*found = b.index;
			/* Confirmed against its parent, else no culprit. */
			if (b.index > 1 && !confirmed(s, runs, b.index, a.dir))
				return UNKNOWN;
			return is_right(s, b.index) ? RIGHT : WRONG;
		}
		if (b.result != BISECT_TEST)
			return UNKNOWN;
		cm[0] = b.index;
		cm[1] = NC - 1;
		experiment(s, cm, 2, runs, 4 * runs, r, unknown, &a);
		c = bisect_call(r[0].ci_lo, r[0].ci_hi, r[1].delta_pct, a.dir);
		if (c == BISECT_CALL_UNKNOWN)
			return UNKNOWN;
		st[b.index] = c == BISECT_CALL_BAD ? BISECT_BAD : BISECT_GOOD;
	}
}

/*
 * Several culprits (lab/bisect_run.c since the split): the new driver
 * over commits [lo, hi], its own first step hi vs lo; a midpoint that
 * bisect_splits() puts between both ends hands the range to two
 * bisections, lo..m and m..hi. Every culprit confirmed is named.
 */
static void split_range(struct sim *s, int runs, size_t lo, size_t hi,
			int depth)
{
	enum bisect_state st[NC] = { BISECT_GOOD };
	size_t n = hi - lo + 1, b = hi;
	struct verdict_result r[2];
	struct callarg a;

	s->ctrl = lo;
	experiment(s, &b, 1, runs, 2 * runs, r, NULL, NULL);
	if (!significant(&r[0]) || depth > 8)
		return;		/* did not reproduce */
	a.dir = r[0].delta_pct > 0 ? 1 : -1;
	st[n - 1] = BISECT_BAD;
	for (;;) {
		struct bisect_step bs = bisect_next(st, n);
		size_t cm[2];
		enum bisect_call c;

		if (bs.result == BISECT_FOUND) {
			if (bs.index > 1 && !confirmed(s, runs, lo + bs.index, a.dir)) {
				s->nunknown++;
				return;
			}
			s->named[s->nnamed++] = lo + bs.index;
			return;
		}
		if (bs.result != BISECT_TEST)
			return;
		cm[0] = lo + bs.index;
		cm[1] = hi;
		s->ctrl = lo;
		experiment(s, cm, 2, runs, 4 * runs, r, unknown, &a);
		if (bisect_splits(r[0].ci_lo, r[0].ci_hi, r[1].ci_lo, r[1].ci_hi,
				  a.dir)) {
			split_range(s, runs, lo, lo + bs.index, depth + 1);
			split_range(s, runs, lo + bs.index, hi, depth + 1);
			return;
		}
		c = bisect_call(r[0].ci_lo, r[0].ci_hi, r[1].delta_pct, a.dir);
		if (c == BISECT_CALL_UNKNOWN) {
			s->nunknown++;
			return;
		}
		st[bs.index] = c == BISECT_CALL_BAD ? BISECT_BAD : BISECT_GOOD;
	}
}

/* 1 when @c is a position of a change of the scenario (or its culprit). */
static int is_change(const struct sim *s, size_t c)
{
	if (!s->nch)
		return c == s->culprit;
	for (int k = 0; k < s->nch; k++)
		if (s->pos[k] == c)
			return 1;
	return 0;
}

/*
 * The split driver's outcome: RIGHT when every regression (every right[]
 * change, or the one culprit) is named and nothing else but changes;
 * WRONG when any commit that is no change is named; UNKNOWN when some
 * but not all are named; NOREPRO when none is.
 */
static enum outcome split_driver(struct sim *s, int runs, size_t *found)
{
	int want = 0, got = 0, wrong = 0;

	s->nnamed = s->nunknown = 0;
	split_range(s, runs, 0, NC - 1, 0);
	for (int i = 0; i < s->nnamed; i++) {
		wrong += !is_change(s, s->named[i]);
		got += is_right(s, s->named[i]);
		*found = s->named[i];
	}
	if (!s->nch)
		want = 1;
	for (int k = 0; k < s->nch; k++)
		want += s->right[k];
	s->ctrl = 0;
	if (wrong)
		return WRONG;
	if (want && got >= want)
		return RIGHT;
	return s->nnamed || s->nunknown ? UNKNOWN : NOREPRO;
}

static enum outcome drive(int drv, struct sim *s, int runs, size_t *found)
{
	s->ctrl = 0;
	if (drv == 2)
		return split_driver(s, runs, found);
	return drv ? new_driver(s, runs, found) : old_driver(s, runs, found);
}

static const char *const drv_name[] = { "old", "new", "split" };

static void rows(int n, int runs)
{
	static const double noise[] = { 0.002, 0.1, 0.3, 0.5 };
	static const double k[] = { 1, 2, 4, 8 };

	printf("%d bisections per row, %d commits, %d runs a side\n", n, NC, runs);
	printf("%-6s %7s %5s %7s %7s %9s %9s %8s %6s %7s\n", "driver", "noise %",
	       "step", "right", "wrong", "wrong >2", "no repro", "unknown",
	       "exps", "runs");
	for (size_t ni = 0; ni < 4; ni++)
		for (size_t ki = 0; ki < 4; ki++)
			for (int drv = 0; drv < 3; drv++) {
				long cnt[NOUT] = { 0 }, far = 0;
				struct sim s = { .noise = noise[ni] / 100,
						 .step = k[ki] * noise[ni] / 100 };

				/* the seeds of the 0.1 / 0.3 / 0.5 rows as before */
				stats_rng_seed(&s.rng, 0xb15ec7 + 1000 * (ni ? ni - 1 : 7) +
						       10 * ki);
				for (int i = 0; i < n; i++) {
					size_t found = 0;
					enum outcome o;

					s.culprit = 1 + stats_rng_below(&s.rng, NC - 1);
					o = drive(drv, &s, runs, &found);
					cnt[o]++;
					if (o == WRONG &&
					    (found > s.culprit ? found - s.culprit :
								 s.culprit - found) > 2)
						far++;
				}
				printf("%-6s %7.3g %4.0fx %6.1f%% %6.1f%% %8.1f%% %8.1f%%"
				       " %7.1f%% %6.1f %7.1f\n",
				       drv_name[drv], noise[ni], k[ki],
				       100.0 * cnt[RIGHT] / n, 100.0 * cnt[WRONG] / n,
				       100.0 * far / n, 100.0 * cnt[NOREPRO] / n,
				       100.0 * cnt[UNKNOWN] / n, (double)s.exps / n,
				       (double)s.runs / n);
				fflush(stdout);
			}
}

/* Positions 1 <= a < b < c <= 63, at least 4 apart. */
static void three(struct sim *s, size_t *p, int n)
{
	for (;;) {
		int ok = 1;

		for (int i = 0; i < n; i++)
			p[i] = 1 + stats_rng_below(&s->rng, NC - 1);
		for (int i = 0; i < n; i++)
			for (int j = i + 1; j < n; j++)
				ok &= (p[i] > p[j] ? p[i] - p[j] : p[j] - p[i]) >= 4;
		if (!ok)
			continue;
		for (int i = 0; i < n; i++)
			for (int j = i + 1; j < n; j++)
				if (p[j] < p[i]) {
					size_t t = p[i];

					p[i] = p[j];
					p[j] = t;
				}
		return;
	}
}

static void scenarios(int n, int runs)
{
	static const double noise[] = { 0.002, 0.1, 0.5 };
	static const struct {
		const char *name;
		int nch;
		double rel[3];	/* in noise sds */
		int right[3];
	} sc[] = {
		{ "two regressions of 4 sd", 2, { -4, -4 }, { 1, 1 } },
		{ "regression, revert, regression (8 sd)", 3, { -8, 8, -8 }, { 1, 0, 1 } },
		{ "improvement and regression cancel (8 sd)", 2, { 8, -8 }, { 0, 0 } },
	};

	printf("\nseveral changes in one range, %d bisections per row (old, new:"
	       " right = a regression named, wrong = the revert, an improvement"
	       " or any other commit; split: right = every regression named,"
	       " wrong = a commit that is no change named, unknown = some but"
	       " not all regressions named)\n", n);
	printf("%-6s %7s %-42s %7s %7s %9s %8s\n", "driver", "noise %",
	       "scenario", "right", "wrong", "no repro", "unknown");
	for (size_t ni = 0; ni < 3; ni++)
		for (size_t si = 0; si < 3; si++)
			for (int drv = 0; drv < 3; drv++) {
				long cnt[NOUT] = { 0 };
				struct sim s = { .noise = noise[ni] / 100,
						 .nch = sc[si].nch };

				stats_rng_seed(&s.rng, 0x5ce7 + 100 * (ni ? ni - 1 : 7) + si);
				for (int k = 0; k < s.nch; k++) {
					s.rel[k] = sc[si].rel[k] * noise[ni] / 100;
					s.right[k] = sc[si].right[k];
				}
				for (int i = 0; i < n; i++) {
					size_t found = 0;

					three(&s, s.pos, s.nch);
					cnt[drive(drv, &s, runs, &found)]++;
				}
				printf("%-6s %7.3g %-42s %6.1f%% %6.1f%% %8.1f%% %7.1f%%\n",
				       drv_name[drv], noise[ni], sc[si].name,
				       100.0 * cnt[RIGHT] / n, 100.0 * cnt[WRONG] / n,
				       100.0 * cnt[NOREPRO] / n, 100.0 * cnt[UNKNOWN] / n);
				fflush(stdout);
			}
}

int main(int argc, char **argv)
{
	int n = 500, runs = 5, opt;

	while ((opt = getopt(argc, argv, "n:r:")) != -1) {
		switch (opt) {
		case 'n':
			n = atoi(optarg);
			break;
		case 'r':
			runs = atoi(optarg);
			break;
		default:
			fprintf(stderr, "usage: %s [-n bisections] [-r runs]\n",
				argv[0]);
			return 2;
		}
	}
	if (n < 1 || runs < 5 || runs > MAXR / 4) {
		fprintf(stderr, "bad -n or -r (runs 5..%d)\n", MAXR / 4);
		return 2;
	}
	rows(n, runs);
	scenarios(n, runs);
	return 0;
}
