// SPDX-License-Identifier: MIT
/*
 * Description: common/opttab reads a command line the way getopt_long
 * did for perflabd and perflab-runner (--name V, --name=V, -xV, -x V, a
 * unique prefix, words moved behind the options or a stop at the first
 * word, "--" ends the options), refuses what is wrong with a message that
 * names the option (unknown, ambiguous, a missing or unwanted value, out
 * of range, not a choice), applies each row's default, leaves others'
 * options alone with OPTTAB_KNOWN, and opttab_check finds the faults a
 * table can have (a name or letter twice, no help, an argument name on a
 * flag, a default its own row refuses).
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "common/opttab.h"
#include "unit/check.h"

struct cfg {
	const char *name, *mode;
	int count, flag;
	unsigned int depth;
	uint64_t big;
	bool on, poll;
	int nlist;
};

static int add_list(void *store, const char *v, char *err, size_t len)
{
	struct cfg *c = store;

	if (!strcmp(v, "bad")) {
		snprintf(err, len, "--list: '%s' is refused by its setter", v);
		return -1;
	}
	c->nlist++;
	return 0;
}

#define OFF(f) offsetof(struct cfg, f)

static const struct opt_def defs[] = {
	{ .name = "name", .letter = 'n', .kind = OPT_STR, .off = OFF(name),
	  .arg = "NAME", .help = "a name", .dflt = "anon" },
	{ .name = "count", .kind = OPT_INT, .off = OFF(count), .arg = "N",
	  .min = 1, .max = 10, .dflt = "3", .help = "a count" },
	{ .name = "count-max", .kind = OPT_INT, .off = OFF(count), .arg = "N",
	  .min = 1, .max = 10, .help = "shares a prefix with --count" },
	{ .name = "depth", .letter = 'd', .kind = OPT_UINT, .off = OFF(depth),
	  .arg = "N", .min = 1, .max = 4096, .help = "a depth" },
	{ .name = "big", .kind = OPT_U64, .off = OFF(big), .arg = "N",
	  .min = 0, .max = -1, .help = "any 64-bit count" },
	{ .name = "flag", .letter = 'f', .kind = OPT_FLAG, .off = OFF(flag),
	  .help = "a flag" },
	{ .name = "on", .kind = OPT_SET, .off = OFF(on), .help = "a switch" },
	{ .name = "poll", .letter = 'p', .kind = OPT_BOOL, .off = OFF(poll),
	  .arg = "0|1", .dflt = "1", .help = "0 or 1" },
	{ .name = "mode", .kind = OPT_CHOICE, .off = OFF(mode), .arg = "M",
	  .choices = "fast|slow", .dflt = "slow", .help = "a choice" },
	{ .name = "list", .kind = OPT_FN, .arg = "X", .set = add_list,
	  .help = "repeatable" },
	{ .name = "help", .letter = 'h', .kind = OPT_HELP, .help = "this help" },
};

#define NDEFS (sizeof(defs) / sizeof(defs[0]))

static char err[256];
static unsigned char seen[NDEFS];

/* Parse the NULL-terminated @args (argv[0] added) into @c. */
static int parse(struct cfg *c, unsigned flags, int *first, char **argv,
		 const char *const *args)
{
	struct opt_table t = { "Options:", defs, NDEFS, c, seen };
	int n = 1;

	memset(c, 0, sizeof(*c));
	memset(seen, 0, sizeof(seen));
	CHECK(opttab_defaults(&t, err, sizeof(err)) == 0, "%s", err);
	argv[0] = "prog";
	while (*args)
		argv[n++] = (char *)*args++;
	argv[n] = NULL;
	err[0] = '\0';
	return opttab_parse(&t, 1, n, argv, flags, first, err, sizeof(err));
}

#define ARGS(...) ((const char *const[]){ __VA_ARGS__, NULL })

static void good(void)
{
	struct cfg c;
	char *argv[32];
	int first;

	CHECK(parse(&c, 0, &first, argv, ARGS("x")) == OPTTAB_OK);
	CHECK(!strcmp(c.name, "anon") && c.count == 3 && c.poll &&
	      !strcmp(c.mode, "slow"), "the rows' defaults");
	CHECK(parse(&c, 0, &first, argv,
		    ARGS("w1", "--name", "a", "--count=7", "-d64", "-n", "b",
			 "w2", "-f", "--on", "-p0", "--mode", "fast",
			 "--big", "18446744073709551615", "--list", "1",
			 "--list=2")) == OPTTAB_OK, "%s", err);
	CHECK(!strcmp(c.name, "b") && c.count == 7 && c.depth == 64 &&
	      c.flag == 1 && c.on && !c.poll && !strcmp(c.mode, "fast") &&
	      c.big == UINT64_MAX && c.nlist == 2);
	CHECK(seen[0] == 2 && seen[9] == 2, "seen counts each time given");
	/* Words keep their order, behind the options. */
	CHECK(first == 17 && !strcmp(argv[first], "w1") &&
	      !strcmp(argv[first + 1], "w2") && !argv[first + 2], "first %d",
	      first);
	CHECK(!strcmp(argv[1], "--name") && !strcmp(argv[2], "a"));
	CHECK(parse(&c, 0, &first, argv, ARGS("-d", "0x10")) == OPTTAB_OK &&
	      c.depth == 16);

	/* A unique prefix, only with OPTTAB_PREFIX. */
	CHECK(parse(&c, OPTTAB_PREFIX, &first, argv, ARGS("--na", "z")) ==
	      OPTTAB_OK && !strcmp(c.name, "z"));
	CHECK(parse(&c, 0, &first, argv, ARGS("--na", "z")) == OPTTAB_ERROR &&
	      strstr(err, "unknown option '--na'"), "%s", err);
	/* An exact name wins over the longer one it is a prefix of. */
	CHECK(parse(&c, OPTTAB_PREFIX, &first, argv, ARGS("--count", "4")) ==
	      OPTTAB_OK && c.count == 4);
	CHECK(parse(&c, OPTTAB_PREFIX, &first, argv, ARGS("--cou", "4")) ==
	      OPTTAB_ERROR && strstr(err, "unknown option"), "ambiguous: %s",
	      err);

	/* OPTTAB_STOP: all from the first word on is left unread. */
	CHECK(parse(&c, OPTTAB_STOP, &first, argv,
		    ARGS("-f", "sub", "--name", "q")) == OPTTAB_OK);
	CHECK(first == 2 && !strcmp(argv[2], "sub") && c.flag &&
	      !strcmp(c.name, "anon"));
	/* "--": the rest are words, options or not. */
	CHECK(parse(&c, 0, &first, argv, ARGS("--", "--name", "q")) ==
	      OPTTAB_OK && first == 1 && !strcmp(argv[1], "--name") &&
	      !strcmp(c.name, "anon"));
	CHECK(parse(&c, 0, &first, argv, ARGS("w", "-h")) == OPTTAB_HELP);
	/* A lone "-" is a word (stdin, a target). */
	CHECK(parse(&c, 0, &first, argv, ARGS("-")) == OPTTAB_OK &&
	      !strcmp(argv[first], "-"));

	/* OPTTAB_KNOWN: another's options stay, "--" and all after it too. */
	CHECK(parse(&c, OPTTAB_KNOWN, &first, argv,
		    ARGS("cmd", "--other", "v", "--name=k", "-x", "--", "-f")) ==
	      OPTTAB_OK, "%s", err);
	CHECK(!strcmp(c.name, "k") && !c.flag && first == 2 &&
	      !strcmp(argv[2], "cmd") && !strcmp(argv[3], "--other") &&
	      !strcmp(argv[4], "v") && !strcmp(argv[5], "-x") &&
	      !strcmp(argv[6], "--") && !strcmp(argv[7], "-f"));
}

static void bad(void)
{
	const struct {
		const char *const *args;
		const char *want;
	} cases[] = {
		{ ARGS("--nope"), "unknown option '--nope'" },
		{ ARGS("-z"), "unknown option '-z'" },
		{ ARGS("-fx"), "unknown option '-fx'" },
		{ ARGS("--name"), "option '--name' needs a value" },
		{ ARGS("-d"), "option '-d' needs a value" },
		{ ARGS("--flag=1"), "option '--flag' takes no value" },
		{ ARGS("--count", "0"), "bad value '0' for option --count (1-10)" },
		{ ARGS("--count", "11"), "bad value '11' for option --count" },
		{ ARGS("--count", "3x"), "bad value '3x'" },
		{ ARGS("--count", "-3"), "bad value '-3'" },
		{ ARGS("--count", ""), "bad value ''" },
		{ ARGS("-d", "4097"), "bad value '4097' for option -d (1-4096)" },
		{ ARGS("--big", "18446744073709551616"), "bad value" },
		{ ARGS("-p", "2"), "bad value '2' for option -p (0 or 1)" },
		{ ARGS("--mode", "fas"), "for option --mode (fast|slow)" },
		{ ARGS("--list", "bad"), "--list: 'bad' is refused by its setter" },
	};
	struct cfg c;
	char *argv[32];
	int first;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int r = parse(&c, OPTTAB_PREFIX, &first, argv, cases[i].args);

		CHECK(r == OPTTAB_ERROR && strstr(err, cases[i].want),
		      "%s: r=%d '%s', want '%s'", cases[i].args[0], r, err,
		      cases[i].want);
	}
}

/* opttab_check over a copy of defs[] with row @i changed by @edit. */
static int check_with(size_t i, struct opt_def edit)
{
	struct opt_def d[NDEFS];
	struct opt_table t = { NULL, d, NDEFS, NULL, NULL };

	memcpy(d, defs, sizeof(d));
	d[i] = edit;
	err[0] = '\0';
	return opttab_check(&t, 1, err, sizeof(err));
}

static void checks(void)
{
	struct opt_table t = { NULL, defs, NDEFS, NULL, NULL };
	struct opt_def e;

	CHECK(opttab_check(&t, 1, err, sizeof(err)) == 0, "%s", err);
	CHECK(opttab_check((struct opt_table[]){ t, t }, 2, err,
			   sizeof(err)) < 0 && strstr(err, "twice"),
	      "two tables read together share names: %s", err);
	e = defs[1], e.name = "name";
	CHECK(check_with(1, e) < 0 && strstr(err, "--name twice"), "%s", err);
	e = defs[3], e.letter = 'n';
	CHECK(check_with(3, e) < 0 && strstr(err, "-n twice"), "%s", err);
	e = defs[1], e.help = "";
	CHECK(check_with(1, e) < 0 && strstr(err, "no help"), "%s", err);
	e = defs[5], e.arg = "X";
	CHECK(check_with(5, e) < 0 && strstr(err, "flag"), "%s", err);
	e = defs[1], e.arg = NULL;
	CHECK(check_with(1, e) < 0 && strstr(err, "names no argument"), "%s",
	      err);
	e = defs[1], e.dflt = "99";
	CHECK(check_with(1, e) < 0 && strstr(err, "default '99'"), "%s", err);
	e = defs[8], e.dflt = "medium";
	CHECK(check_with(8, e) < 0 && strstr(err, "default"), "%s", err);
	e = defs[1], e.dflt = "99", e.flags = OPT_DOC_DEFAULT;
	CHECK(check_with(1, e) == 0, "a documented default is only text");
}

static void usage(void)
{
	struct cfg c;
	struct opt_table t = { "Options:", defs, NDEFS, &c, NULL };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	opttab_usage(&t, f);
	fclose(f);
	CHECK(!strncmp(text, "Options:\n", 9));
	CHECK(strstr(text, "\n  -n, --name NAME     a name (default: anon)\n"),
	      "%s", text);
	CHECK(strstr(text, "\n  --count N           a count (default: 3)\n"),
	      "%s", text);
	for (size_t i = 0; i < NDEFS; i++)
		CHECK(strstr(text, defs[i].help), "--%s", defs[i].name);
	free(text);
}

int main(void)
{
	good();
	bad();
	checks();
	usage();
	DONE();
}
