/*
 * Description: summary statistics (mean, median, sample stddev) match
 * values worked out by hand, for odd and even sample counts.
 */
#include <math.h>
#include <stdio.h>

#include "runners/perflab-bench/stats.h"
#include "unit/check.h"

static void near(double got, double want, const char *what)
{
	if (fabs(got - want) > 1e-9 * (fabs(want) + 1)) {
		fprintf(stderr, "FAIL %s: got %.12g want %.12g\n", what, got,
			want);
		fails++;
	}
}

int main(void)
{
	uint64_t odd[] = { 9, 1, 5, 3, 7 };	/* sorted 1 3 5 7 9 */
	uint64_t even[] = { 10, 40, 20, 30 };
	uint64_t big[] = { 3536512, 3536000, 3535000 };

	near(stats_mean(odd, 5), 5, "mean odd");
	near(stats_median(odd, 5), 5, "median odd");
	/* sum of squares 16+4+0+4+16 = 40, / (5-1) = 10 */
	near(stats_stddev(odd, 5), sqrt(10), "stddev odd");
	near(stats_mean(even, 4), 25, "mean even");
	near(stats_median(even, 4), 25, "median even");
	/* 225+25+25+225 = 500, / 3 */
	near(stats_stddev(even, 4), sqrt(500.0 / 3), "stddev even");
	near(stats_median(big, 3), 3536000, "median big");
	near(stats_stddev(big, 1), 0, "stddev of one");
	near(stats_mean(big, 0), 0, "mean of none");
	if (odd[0] != 9)
		fails++, fprintf(stderr, "FAIL median sorted its input\n");
	if (fails)
		return 1;
	printf("stats: ok\n");
	return 0;
}
