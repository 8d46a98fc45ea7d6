// SPDX-License-Identifier: MIT
/*
 * Option parsing for perflab-bench: one table (common/opttab.h) gives the
 * parsing, the defaults and the usage. No getopt, so it keeps no global
 * state and can be unit tested: every error is returned as text.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "opts.h"
#include "opttab.h"

#define OFF(f) offsetof(struct bench_opts, f)
#define S_(x) #x
#define S(x) S_(x)

/* -b: whole sectors of 512 bytes, up to OPTS_MAX_BS. */
static int set_bs(void *store, const char *v, char *err, size_t len)
{
	struct bench_opts *o = store;
	char *end;
	unsigned long n;

	(void)err;
	(void)len;
	errno = 0;
	n = strtoul(v, &end, 10);
	if (!*v || *v == '-' || *end || errno || n < 512 || n > OPTS_MAX_BS ||
	    n % 512)
		return -1;
	o->bs = (unsigned int)n;
	return 0;
}

/* The t/io_uring letters plus perflab's long options. */
static const struct opt_def bench_defs[] = {
	{ .name = "depth", .letter = 'd', .kind = OPT_UINT, .off = OFF(depth),
	  .arg = "N", .help = "queue depth", .min = 1, .max = OPTS_MAX_DEPTH,
	  .dflt = "128" },
	{ .name = "submit-batch", .letter = 's', .kind = OPT_UINT,
	  .off = OFF(submit_batch), .arg = "N", .help = "submit batch",
	  .min = 1, .max = OPTS_MAX_DEPTH, .dflt = "32" },
	{ .name = "complete-batch", .letter = 'c', .kind = OPT_UINT,
	  .off = OFF(complete_batch), .arg = "N", .help = "complete batch",
	  .min = 1, .max = OPTS_MAX_DEPTH, .dflt = "32" },
	{ .name = "bs", .letter = 'b', .kind = OPT_FN, .arg = "N",
	  .help = "block size in bytes (a multiple of 512)", .dflt = "512",
	  .set = set_bs, .hint = "512-" S(OPTS_MAX_BS) ", a multiple of 512" },
	{ .name = "polled", .letter = 'p', .kind = OPT_BOOL, .off = OFF(polled),
	  .arg = "0|1", .dflt = "1",
	  .help = "polled IO; refuses to run if the target cannot poll" },
	{ .name = "fixedbufs", .letter = 'B', .kind = OPT_BOOL,
	  .off = OFF(fixedbufs), .arg = "0|1", .dflt = "1",
	  .help = "fixed (registered) buffers" },
	{ .name = "regfiles", .letter = 'F', .kind = OPT_BOOL,
	  .off = OFF(regfiles), .arg = "0|1", .dflt = "1",
	  .help = "registered files" },
	{ .name = "random", .letter = 'R', .kind = OPT_BOOL, .off = OFF(random),
	  .arg = "0|1", .dflt = "1", .help = "random offsets, 0 = sequential" },
	{ .name = "threads", .letter = 'n', .kind = OPT_UINT, .off = OFF(threads),
	  .arg = "N", .min = 1, .max = OPTS_MAX_THREADS, .dflt = "1",
	  .help = "threads, one ring each, pinned to distinct CPUs" },
	{ .name = "runtime", .letter = 'r', .kind = OPT_UINT, .off = OFF(runtime),
	  .arg = "N", .min = 1, .max = OPTS_MAX_RUNTIME, .dflt = "10",
	  .help = "runtime in seconds, warm-up included (with --ios\n"
		  "and no -r the run has no time cap)" },
	{ .name = "warmup", .letter = 'w', .kind = OPT_UINT, .off = OFF(warmup),
	  .arg = "N", .min = 0, .max = OPTS_MAX_RUNTIME, .dflt = "2",
	  .help = "warm-up seconds, excluded from the summary" },
	{ .name = "profile", .letter = 'P', .kind = OPT_SET, .off = OFF(profile),
	  .help = "system-wide profile of the measured window (libperf)" },
	{ .name = "profile-freq", .kind = OPT_UINT, .off = OFF(profile_freq),
	  .arg = "HZ", .min = 1, .max = 100000, .dflt = "1000",
	  .help = "sampling frequency per CPU" },
	{ .name = "json", .letter = 'j', .kind = OPT_STR, .off = OFF(json_path),
	  .arg = "FILE", .flags = OPT_NONEMPTY,
	  .help = "write the result as JSON to FILE" },
	{ .name = "seed", .kind = OPT_U64, .off = OFF(seed), .arg = "N",
	  .min = 0, .max = -1, .dflt = "1", .help = "offset PRNG seed" },
	{ .name = "ios", .kind = OPT_U64, .off = OFF(ios), .arg = "N",
	  .min = 1, .max = UINT64_MAX / 4,
	  .help = "after warm-up, time exactly N completed IOs per\n"
		  "thread and report ns/IO; the run ends there" },
	{ .name = "help", .letter = 'h', .kind = OPT_HELP, .help = "this help" },
};

#define NDEFS (sizeof(bench_defs) / sizeof(bench_defs[0]))

void opts_table(struct opt_table *t, struct bench_opts *o, unsigned char *seen)
{
	*t = (struct opt_table){ "Options:", bench_defs, NDEFS, o, seen };
}

void opts_defaults(struct bench_opts *o)
{
	struct opt_table t;
	char err[128];

	memset(o, 0, sizeof(*o));
	opts_table(&t, o, NULL);
	if (opttab_defaults(&t, err, sizeof(err)))
		abort();	/* the table's own defaults: opttab-tables */
}

void opts_usage(FILE *f)
{
	struct opt_table t;
	struct bench_opts o;

	opts_table(&t, &o, NULL);
	fprintf(f,
		"Usage: perflab-bench [options] TARGET\n"
		"  TARGET is a block device or a regular file, opened O_DIRECT.\n");
	opttab_usage(&t, f);
}

static int fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return OPTS_ERROR;
}

static int check(struct bench_opts *o, bool run_set, char *err, size_t len)
{
	if (!o->target)
		return fail(err, len, "no target given (a block device or a file)");
	if (o->submit_batch > o->depth)
		return fail(err, len, "submit batch -s %u exceeds depth -d %u",
			    o->submit_batch, o->depth);
	if (o->complete_batch > o->depth)
		return fail(err, len, "complete batch -c %u exceeds depth -d %u",
			    o->complete_batch, o->depth);
	if (o->ios && !run_set)
		o->runtime = 0;
	if (o->runtime && o->warmup >= o->runtime)
		return fail(err, len,
			    "warm-up -w %u must be shorter than runtime -r %u",
			    o->warmup, o->runtime);
	return OPTS_OK;
}

int opts_parse(struct bench_opts *o, int argc, char **argv, char *err,
	       size_t errlen)
{
	unsigned char seen[NDEFS] = { 0 };
	struct opt_table t;
	int first, r;

	opts_table(&t, o, seen);
	r = opttab_parse(&t, 1, argc, argv, 0, &first, err, errlen);
	if (r == OPTTAB_HELP)
		return OPTS_HELP;
	if (r)
		return OPTS_ERROR;
	if (argc - first > 1)
		return fail(err, errlen, "more than one target: '%s' and '%s'",
			    argv[first], argv[first + 1]);
	if (first < argc)
		o->target = argv[first];
	return check(o, seen[opttab_find(&t, "runtime") - bench_defs], err,
		     errlen);
}
