/* SPDX-License-Identifier: MIT */
/*
 * Hosts: runners register the host they drive (its name, backend, labels
 * and facts), a runner key binds to the one host it registered, and the
 * fleet list shows each host's state, current job and calibration.
 */
#ifndef PERFLAB_LAB_HOSTS_H
#define PERFLAB_LAB_HOSTS_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include <jansson.h>

#include "daemon/store/conn.h"
#include "daemon/lab/status.h"

/* POST /api/v1/hosts/register, its members' types checked. */
struct host_reg {
	const char *name, *backend;
	const json_t *labels;	/* array of names, or NULL */
	const json_t *facts;	/* object, or NULL */
};

/* The key registering: a runner key (bound to @host_id once it has
 * registered) or an admin key. */
struct host_caller {
	bool runner;
	int64_t key_id;
	int64_t host_id;
};

/*
 * Register or update host @r for @who, on the writer. A runner key
 * registers one host name, its own: a name another active key registered
 * is not taken over (a new key would get its pinned experiments), and a
 * runner key's first registration binds it (*@bound). The host id, or
 * -1: LAB_INVALID (labels, facts, names), LAB_FORBIDDEN (the key is
 * bound to another host), LAB_CONFLICT (another key's host name).
 */
int64_t hosts_register(store_conn *db, const struct host_caller *who,
		       const struct host_reg *r, bool *bound,
		       struct lab_err *e);

/* The id of host @name, or 0 (none), -1 on error. */
int64_t hosts_find(store_conn *db, const char *name);

/* GET /api/v1/hosts: hosts not seen since @offline_before are offline. */
json_t *hosts_list_json(store_conn *db, time_t offline_before);

#endif
