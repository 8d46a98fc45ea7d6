/* SPDX-License-Identifier: MIT */
/*
 * The perflabd server: the libmicrohttpd glue (server.c); it starts and
 * stops the analysis worker (lab/analysis_worker.h) and the lab's other
 * background workers (lab/workers.h).
 * Its configuration and the state handlers share are state.h; the write
 * discipline is store/writer.h.
 */
#ifndef PERFLAB_SERVER_H
#define PERFLAB_SERVER_H

#include "daemon/http/state.h"

void server_config_defaults(struct server_config *cfg);
/* Open the database (migrating it), start listening. 0 or -1 (message printed). */
int server_start(struct server *s, const struct server_config *cfg);
void server_stop(struct server *s);

#endif
