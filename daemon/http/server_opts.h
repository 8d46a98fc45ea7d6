/* SPDX-License-Identifier: MIT */
/*
 * server_opts: perflabd's serving options as one table (common/opttab.h)
 * over struct server_config: parsing, defaults and the usage text.
 */
#ifndef PERFLAB_SERVER_OPTS_H
#define PERFLAB_SERVER_OPTS_H

#include "common/opttab.h"
#include "daemon/http/state.h"

/* The table over @cfg; @seen: NULL or server_opts_count() counters. */
void server_opts_table(struct opt_table *t, struct server_config *cfg,
		       unsigned char *seen);
size_t server_opts_count(void);

#endif
