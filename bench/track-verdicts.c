// SPDX-License-Identifier: MIT
/*
 * Tracks on a noisy host: series fed point by point exactly as the
 * series code does (lab/series.c: detection and merge on the series
 * without its last point and with it, then cp_track_reconcile()), seeded.
 * Prints, for run-to-run noise 0.1 %, 0.3 % and 0.5 %:
 *   - false alarms: pure noise; change points that became confirmed
 *     (each one starts a bisection) per 1,000 points, and the share of
 *     series with at least one, at the old track defaults (min_size 3,
 *     max_p 0.05) and at today's (cp_opts_track(&o, 0, 0): 5, 0.001);
 *   - location: one clean step of @sigma noise sds at point @at; where
 *     the confirmed change point is stored: at its first candidate's
 *     index (the old rule: update_cp never moved it) and at the current
 *     detection's (today's rule), as exact / one early / other.
 * Figures, no assertions.
 *
 *   track-verdicts [-n SERIES] [-l LENGTH] [-s SIGMA] [-a AT] [-m MODE]
 *   MODE: all (default), noise, step
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/analysis/changepoint.h"
#include "daemon/analysis/cp_track.h"
#include "daemon/analysis/stats.h"

#define MAXCP 256

struct row {
	struct cp_row r;
	size_t first;		/* index when first stored */
	int ever_confirmed;
};

struct feed {
	struct row rows[MAXCP];
	size_t nrows;
	long confirmed;		/* rows that ever became confirmed */
};

/* Detection and merge on x[0..n), as series.c's detect(). */
static int detect(const double *x, size_t n, const struct cp_opts *o,
		  struct cp *out)
{
	int k;

	if (n < 2 * (size_t)o->min_size)
		return 0;
	k = cp_detect(x, n, o, out, MAXCP);
	return k < 0 ? -1 : cp_merge(x, n, o, out, (size_t)k);
}

/* Feed x[0..len) point by point; @f gets the rows. */
static int feed(const double *x, size_t len, const struct cp_opts *o,
		struct feed *f)
{
	struct cp a[MAXCP], b[MAXCP], *prev = a, *cur = b, *t;
	struct cp_row rr[MAXCP];
	unsigned char fresh[MAXCP];
	int kp = 0, k;

	memset(f, 0, sizeof(*f));
	for (size_t n = 1; n <= len; n++) {
		k = detect(x, n, o, cur);
		if (k < 0)
			return -1;
		for (size_t i = 0; i < f->nrows; i++)
			rr[i] = f->rows[i].r;
		cp_track_reconcile(rr, f->nrows, cur, (size_t)k, prev,
				   (size_t)kp, (size_t)o->min_size, fresh);
		for (size_t i = 0; i < f->nrows; i++) {
			f->rows[i].r = rr[i];
			if (rr[i].state == CP_CONFIRMED &&
			    !f->rows[i].ever_confirmed) {
				f->rows[i].ever_confirmed = 1;
				f->confirmed++;
			}
		}
		for (int c = 0; c < k && f->nrows < MAXCP; c++) {
			struct row *r = &f->rows[f->nrows];

			if (!fresh[c])
				continue;
			memset(r, 0, sizeof(*r));
			r->r.index = r->first = cur[c].index;
			r->r.state = (enum cp_state)(fresh[c] - 1);
			r->r.match = c;
			if (r->r.state == CP_CONFIRMED) {
				r->ever_confirmed = 1;
				f->confirmed++;
			}
			f->nrows++;
		}
		t = prev;
		prev = cur;
		cur = t;
		kp = k;
	}
	return 0;
}

static void noise_rows(int nseries, int len)
{
	static const double noise[] = { 0.1, 0.3, 0.5 };
	struct {
		const char *name;
		int min;
		double p;
	} opts[] = { { "old defaults (3, 0.05)", 3, 0.05 },
		     { "track defaults", 0, 0 } };
	double *x = malloc(len * sizeof(*x));
	struct feed *f = malloc(sizeof(*f));

	if (!x || !f)
		exit(1);
	printf("pure noise, %d series of %d points fed point by point\n",
	       nseries, len);
	printf("%-28s %7s %8s %10s %16s %14s\n", "options", "noise %", "points",
	       "confirmed", "per 1000 points", "series with any");
	for (size_t oi = 0; oi < sizeof(opts) / sizeof(opts[0]); oi++)
		for (size_t ni = 0; ni < 3; ni++) {
			long conf = 0, any = 0;
			struct cp_opts o;

			cp_opts_track(&o, opts[oi].min, opts[oi].p);
			for (int s = 0; s < nseries; s++) {
				struct stats_rng r;

				stats_rng_seed(&r, 0x7ac0 + 7919 * s + ni);
				for (int i = 0; i < len; i++)
					x[i] = 1e6 * (1 + noise[ni] / 100 *
						      stats_rng_normal(&r));
				o.seed = 0xed1 ^ (uint64_t)(s + 1);
				if (feed(x, len, &o, f))
					exit(1);
				conf += f->confirmed;
				any += f->confirmed > 0;
			}
			printf("%-28s %7.1f %8ld %10ld %16.3f %13.1f%%\n",
			       opts[oi].name, noise[ni], (long)nseries * len,
			       conf, 1000.0 * conf / ((double)nseries * len),
			       100.0 * any / nseries);
		}
	free(x);
	free(f);
}

static void step_rows(int nseries, int len, double sigma, int at)
{
	static const double noise[] = { 0.1, 0.3, 0.5 };
	struct {
		const char *name;
		int min;
		double p;
	} opts[] = { { "old defaults (3, 0.05)", 3, 0.05 },
		     { "track defaults", 0, 0 } };
	double *x = malloc(len * sizeof(*x));
	struct feed *f = malloc(sizeof(*f));

	if (!x || !f)
		exit(1);
	printf("\none step of %.1f sd at point %d (of %d), %d series: where the"
	       " confirmed change point is stored\n", sigma, at, len, nseries);
	printf("%-28s %7s %-22s %6s %9s %7s %7s\n", "options", "noise %",
	       "location rule", "exact", "1 early", "other", "missed");
	for (size_t oi = 0; oi < sizeof(opts) / sizeof(opts[0]); oi++)
		for (size_t ni = 0; ni < 3; ni++) {
			long cnt[2][4] = { { 0 } };
			struct cp_opts o;

			cp_opts_track(&o, opts[oi].min, opts[oi].p);
			for (int s = 0; s < nseries; s++) {
				struct stats_rng r;
				const struct row *best = NULL;
				size_t bd = (size_t)-1;

				stats_rng_seed(&r, 0x57e9 + 104729 * s + ni);
				for (int i = 0; i < len; i++)
					x[i] = 1e6 * (1 + noise[ni] / 100 *
						      (stats_rng_normal(&r) +
						       (i >= at ? -sigma : 0)));
				o.seed = 0xed1 ^ (uint64_t)(s + 1);
				if (feed(x, len, &o, f))
					exit(1);
				/* The confirmed row nearest the step. */
				for (size_t i = 0; i < f->nrows; i++) {
					const struct row *w = &f->rows[i];
					size_t d = w->r.index > (size_t)at ?
						w->r.index - at : at - w->r.index;

					if (w->r.state == CP_CONFIRMED && d < bd) {
						bd = d;
						best = w;
					}
				}
				for (int rule = 0; rule < 2; rule++) {
					size_t idx = best ? (rule ? best->r.index :
							     best->first) : 0;

					cnt[rule][!best ? 3 : idx == (size_t)at ? 0 :
						  idx + 1 == (size_t)at ? 1 : 2]++;
				}
			}
			for (int rule = 0; rule < 2; rule++)
				printf("%-28s %7.1f %-22s %5.1f%% %8.1f%% %6.1f%% %6.1f%%\n",
				       opts[oi].name, noise[ni],
				       rule ? "current detection" :
					      "first candidate (old)",
				       100.0 * cnt[rule][0] / nseries,
				       100.0 * cnt[rule][1] / nseries,
				       100.0 * cnt[rule][2] / nseries,
				       100.0 * cnt[rule][3] / nseries);
		}
	free(x);
	free(f);
}

int main(int argc, char **argv)
{
	int nseries = 200, len = 200, at = 30, opt;
	double sigma = 5;
	const char *mode = "all";

	while ((opt = getopt(argc, argv, "n:l:s:a:m:")) != -1) {
		switch (opt) {
		case 'n':
			nseries = atoi(optarg);
			break;
		case 'l':
			len = atoi(optarg);
			break;
		case 's':
			sigma = atof(optarg);
			break;
		case 'a':
			at = atoi(optarg);
			break;
		case 'm':
			mode = optarg;
			break;
		default:
			fprintf(stderr, "usage: %s [-n series] [-l length]"
				" [-s sigma] [-a at] [-m all|noise|step]\n",
				argv[0]);
			return 2;
		}
	}
	if (nseries < 1 || len < 20 || at < 10 || at >= len - 5) {
		fprintf(stderr, "bad -n, -l or -a\n");
		return 2;
	}
	if (strcmp(mode, "step"))
		noise_rows(nseries, len);
	if (strcmp(mode, "noise"))
		step_rows(nseries, len < 2 * at ? len : 2 * at, sigma, at);
	return 0;
}
