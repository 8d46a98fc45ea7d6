// SPDX-License-Identifier: MIT
/*
 * Option parsing for perflab-bench. Hand-written (no getopt) so it keeps no
 * global state and can be unit tested: every error is returned as text.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "opts.h"

void opts_defaults(struct bench_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->depth = 128;
	o->submit_batch = 32;
	o->complete_batch = 32;
	o->bs = 512;
	o->polled = true;
	o->fixedbufs = true;
	o->regfiles = true;
	o->random = true;
	o->threads = 1;
	o->runtime = 10;
	o->warmup = 2;
	o->profile_freq = 1000;
	o->seed = 1;
}

void opts_usage(FILE *f)
{
	fprintf(f,
		"Usage: perflab-bench [options] TARGET\n"
		"  TARGET is a block device or a regular file, opened O_DIRECT.\n"
		"  -d N    queue depth (128)\n"
		"  -s N    submit batch (32)\n"
		"  -c N    complete batch (32)\n"
		"  -b N    block size in bytes (512)\n"
		"  -p 0|1  polled IO (1); refuses to run if the target cannot poll\n"
		"  -B 0|1  fixed (registered) buffers (1)\n"
		"  -F 0|1  registered files (1)\n"
		"  -R 0|1  random offsets (1), 0 = sequential\n"
		"  -n N    threads, one ring each, pinned to distinct CPUs (1)\n"
		"  -r N    runtime in seconds, warm-up included (10; with --ios\n"
		"          and no -r the run has no time cap)\n"
		"  -w N    warm-up seconds, excluded from the summary (2)\n"
		"  -P      system-wide profile of the measured window (libperf)\n"
		"  --profile-freq HZ  sampling frequency per CPU (1000)\n"
		"  -j FILE write the result as JSON to FILE\n"
		"  --seed N  offset PRNG seed (1)\n"
		"  --ios N   after warm-up, time exactly N completed IOs per\n"
		"            thread and report ns/IO; the run ends there\n"
		"  -h      this help\n");
}

static int fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return OPTS_ERROR;
}

static int parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

struct optdef {
	const char *shortname;	/* "-d" */
	const char *longname;	/* "--depth" or NULL */
	bool has_arg;
	int id;
};

enum {
	O_DEPTH, O_SB, O_CB, O_BS, O_POLL, O_FBUF, O_FREG, O_RAND, O_THR,
	O_RUN, O_WARM, O_PROF, O_PFREQ, O_JSON, O_SEED, O_IOS, O_HELP,
};

static const struct optdef defs[] = {
	{ "-d", "--depth", true, O_DEPTH },
	{ "-s", "--submit-batch", true, O_SB },
	{ "-c", "--complete-batch", true, O_CB },
	{ "-b", "--bs", true, O_BS },
	{ "-p", "--polled", true, O_POLL },
	{ "-B", "--fixedbufs", true, O_FBUF },
	{ "-F", "--regfiles", true, O_FREG },
	{ "-R", "--random", true, O_RAND },
	{ "-n", "--threads", true, O_THR },
	{ "-r", "--runtime", true, O_RUN },
	{ "-w", "--warmup", true, O_WARM },
	{ "-P", "--profile", false, O_PROF },
	{ NULL, "--profile-freq", true, O_PFREQ },
	{ "-j", "--json", true, O_JSON },
	{ NULL, "--seed", true, O_SEED },
	{ NULL, "--ios", true, O_IOS },
	{ "-h", "--help", false, O_HELP },
};

/*
 * Finds the definition for argument @a; sets *inl to an attached value
 * ("-d64", "--seed=5") when there is one.
 */
static const struct optdef *lookup(const char *a, const char **inl)
{
	size_t i, n;

	*inl = NULL;
	for (i = 0; i < sizeof(defs) / sizeof(defs[0]); i++) {
		const struct optdef *d = &defs[i];

		if (d->longname) {
			n = strlen(d->longname);
			if (!strncmp(a, d->longname, n) &&
			    (a[n] == '\0' || (a[n] == '=' && d->has_arg))) {
				*inl = a[n] == '=' ? a + n + 1 : NULL;
				return d;
			}
		}
		if (d->shortname && a[0] == '-' && a[1] == d->shortname[1] &&
		    a[1] != '-') {
			if (a[2] && !d->has_arg)
				return NULL;
			*inl = a[2] ? a + 2 : NULL;
			return d;
		}
	}
	return NULL;
}

static int set_bool(bool *b, const char *v)
{
	if (!strcmp(v, "0"))
		*b = false;
	else if (!strcmp(v, "1"))
		*b = true;
	else
		return -1;
	return 0;
}

static int apply(struct bench_opts *o, int id, const char *v, bool *run_set)
{
	uint64_t n = 0;
	int r = 0;

	switch (id) {
	case O_DEPTH:
		r = parse_u64(v, 1, OPTS_MAX_DEPTH, &n);
		o->depth = n;
		break;
	case O_SB:
		r = parse_u64(v, 1, OPTS_MAX_DEPTH, &n);
		o->submit_batch = n;
		break;
	case O_CB:
		r = parse_u64(v, 1, OPTS_MAX_DEPTH, &n);
		o->complete_batch = n;
		break;
	case O_BS:
		r = parse_u64(v, 512, OPTS_MAX_BS, &n);
		if (!r && n % 512)
			r = -1;
		o->bs = n;
		break;
	case O_POLL:
		return set_bool(&o->polled, v);
	case O_FBUF:
		return set_bool(&o->fixedbufs, v);
	case O_FREG:
		return set_bool(&o->regfiles, v);
	case O_RAND:
		return set_bool(&o->random, v);
	case O_THR:
		r = parse_u64(v, 1, OPTS_MAX_THREADS, &n);
		o->threads = n;
		break;
	case O_RUN:
		r = parse_u64(v, 1, OPTS_MAX_RUNTIME, &n);
		o->runtime = n;
		*run_set = true;
		break;
	case O_WARM:
		r = parse_u64(v, 0, OPTS_MAX_RUNTIME, &n);
		o->warmup = n;
		break;
	case O_PFREQ:
		r = parse_u64(v, 1, 100000, &n);
		o->profile_freq = n;
		break;
	case O_JSON:
		if (!*v)
			return -1;
		o->json_path = v;
		break;
	case O_SEED:
		r = parse_u64(v, 0, UINT64_MAX, &o->seed);
		break;
	case O_IOS:
		r = parse_u64(v, 1, UINT64_MAX / 4, &o->ios);
		break;
	}
	return r;
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
	bool run_set = false;
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		const struct optdef *d;

		if (a[0] != '-' || !a[1]) {
			if (o->target)
				return fail(err, errlen,
					    "more than one target: '%s' and '%s'",
					    o->target, a);
			o->target = a;
			continue;
		}
		d = lookup(a, &v);
		if (!d)
			return fail(err, errlen, "unknown option '%s'", a);
		if (d->id == O_HELP)
			return OPTS_HELP;
		if (d->id == O_PROF) {
			o->profile = true;
			continue;
		}
		if (!v) {
			if (i + 1 >= argc)
				return fail(err, errlen, "option '%s' needs a value",
					    a);
			v = argv[++i];
		}
		if (apply(o, d->id, v, &run_set))
			return fail(err, errlen, "bad value '%s' for option %s", v,
				    d->shortname ? d->shortname : d->longname);
	}
	return check(o, run_set, err, errlen);
}
