/* SPDX-License-Identifier: MIT */
/*
 * The daemon's state as handlers see it: configuration, the connection
 * pool and the one writer (store/), the lab's event ring and job queue
 * (lab/), and the HTTP layer's caches and counters. server.c fills it in
 * and runs the threads; handlers reach it as req->srv and include this
 * header, never server.h (which sits above the route table).
 */
#ifndef PERFLAB_STATE_H
#define PERFLAB_STATE_H

#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "daemon/http/auth.h"
#include "daemon/http/cache.h"
#include "daemon/http/clientaddr.h"
#include "daemon/http/http.h"
#include "daemon/http/metrics.h"
#include "daemon/http/ratelimit.h"
#include "daemon/lab/analysis_worker.h"
#include "daemon/lab/events.h"
#include "daemon/lab/images.h"
#include "daemon/lab/jobs.h"
#include "daemon/lab/lava.h"
#include "daemon/lab/lava_worker.h"
#include "daemon/lab/queue.h"
#include "daemon/store/db.h"
#include "daemon/store/writer.h"

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
	/* LAVA labs (lab/lava.h): the guest and the URL LAVA reaches
	 * perflabd at (--lava-guest, --lava-url); the kernels come from
	 * the image store. */
	struct lava_cfg lava;
	/* Git fetches (lab/fetcher.h): at once, a request's wait, the
	 * minimum interval per base, the kill timeout; seconds. */
	int git_fetchers, git_wait, git_fetch_interval, git_fetch_timeout;
	int delivery_timeout;	/* SMTP/webhook connect and answer, seconds */
	/* Peers whose X-Forwarded-For names the client (--trusted-proxy). */
	struct clientaddr_proxies proxies;
	/* The image store: --image-dir (NULL: "images" beside --db),
	 * --image-max-bytes, --image-max-age; --image-builders builders. */
	const char *image_dir;
	uint64_t image_max_bytes;
	int64_t image_max_age;
	bool builders_only;
	/* Retention (lab/retention.h): --retention-days in seconds, 0 off. */
	int64_t retention_s;
	/* The lab's own public-inbox of its thread replies (--reply-inbox). */
	const char *reply_inbox;
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
	/* The one writer connection and its FIFO lock: the runner protocol,
	 * the handlers and the lab's workers write through it (writer.h). */
	struct db_writer writer;
	/* Analyses experiments whose last job finished (analysis_worker.h). */
	struct analysis_worker analysis;
	/* Kernel images built once, downloaded by every host (images.h). */
	struct image_store images;
	/* Runs the LAVA labs' jobs (lava_worker.h). */
	struct lava_worker lava;
	struct lava_cfg lava_cfg;
	/* Claim long-poll: bumped whenever jobs become claimable. */
	struct job_queue queue;
	volatile int stopping;
	bool workers_started;	/* lab/workers.h */
	struct MHD_Daemon *mhd;
	int port;
};

/* Take the write lock; returns the writer connection to use until unlock. */
static inline store_conn *server_writer_lock(struct server *s)
{
	return db_writer_lock(&s->writer);
}

static inline void server_writer_unlock(struct server *s)
{
	db_writer_unlock(&s->writer);
}

/*
 * From here on this request writes: req->db becomes the writer's
 * connection, under the write lock, until the dispatcher's
 * server_write_release after the handler returns. Do the slow part (git,
 * parsing) first, on the pool connection. Idempotent.
 */
static inline store_conn *server_write_take(struct http_req *req)
{
	if (!req->pool_db) {
		req->pool_db = req->db;
		req->db = server_writer_lock(req->srv);
	}
	return req->db;
}

/* server_write_take, then BEGIN IMMEDIATE on the writer. */
static inline int server_write_begin(struct http_req *req)
{
	return db_begin(server_write_take(req));
}

static inline void server_write_release(struct http_req *req)
{
	if (req->pool_db) {
		server_writer_unlock(req->srv);
		req->db = req->pool_db;
		req->pool_db = NULL;
	}
}

/* Jobs became claimable: wake long-polling claims. */
static inline void server_queue_kick(struct server *s)
{
	job_queue_kick(&s->queue);
}

/* Wait up to @ms for a kick after generation @gen; returns the new generation. */
static inline uint64_t server_queue_wait(struct server *s, uint64_t gen, int ms)
{
	return job_queue_wait(&s->queue, gen, ms);
}

static inline uint64_t server_queue_gen(struct server *s)
{
	return job_queue_gen(&s->queue);
}

/* The jobs context (jobs.h) of the running server. */
static inline void server_jobs_ctx(struct server *s, struct jobs_ctx *c)
{
	*c = (struct jobs_ctx){ 0 };
	c->lease_seconds = s->cfg.lease_seconds;
	c->max_attempts = s->cfg.max_attempts;
	c->ev = &s->events;
	c->analysis = &s->analysis;
}

#endif
