/* SPDX-License-Identifier: MIT */
/*
 * Schema migrations embedded into the binary by scripts/embed-schema.sh
 * (build/gen/schema.c from schema/NNNN_*.sql). Ordered by version.
 */
#ifndef PERFLAB_MIGRATIONS_H
#define PERFLAB_MIGRATIONS_H

#include <stddef.h>

struct migration {
	int version;
	const char *name;
	const char *sql;
};

extern const struct migration perflab_migrations[];
extern const size_t perflab_migrations_count;

#endif
