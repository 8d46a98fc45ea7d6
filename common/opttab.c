// SPDX-License-Identifier: MIT
/*
 * opttab: parsing, defaults, usage and checks over option tables; see
 * opttab.h.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "opttab.h"

static int failf(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return OPTTAB_ERROR;
}

static bool takes_value(const struct opt_def *d)
{
	return d->kind != OPT_FLAG && d->kind != OPT_SET && d->kind != OPT_HELP;
}

const char *opttab_label(const struct opt_def *d, char *buf, size_t len)
{
	if (d->letter)
		snprintf(buf, len, "-%c", d->letter);
	else
		snprintf(buf, len, "--%s", d->name);
	return buf;
}

/* Decimal (or 0x) digits only, no sign, within [min, max]. */
static int parse_num(const char *s, long long min, long long max,
		     unsigned long long *out)
{
	unsigned long long v;
	char *end;

	if (!*s || *s == '-' || *s == '+' || *s == ' ')
		return -1;
	errno = 0;
	v = strtoull(s, &end, s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ?
		     16 : 10);
	if (errno || *end || v < (unsigned long long)min ||
	    (max >= 0 && v > (unsigned long long)max))
		return -1;
	*out = v;
	return 0;
}

static bool is_choice(const char *choices, const char *v)
{
	size_t n = strlen(v);
	const char *p = choices;

	while (n && p) {
		if (!strncmp(p, v, n) && (p[n] == '|' || !p[n]))
			return true;
		p = strchr(p, '|');
		p = p ? p + 1 : NULL;
	}
	return false;
}

/* Store @v for row @d in @store: 0, or -1 with @err maybe set. */
static int store_value(const struct opt_def *d, void *store, const char *v,
		       char *err, size_t len)
{
	char *at = (char *)store + d->off;
	unsigned long long n;

	switch (d->kind) {
	case OPT_FLAG: *(int *)at = 1; return 0;
	case OPT_SET: *(bool *)at = true; return 0;
	case OPT_HELP: return 0;
	case OPT_STR:
		if ((d->flags & OPT_NONEMPTY) && !*v)
			return -1;
		*(const char **)at = v;
		return 0;
	case OPT_CHOICE:
		if (!is_choice(d->choices, v))
			return -1;
		*(const char **)at = v;
		return 0;
	case OPT_BOOL:
		if (strcmp(v, "0") && strcmp(v, "1"))
			return -1;
		*(bool *)at = v[0] == '1';
		return 0;
	case OPT_FN:
		return d->set(store, v, err, len);
	default:
		break;
	}
	if (parse_num(v, d->min, d->max, &n))
		return -1;
	if (d->kind == OPT_INT)
		*(int *)at = (int)n;
	else if (d->kind == OPT_UINT)
		*(unsigned int *)at = (unsigned int)n;
	else
		*(uint64_t *)at = n;
	return 0;
}

/* "bad value 'V' for option -d (1-4096)": the hint, else the range. */
static int bad_value(const struct opt_def *d, const char *v, char *err,
		     size_t len)
{
	char lab[64], why[160] = "";

	if (d->hint)
		snprintf(why, sizeof(why), " (%s)", d->hint);
	else if (d->kind == OPT_CHOICE)
		snprintf(why, sizeof(why), " (%s)", d->choices);
	else if (d->kind == OPT_BOOL)
		snprintf(why, sizeof(why), " (0 or 1)");
	else if (d->kind == OPT_INT || d->kind == OPT_UINT ||
		 d->kind == OPT_U64)
		snprintf(why, sizeof(why), d->max >= 0 ? " (%lld-%lld)" :
			 " (at least %lld)", d->min, d->max);
	return failf(err, len, "bad value '%s' for option %s%s", v,
		     opttab_label(d, lab, sizeof(lab)), why);
}

/* one_option(): not an option of these tables (OPTTAB_KNOWN). */
#define OPTTAB_WORD 2

struct hit {
	const struct opt_table *t;
	size_t row;
};

/* The row of a long @name (@n bytes) in the tables; prefix if allowed. */
static int find_long(const struct opt_table *t, size_t nt, const char *name,
		     size_t n, bool prefix, struct hit *h)
{
	int found = 0;

	for (size_t k = 0; k < nt; k++)
		for (size_t i = 0; i < t[k].n; i++) {
			const char *dn = t[k].defs[i].name;

			if (!dn || strncmp(dn, name, n))
				continue;
			if (!dn[n]) {
				*h = (struct hit){ &t[k], i };
				return 1;
			}
			if (prefix && found++ == 0)
				*h = (struct hit){ &t[k], i };
		}
	return found == 1;
}

static int find_letter(const struct opt_table *t, size_t nt, char c,
		       struct hit *h)
{
	for (size_t k = 0; k < nt; k++)
		for (size_t i = 0; i < t[k].n; i++)
			if (t[k].defs[i].letter == c) {
				*h = (struct hit){ &t[k], i };
				return 1;
			}
	return 0;
}

/*
 * The option at argv[*i] (advanced past its value): OPTTAB_OK,
 * OPTTAB_HELP or OPTTAB_ERROR.
 */
static int one_option(const struct opt_table *t, size_t nt, int argc,
		      char **argv, int *i, unsigned flags, char *err,
		      size_t len)
{
	const char *a = argv[*i], *v = NULL, *eq;
	const struct opt_def *d;
	struct hit h = { 0 };
	int ok;

	if (a[1] == '-') {
		eq = strchr(a, '=');
		ok = find_long(t, nt, a + 2, eq ? (size_t)(eq - a - 2) :
			       strlen(a + 2), flags & OPTTAB_PREFIX, &h);
		if (ok && eq && !takes_value(&h.t->defs[h.row]))
			return failf(err, len, "option '%.*s' takes no value",
				     (int)(eq - a), a);
		v = eq ? eq + 1 : NULL;
	} else {
		ok = find_letter(t, nt, a[1], &h);
		if (ok && a[2] && !takes_value(&h.t->defs[h.row]))
			ok = 0;
		v = a[2] ? a + 2 : NULL;
	}
	if (!ok && (flags & OPTTAB_KNOWN))
		return OPTTAB_WORD;
	if (!ok)
		return failf(err, len, "unknown option '%s'", a);
	d = &h.t->defs[h.row];
	if (h.t->seen && h.t->seen[h.row] < 255)
		h.t->seen[h.row]++;
	if (d->kind == OPT_HELP)
		return OPTTAB_HELP;
	if (takes_value(d) && !v) {
		if (*i + 1 >= argc)
			return failf(err, len, "option '%s' needs a value", a);
		v = argv[++*i];
	}
	err[0] = '\0';
	if (store_value(d, h.t->store, v, err, len))
		return err[0] ? OPTTAB_ERROR : bad_value(d, v, err, len);
	return OPTTAB_OK;
}

int opttab_parse(const struct opt_table *t, size_t nt, int argc, char **argv,
		 unsigned flags, int *first, char *err, size_t len)
{
	char **words = calloc((size_t)argc + 1, sizeof(*words));
	int i, nw = 0, no = 1, r = OPTTAB_OK;

	if (!words)
		return failf(err, len, "out of memory");
	for (i = 1; i < argc && r == OPTTAB_OK; i++) {
		const char *a = argv[i];
		int from = i;

		if (!strcmp(a, "--") || ((a[0] != '-' || !a[1]) &&
					 (flags & OPTTAB_STOP))) {
			i += !strcmp(a, "--") && !(flags & OPTTAB_KNOWN);
			while (i < argc)
				words[nw++] = argv[i++];
			break;
		}
		if (a[0] != '-' || !a[1]) {
			words[nw++] = argv[i];
			continue;
		}
		r = one_option(t, nt, argc, argv, &i, flags, err, len);
		if (r == OPTTAB_WORD) {
			words[nw++] = argv[i];
			r = OPTTAB_OK;
			continue;
		}
		while (from <= i)
			argv[no++] = argv[from++];
	}
	while (r == OPTTAB_OK && i < argc)
		words[nw++] = argv[i++];
	if (r == OPTTAB_OK) {
		memcpy(argv + no, words, (size_t)nw * sizeof(*words));
		*first = no;
	}
	free(words);
	return r;
}

int opttab_defaults(const struct opt_table *t, char *err, size_t len)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct opt_def *d = &t->defs[i];

		if (!d->dflt || (d->flags & OPT_DOC_DEFAULT))
			continue;
		err[0] = '\0';
		if (store_value(d, t->store, d->dflt, err, len)) {
			if (!err[0])
				bad_value(d, d->dflt, err, len);
			return OPTTAB_ERROR;
		}
	}
	return OPTTAB_OK;
}

const struct opt_def *opttab_find(const struct opt_table *t, const char *name)
{
	struct hit h = { 0 };

	return find_long(t, 1, name, strlen(name), false, &h) ?
	       &h.t->defs[h.row] : NULL;
}

/* Column of the help text; a longer option name puts it on its own line. */
#define HELP_COL 22

void opttab_usage(const struct opt_table *t, FILE *f)
{
	if (t->title)
		fprintf(f, "%s\n", t->title);
	for (size_t i = 0; i < t->n; i++) {
		const struct opt_def *d = &t->defs[i];
		const char *h = d->help, *nl;
		char head[96];
		int n;

		/* "  -d, --depth N" or "  --name ARG" */
		if (d->letter)
			n = snprintf(head, sizeof(head), "  -%c, --%s%s%s",
				     d->letter, d->name, d->arg ? " " : "",
				     d->arg ? d->arg : "");
		else
			n = snprintf(head, sizeof(head), "  --%s%s%s", d->name,
				     d->arg ? " " : "", d->arg ? d->arg : "");
		fprintf(f, "%s", head);
		if (n >= HELP_COL - 1)
			fprintf(f, "\n%*s", HELP_COL, "");
		else
			fprintf(f, "%*s", HELP_COL - n, "");
		while ((nl = strchr(h, '\n'))) {
			fprintf(f, "%.*s\n%*s", (int)(nl - h), h, HELP_COL, "");
			h = nl + 1;
		}
		fprintf(f, "%s", h);
		/* The default on the help's last line, or below it. */
		if (d->dflt && HELP_COL + strlen(h) + strlen(d->dflt) + 12 > 79)
			fprintf(f, "\n%*s(default: %s)", HELP_COL, "", d->dflt);
		else if (d->dflt)
			fprintf(f, " (default: %s)", d->dflt);
		fprintf(f, "\n");
	}
}

static int check_row(const struct opt_def *d, void *scratch, char *err,
		     size_t len)
{
	if (!d->name || !*d->name)
		return failf(err, len, "a row without a name");
	if (!d->help || !*d->help)
		return failf(err, len, "--%s has no help", d->name);
	if (takes_value(d) != !!d->arg)
		return failf(err, len, "--%s: %s", d->name, d->arg ?
			     "a flag with an argument name" :
			     "takes a value but names no argument");
	if (d->kind == OPT_FN && !d->set)
		return failf(err, len, "--%s: OPT_FN without a setter", d->name);
	if (d->kind == OPT_CHOICE && !d->choices)
		return failf(err, len, "--%s: OPT_CHOICE without choices",
			     d->name);
	if (d->dflt && !(d->flags & OPT_DOC_DEFAULT) && d->kind != OPT_FN &&
	    store_value(d, scratch, d->dflt, err, len))
		return failf(err, len, "--%s: its default '%s' is refused by "
			     "its own row", d->name, d->dflt);
	return 0;
}

int opttab_check(const struct opt_table *t, size_t nt, char *err, size_t len)
{
	/* Defaults are tried on scratch memory, never on the real store. */
	static char scratch[1 << 16];

	for (size_t k = 0; k < nt; k++)
		for (size_t i = 0; i < t[k].n; i++) {
			const struct opt_def *d = &t[k].defs[i];

			if (d->off + sizeof(uint64_t) > sizeof(scratch))
				return failf(err, len, "--%s: offset too large",
					     d->name);
			if (check_row(d, scratch, err, len))
				return OPTTAB_ERROR;
			for (size_t k2 = k; k2 < nt; k2++)
				for (size_t j = k2 == k ? i + 1 : 0;
				     j < t[k2].n; j++) {
					const struct opt_def *e = &t[k2].defs[j];

					if (!strcmp(d->name, e->name))
						return failf(err, len, "--%s twice",
							     d->name);
					if (d->letter && d->letter == e->letter)
						return failf(err, len, "-%c twice "
							     "(--%s, --%s)", d->letter,
							     d->name, e->name);
				}
		}
	return OPTTAB_OK;
}
