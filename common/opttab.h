/* SPDX-License-Identifier: MIT */
/*
 * opttab: a program's options as one table, in the style of Redis's
 * static_configs[]. Each row names an option, says how its value is
 * parsed and checked, where it is stored (an offset into the program's
 * struct), its default and its --help text; parsing, defaults and the
 * usage text all come from the rows, so they cannot disagree.
 * opttab_check() says what is wrong with a table (the unit test
 * tests/unit/opttab-tables runs it over every program's).
 *
 * Keeps no global state and never prints or exits: errors come back as
 * text, for the program to print with its name.
 */
#ifndef PERFLAB_OPTTAB_H
#define PERFLAB_OPTTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum opt_kind {
	OPT_FLAG,	/* no value: int 1 at off */
	OPT_SET,	/* no value: bool true at off */
	OPT_STR,	/* const char * at off */
	OPT_INT,	/* int at off, min..max */
	OPT_UINT,	/* unsigned int at off, min..max */
	OPT_U64,	/* uint64_t at off, min..max */
	OPT_BOOL,	/* bool at off, "0" or "1" */
	OPT_CHOICE,	/* const char * at off, one of choices ("a|b") */
	OPT_FN,		/* set(store, value): anything else */
	OPT_HELP,	/* no value: opttab_parse returns OPTTAB_HELP */
};

/* OPT_FN's setter: 0, or -1 with @err (empty: "bad value" is said). */
typedef int (*opt_set_fn)(void *store, const char *val, char *err,
			  size_t len);

struct opt_def {
	const char *name;	/* "lease-seconds" for --lease-seconds */
	char letter;		/* 'd' for -d; 0: none */
	enum opt_kind kind;
	size_t off;		/* offsetof() in the table's store */
	const char *arg;	/* "N" in the usage; NULL: takes no value */
	const char *help;	/* usage text; '\n' starts another line */
	long long min, max;	/* OPT_INT, OPT_UINT, OPT_U64 */
	/*
	 * The default as the user would write it: opttab_defaults() stores
	 * it through the row's own parser, the usage prints it. With
	 * OPT_DOC_DEFAULT it is only said (a default computed at start).
	 */
	const char *dflt;
	const char *choices;	/* OPT_CHOICE: "builder|test|any|none" */
	opt_set_fn set;		/* OPT_FN */
	const char *hint;	/* after "bad value 'V' for option --N" */
	unsigned flags;
};

#define OPT_DOC_DEFAULT 1u	/* dflt is text for the usage only */
#define OPT_NONEMPTY	2u	/* OPT_STR: "" is refused */

struct opt_table {
	const char *title;	/* usage heading, "Options:" */
	const struct opt_def *defs;
	size_t n;
	void *store;		/* the struct the offsets point into */
	unsigned char *seen;	/* NULL, or n counters of given options */
};

/* opttab_parse() flags */
#define OPTTAB_STOP	1u	/* stop at the first word (a subcommand) */
#define OPTTAB_PREFIX	2u	/* a unique prefix names a long option */
#define OPTTAB_KNOWN	4u	/* others' options (and "--" on) are words */

enum { OPTTAB_OK = 0, OPTTAB_HELP = 1, OPTTAB_ERROR = -1 };

/*
 * Reads the options in argv[1..argc-1] into the tables' stores: --name V,
 * --name=V, -x V, -xV. Words (not options) and all after "--" are moved,
 * in order, behind the options; *@first is the index of the first (argc
 * when none). OPTTAB_STOP leaves all from the first word on unread.
 */
int opttab_parse(const struct opt_table *t, size_t nt, int argc, char **argv,
		 unsigned flags, int *first, char *err, size_t len);
/* Every row's default (those without OPT_DOC_DEFAULT) into its store. */
int opttab_defaults(const struct opt_table *t, char *err, size_t len);
/* The table's rows as usage lines: "  -d, --depth N  help (default)". */
void opttab_usage(const struct opt_table *t, FILE *f);
/* "--name" or "-x" of @d, for messages. */
const char *opttab_label(const struct opt_def *d, char *buf, size_t len);
/* The row of @t called @name, NULL when none. */
const struct opt_def *opttab_find(const struct opt_table *t, const char *name);

/*
 * What is wrong with @nt tables read together: a row without help or
 * name, a name or letter twice, a value kind without an arg (or a flag
 * with one), a default its own row refuses. 0, or -1 with @err.
 */
int opttab_check(const struct opt_table *t, size_t nt, char *err, size_t len);

#endif
