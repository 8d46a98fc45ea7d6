/*
 * Description: option parsing accepts the t/io_uring letters and perflab
 * extras with their defaults, and rejects bad input with a reason.
 */
#include <stdio.h>
#include <string.h>

#include "runners/perflab-bench/opts.h"
#include "unit/check.h"

static int parse(struct bench_opts *o, char *err, const char *const *args)
{
	char *argv[32];
	int argc = 0;

	argv[argc++] = "perflab-bench";
	while (*args)
		argv[argc++] = (char *)*args++;
	opts_defaults(o);
	err[0] = '\0';
	return opts_parse(o, argc, argv, err, 256);
}

static void bad(const char *const *args, const char *needle)
{
	struct bench_opts o;
	char err[256];
	int r = parse(&o, err, args);

	CHECK(r == OPTS_ERROR, "'%s ...' was accepted", args[0]);
	CHECK(strstr(err, needle), "error '%s' does not mention '%s'", err,
	      needle);
}

int main(void)
{
	struct bench_opts o;
	char err[256];
	int r;

	r = parse(&o, err, (const char *const[]){ "/dev/nullb0", NULL });
	CHECK(r == OPTS_OK, "defaults: %s", err);
	CHECK(o.depth == 128 && o.submit_batch == 32 && o.complete_batch == 32,
	      "depth/batches %u/%u/%u", o.depth, o.submit_batch,
	      o.complete_batch);
	CHECK(o.bs == 512 && o.polled && o.fixedbufs && o.regfiles &&
		      o.random && o.threads == 1,
	      "defaults differ from t/io_uring's");
	CHECK(!strcmp(o.target, "/dev/nullb0"), "target %s", o.target);
	CHECK(!o.profile && !o.json_path && !o.ios, "extras on by default");

	r = parse(&o, err,
		  (const char *const[]){ "-d", "64", "-s16", "-c", "8", "-b",
					 "4096", "-p", "0", "-B0", "-F", "0",
					 "-R", "0", "-n", "2", "-r", "7", "-w",
					 "3", "-P", "-j", "out.json",
					 "--seed=99", "--ios", "5000",
					 "--profile-freq", "99", "/dev/x",
					 NULL });
	CHECK(r == OPTS_OK, "full line: %s", err);
	CHECK(o.depth == 64 && o.submit_batch == 16 && o.complete_batch == 8,
	      "depth/batches %u/%u/%u", o.depth, o.submit_batch,
	      o.complete_batch);
	CHECK(o.bs == 4096 && !o.polled && !o.fixedbufs && !o.regfiles &&
		      !o.random && o.threads == 2,
	      "flags not applied");
	CHECK(o.runtime == 7 && o.warmup == 3 && o.profile &&
		      o.profile_freq == 99 && !strcmp(o.json_path, "out.json") &&
		      o.seed == 99 && o.ios == 5000,
	      "extras not applied");

	/* --ios without -r: no time cap. */
	r = parse(&o, err, (const char *const[]){ "--ios", "10", "f", NULL });
	CHECK(r == OPTS_OK && o.runtime == 0, "--ios alone: r=%d runtime=%u",
	      r, o.runtime);
	r = parse(&o, err, (const char *const[]){ "-h", NULL });
	CHECK(r == OPTS_HELP, "-h gave %d", r);

	bad((const char *const[]){ "-x", "f", NULL }, "unknown option '-x'");
	bad((const char *const[]){ "--bogus", "f", NULL }, "unknown option");
	bad((const char *const[]){ "-d", "0", "f", NULL }, "-d");
	bad((const char *const[]){ "-d", "12ab", "f", NULL }, "12ab");
	bad((const char *const[]){ "-d", "-5", "f", NULL }, "-5");
	bad((const char *const[]){ "-b", "1000", "f", NULL }, "-b");
	bad((const char *const[]){ "-p", "2", "f", NULL }, "-p");
	bad((const char *const[]){ "-n", "0", "f", NULL }, "-n");
	bad((const char *const[]){ "-s", "64", "-d", "32", "f", NULL },
	    "exceeds depth");
	bad((const char *const[]){ "-r", "2", "-w", "2", "f", NULL },
	    "warm-up");
	bad((const char *const[]){ "-d", NULL }, "needs a value");
	bad((const char *const[]){ "--seed", "x", "f", NULL }, "--seed");
	bad((const char *const[]){ "-P1", "f", NULL }, "unknown option");
	bad((const char *const[]){ "a", "b", NULL }, "more than one target");
	bad((const char *const[]){ "-d", "8", NULL }, "no target");

	if (fails)
		return 1;
	printf("opts-parse: ok\n");
	return 0;
}
