// SPDX-License-Identifier: MIT
/*
 * backend: the registry of backends; see backend.h. A new backend adds
 * its table's name to BACKENDS.
 */
#include "runners/runner/backend.h"

#include <string.h>

/* The tables (backend_NAME in backend_*.c), in --help order. */
#define BACKENDS(X) X(qemu) X(qemu_icount) X(kexec) X(local)

#define DECLARE(n) extern const struct backend_ops backend_##n;
#define ENTRY(n) &backend_##n,
BACKENDS(DECLARE)
static const struct backend_ops *const backends[] = { BACKENDS(ENTRY) };

#define NBACKENDS (sizeof(backends) / sizeof(backends[0]))

const struct backend_ops *backend_at(int i)
{
	return i >= 0 && (size_t)i < NBACKENDS ? backends[i] : NULL;
}

const struct backend_ops *backend_find(const char *name)
{
	for (size_t i = 0; name && i < NBACKENDS; i++)
		if (!strcmp(backends[i]->name, name))
			return backends[i];
	return NULL;
}

const char *backend_names(void)
{
	static char buf[256];

	if (buf[0])
		return buf;
	for (size_t i = 0; i < NBACKENDS; i++) {
		if (i)
			strncat(buf, ", ", sizeof(buf) - strlen(buf) - 1);
		strncat(buf, backends[i]->name, sizeof(buf) - strlen(buf) - 1);
	}
	return buf;
}

/* Each line of @text after the first, indented to @col. */
static void put_indented(FILE *f, const char *text, int col)
{
	const char *nl;

	for (; (nl = strchr(text, '\n')); text = nl + 1) {
		fprintf(f, "%.*s\n", (int)(nl - text), text);
		if (nl[1])
			fprintf(f, "%*s", col, "");
	}
	fprintf(f, "%s\n", text);
}

void backend_usage(FILE *f)
{
	fprintf(f, "Backends:\n");
	for (size_t i = 0; i < NBACKENDS; i++) {
		fprintf(f, "  %-12s ", backends[i]->name);
		put_indented(f, backends[i]->usage, 15);
	}
	for (size_t i = 0; i < NBACKENDS; i++) {
		const struct opt_table *o = backends[i]->opts;

		if (!o || (i && backends[i - 1]->opts == o))
			continue;
		fprintf(f, "\nOptions of %s", backends[i]->name);
		for (size_t k = i + 1; k < NBACKENDS &&
		     backends[k]->opts == o; k++)
			fprintf(f, ", %s", backends[k]->name);
		fprintf(f, ":\n");
		opttab_usage(o, f);
	}
}
