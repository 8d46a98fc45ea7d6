/* SPDX-License-Identifier: MIT */
/*
 * The perflabd server: configuration, shared state, the libmicrohttpd
 * glue (server.c) and the lease reaper.
 */
#ifndef PERFLAB_SERVER_H
#define PERFLAB_SERVER_H

#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "daemon/http/auth.h"
#include "daemon/http/cache.h"
#include "daemon/http/clientaddr.h"
#include "daemon/store/db.h"
#include "daemon/http/events.h"
#include "daemon/store/fairlock.h"
#include "daemon/http/metrics.h"
#include "daemon/http/ratelimit.h"

struct server_config {
	const char *listen;	/* "ADDR:PORT" ("[::1]:PORT"); port 0 picks one */
	const char *db_path;
	const char *web_dir;	/* NULL: no static files */
	const char *port_file;	/* write the bound port here */
	int lease_seconds;	/* default 60 */
	int max_attempts;	/* default 3 */
	int auth_ttl;		/* seconds a verified key stays cached */
	bool public_read;	/* AUTH_READ routes need no key */
	int conn_limit;
	/* Alert email (alerts.h): SMTP URL, sender, recipients; link base. */
	const char *smtp_url, *smtp_from, *smtp_to, *public_url;
	const char *smtp_user, *smtp_password;	/* SMTP AUTH, optional */
	int max_queued_runs;	/* per non-admin key; 0: no quota */
	/* Bare mirrors of git bases; NULL: "git" beside --db. */
	const char *git_dir;
	int track_poll;		/* seconds between polls of every track */
	/* Peers whose X-Forwarded-For names the client (--trusted-proxy). */
	struct clientaddr_proxies proxies;
};

struct server {
	struct server_config cfg;
	struct db_pool pool;
	struct auth_cache auth;
	struct events events;
	struct metrics metrics;
	struct resp_cache cache;	/* rendered GET responses, see cache.h */
	struct ratelimit auth_fails;	/* failed keys per client, see ratelimit.h */
	char web_real[PATH_MAX];
	/* Serialises the runner protocol's write transactions (FIFO); they
	 * use the one connection @writer, whose page cache stays warm. */
	struct fair_lock write_lock;
	sqlite3 *writer;
	/* Claim long-poll: bumped whenever jobs become claimable. */
	pthread_mutex_t queue_lock;
	pthread_cond_t queue_cond;
	uint64_t queue_gen;
	volatile int stopping;
	pthread_t reaper;
	struct MHD_Daemon *mhd;
	int port;
};

void server_config_defaults(struct server_config *cfg);
/* Open the database (migrating it), start listening. 0 or -1 (message printed). */
int server_start(struct server *s, const struct server_config *cfg);
void server_stop(struct server *s);

/* Take the write lock; returns the writer connection to use until unlock. */
sqlite3 *server_writer_lock(struct server *s);
void server_writer_unlock(struct server *s);

/* Jobs became claimable: wake long-polling claims. */
void server_queue_kick(struct server *s);
/* Wait up to @ms for a kick after generation @gen; returns the new generation. */
uint64_t server_queue_wait(struct server *s, uint64_t gen, int ms);
uint64_t server_queue_gen(struct server *s);

#endif
