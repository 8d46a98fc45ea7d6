// SPDX-License-Identifier: MIT
/*
 * libmicrohttpd glue: per-request state, body limits, authentication,
 * dispatch through the route table, static files, metrics. Background
 * work runs on the lab's workers (lab/workers.h), started and stopped
 * here.
 *
 * Threading: MHD runs one thread per connection, so a handler may block
 * (claim long-poll, SSE stream) without stalling other clients. Each
 * request borrows a SQLite connection from a pool (WAL mode).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <microhttpd.h>

#include "daemon/store/db.h"
#include "daemon/lab/alerts.h"
#include "daemon/lab/builds.h"
#include "daemon/lab/images.h"
#include "daemon/lab/jobs.h"
#include "daemon/http/routes.h"
#include "daemon/http/server.h"
#include "daemon/lab/bisect_report.h"
#include "daemon/lab/fetcher.h"
#include "daemon/lab/gitmirror.h"
#include "daemon/lab/trust.h"
#include "daemon/lab/watch_poll.h"
#include "daemon/lab/workers.h"

struct req_state {
	struct timespec start;
	const struct route *route;
	int route_idx;
	char *body;
	size_t len, cap, max;
	bool too_big;
	bool replied;
	bool stream_refused;	/* a streamed body was refused: answer sresp */
	struct http_resp sresp;
	const struct route_stream *stream;	/* ROUTE_STREAM routes */
	int status;
	int retry_after;	/* 429: Retry-After seconds */
	struct http_req req;
	char *scratch;
};

/* What no option sets; the options' defaults are server_opts.c's. */
void server_config_defaults(struct server_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->auth_ttl = 60;
	cfg->conn_limit = 4000;
}

/* A directory @name beside the database into @dir. */
static void beside_db(const struct server_config *cfg, const char *name,
		      char *dir, size_t len)
{
	const char *slash = strrchr(cfg->db_path, '/');

	if (slash)
		snprintf(dir, len, "%.*s/%s", (int)(slash - cfg->db_path),
			 cfg->db_path, name);
	else
		snprintf(dir, len, "%s", name);
}

/* The image store: --image-dir, else "images" beside the database. */
static int images_dir_init(struct server *s)
{
	const struct server_config *cfg = &s->cfg;
	char dir[PATH_MAX], err[PATH_MAX + 128];
	store_conn *db;
	int rc;

	if (cfg->image_dir)
		snprintf(dir, sizeof(dir), "%s", cfg->image_dir);
	else
		beside_db(cfg, "images", dir, sizeof(dir));
	builds_set_any_may_build(!cfg->builders_only);
	db = db_pool_get(&s->pool);
	if (!db)
		return -1;
	rc = images_init(&s->images, dir, cfg->image_max_bytes,
			 cfg->image_max_age, db, err, sizeof(err));
	db_pool_put(&s->pool, db);
	if (rc)
		fprintf(stderr, "perflabd: %s\n", err);
	return rc;
}

/* Git mirrors: --git-dir, else a "git" directory beside the database. */
static void git_dir_init(const struct server_config *cfg)
{
	char dir[PATH_MAX];

	if (cfg->git_dir) {
		gitmirror_set_dir(cfg->git_dir);
		return;
	}
	beside_db(cfg, "git", dir, sizeof(dir));
	gitmirror_set_dir(dir);
}

/* lei's state and socket (watch_poll.h): "lei" beside the database. */
static void lei_dir_init(const struct server_config *cfg)
{
	char dir[PATH_MAX];

	beside_db(cfg, "lei", dir, sizeof(dir));
	watch_poll_set_dir(dir);
}

static uint64_t elapsed_us(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)(t.tv_sec - t0->tv_sec) * 1000000 +
	       (t.tv_nsec - t0->tv_nsec) / 1000;
}

/*
 * On every response (API, static files, errors): the UI loads only its own
 * scripts (no inline script, no eval), styles from itself plus inline ones
 * (the flame graph SVG carries a <style>), may not be framed (clickjacking)
 * and answers are never content-sniffed into HTML.
 */
static void security_headers(struct MHD_Response *r)
{
	MHD_add_response_header(r, "Content-Security-Policy",
		"default-src 'none'; script-src 'self'; style-src 'self'"
		" 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self';"
		" font-src 'self'; base-uri 'none'; form-action 'self';"
		" frame-ancestors 'none'");
	MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
	MHD_add_response_header(r, "X-Frame-Options", "DENY");
	MHD_add_response_header(r, "Referrer-Policy", "same-origin");
}

static enum MHD_Result queue(struct MHD_Connection *c, struct req_state *st,
			     int status, struct MHD_Response *r)
{
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	security_headers(r);
	st->status = status;
	st->replied = true;
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result reply_error(struct MHD_Connection *c, struct req_state *st,
				   int status, const char *msg, const char *allow)
{
	json_t *o = json_pack("{s:s}", "error", msg);
	char *s = o ? json_dumps(o, JSON_COMPACT) : NULL;
	struct MHD_Response *r;

	json_decref(o);
	if (!s)
		return MHD_NO;
	r = MHD_create_response_from_buffer(strlen(s), s, MHD_RESPMEM_MUST_FREE);
	if (!r) {
		free(s);
		return MHD_NO;
	}
	MHD_add_response_header(r, "Content-Type", "application/json");
	MHD_add_response_header(r, "Cache-Control", "no-store");
	if (allow)
		MHD_add_response_header(r, "Allow", allow);
	if (status == 401)
		MHD_add_response_header(r, "WWW-Authenticate", "Bearer");
	if (status == 429) {
		char ra[16];

		snprintf(ra, sizeof(ra), "%d", st->retry_after);
		MHD_add_response_header(r, "Retry-After", ra);
	}
	return queue(c, st, status, r);
}

/* ---- static files ---------------------------------------------------- */

static const char *mime_of(const char *path)
{
	static const struct { const char *ext, *type; } t[] = {
		{ ".html", "text/html; charset=utf-8" },
		{ ".js", "text/javascript; charset=utf-8" },
		{ ".mjs", "text/javascript; charset=utf-8" },
		{ ".css", "text/css; charset=utf-8" },
		{ ".json", "application/json" },
		{ ".svg", "image/svg+xml" },
		{ ".png", "image/png" },
		{ ".ico", "image/x-icon" },
		{ ".map", "application/json" },
		{ ".txt", "text/plain; charset=utf-8" },
		{ ".woff2", "font/woff2" },
	};
	const char *dot = strrchr(path, '.');
	size_t i;

	for (i = 0; dot && i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(dot, t[i].ext))
			return t[i].type;
	return "application/octet-stream";
}

static bool safe_url_path(const char *url)
{
	const char *p;

	if (url[0] != '/' || strchr(url, '\\') || strlen(url) > 1024)
		return false;
	for (p = url; *p; p++) {
		if ((unsigned char)*p < 0x20)
			return false;
		if (p[0] == '/' && p[1] == '.' && p[2] == '.' &&
		    (p[3] == '/' || p[3] == '\0'))
			return false;
	}
	return true;
}

/*
 * web/ also holds the npm tree of the browser tests (playwright-core);
 * of node_modules only uPlot's dist files belong to the UI.
 */
static bool web_path_allowed(const char *rel)
{
	static const char nm[] = "/node_modules/";
	static const char uplot[] = "/node_modules/uplot/dist/";

	return strncmp(rel, nm, sizeof(nm) - 1) == 0 ?
		strncmp(rel, uplot, sizeof(uplot) - 1) == 0 : true;
}

static enum MHD_Result serve_static(struct server *s, struct MHD_Connection *c,
				    struct req_state *st, const char *url)
{
	char path[PATH_MAX], real[PATH_MAX];
	struct MHD_Response *r;
	struct stat sb;
	size_t n;
	int fd;

	if (!s->web_real[0] || !safe_url_path(url))
		return reply_error(c, st, 404, "not found", NULL);
	if (snprintf(path, sizeof(path), "%s%s", s->web_real, url) >= (int)sizeof(path))
		return reply_error(c, st, 404, "not found", NULL);
	n = strlen(path);
	if (path[n - 1] == '/' && n + 10 < sizeof(path))
		strcat(path, "index.html");
	if (!realpath(path, real))
		return reply_error(c, st, 404, "not found", NULL);
	n = strlen(s->web_real);
	if (strncmp(real, s->web_real, n) || real[n] != '/' ||
	    !web_path_allowed(real + n))
		return reply_error(c, st, 404, "not found", NULL);
	if (stat(real, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		if (strlen(real) + 12 >= sizeof(real))
			return reply_error(c, st, 404, "not found", NULL);
		strcat(real, "/index.html");
	}
	fd = open(real, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return reply_error(c, st, 404, "not found", NULL);
	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode)) {
		close(fd);
		return reply_error(c, st, 404, "not found", NULL);
	}
	r = MHD_create_response_from_fd((uint64_t)sb.st_size, fd);
	if (!r) {
		close(fd);
		return MHD_NO;
	}
	MHD_add_response_header(r, "Content-Type", mime_of(real));
	MHD_add_response_header(r, "Cache-Control", "no-cache");
	return queue(c, st, 200, r);
}

/* ---- authentication -------------------------------------------------- */

static const char *bearer(struct MHD_Connection *c, const struct route *r)
{
	const char *h = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
						    MHD_HTTP_HEADER_AUTHORIZATION);

	if (h && !strncasecmp(h, "Bearer ", 7)) {
		h += 7;
		while (*h == ' ')
			h++;
		return *h ? h : NULL;
	}
	if (r->flags & ROUTE_QUERY_KEY)
		return MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "key");
	return NULL;
}

/* 0 ok, or an HTTP status with the reason in @msg. */
static int authenticate(struct server *s, struct MHD_Connection *c,
			struct req_state *st, const char **msg)
{
	const struct route *r = st->route;
	const union MHD_ConnectionInfo *ci;
	uint8_t addr[16];
	const char *key;
	size_t alen;

	if (r->auth == AUTH_PUBLIC)
		return 0;
	key = bearer(c, r);
	if (!key) {
		if (s->cfg.public_read && r->auth == AUTH_READ)
			return 0;
		if (r->flags & ROUTE_SIGNED)
			return 0;	/* the handler checks the signature */
		*msg = "missing API key (Authorization: Bearer KEY)";
		return 401;
	}
	ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	alen = clientaddr_key(&s->cfg.proxies, ci ? ci->client_addr : NULL,
			      MHD_lookup_connection_value(c, MHD_HEADER_KIND,
							  "X-Forwarded-For"),
			      addr);
	/* A client with too many failed keys may still use a key that was
	 * verified recently (cached: no KDF, nothing to guess). */
	if (!ratelimit_allowed(&s->auth_fails, addr, alen, ratelimit_now(),
			       &st->retry_after)) {
		if (auth_check_cached(&s->auth, key, &st->req.auth)) {
			*msg = "too many failed authentication attempts; retry later";
			return 429;
		}
	} else if (auth_check(&s->auth, st->req.db, key, &st->req.auth)) {
		ratelimit_fail(&s->auth_fails, addr, alen, ratelimit_now());
		*msg = "invalid API key";
		return 401;
	}
	if (!(st->req.auth.role & r->auth)) {
		*msg = "this key's role may not use this endpoint";
		return 403;
	}
	return 0;
}

/* ---- dispatch -------------------------------------------------------- */

/* Answer a handler's @resp (its body is taken). */
static enum MHD_Result reply_resp(struct MHD_Connection *c, struct req_state *st,
				  struct http_resp *resp)
{
	struct MHD_Response *r;

	if (resp->mhd)
		return queue(c, st, resp->status ? resp->status : 200, resp->mhd);
	if (!resp->body) {
		r = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
	} else {
		r = MHD_create_response_from_buffer(resp->len, resp->body,
						    MHD_RESPMEM_MUST_FREE);
		if (!r)
			free(resp->body);
	}
	resp->body = NULL;
	if (!r)
		return MHD_NO;
	if (resp->content_type)
		MHD_add_response_header(r, "Content-Type", resp->content_type);
	if (resp->location[0])
		MHD_add_response_header(r, "Location", resp->location);
	if (resp->retry_after > 0) {
		char ra[16];

		snprintf(ra, sizeof(ra), "%d", resp->retry_after);
		MHD_add_response_header(r, "Retry-After", ra);
	}
	MHD_add_response_header(r, "Cache-Control", "no-store");
	return queue(c, st, resp->status ? resp->status : 200, r);
}

static enum MHD_Result dispatch(struct server *s, struct MHD_Connection *c,
				struct req_state *st)
{
	struct http_resp resp = { 0 };
	char msg[256] = "";
	int ret;

	(void)s;
	if (!st->body) {
		st->body = strdup("");
		if (!st->body)
			return MHD_NO;
	}
	st->req.body = st->body;
	st->req.body_len = st->len;
	db_writer_last_error(NULL, 0);
	if (st->route->flags & ROUTE_WRITES)
		server_write_take(&st->req);
	ret = st->route->fn(&st->req, &resp);
	server_write_release(&st->req);
	if (ret < 0 && !resp.status && !resp.mhd) {
		char why[160];

		/* The failed write ran on the writer (or, for a read, here). */
		if (db_writer_last_error(why, sizeof(why)) == 503)
			snprintf(msg, sizeof(msg), "database unavailable: %s", why);
		else if (db_error_status(st->req.db) == 503)
			snprintf(msg, sizeof(msg), "database unavailable: %s",
				 db_errmsg(st->req.db));
	}
	if (resp.mhd)
		return queue(c, st, resp.status ? resp.status : 200, resp.mhd);
	if (ret < 0 && !resp.status) {
		free(resp.body);
		if (msg[0])
			return reply_error(c, st, 503, msg, NULL);
		return reply_error(c, st, 500, "internal error", NULL);
	}
	return reply_resp(c, st, &resp);
}

static bool is_api(const char *url)
{
	return !strncmp(url, "/api/", 5) || !strcmp(url, "/api") ||
	       !strcmp(url, "/metrics") || !strcmp(url, "/healthz");
}

static enum MHD_Result first_call(struct server *s, struct MHD_Connection *c,
				  const char *url, const char *method,
				  struct req_state *st)
{
	char allow[64];
	const char *cl, *msg = NULL;
	enum route_match_result m;
	int code;

	st->scratch = malloc(strlen(url) + 1);
	if (!st->scratch)
		return MHD_NO;
	st->req.method = method;
	st->req.path = url;
	st->req.srv = s;
	st->req.conn = c;
	m = route_find(method, url, st->scratch, &st->req, &st->route, allow,
		       sizeof(allow));
	if (m == ROUTE_BAD_METHOD)
		return reply_error(c, st, 405, "method not allowed", allow);
	if (m == ROUTE_NOT_FOUND) {
		if (is_api(url))
			return reply_error(c, st, 404, "no such endpoint", NULL);
		if (strcmp(method, "GET") && strcmp(method, "HEAD"))
			return reply_error(c, st, 405, "method not allowed", "GET, HEAD");
		return serve_static(s, c, st, url);
	}
	st->route_idx = (int)(st->route - perflab_routes);
	st->max = st->route->max_body ? st->route->max_body : ROUTE_DEFAULT_BODY;
	st->req.db = db_pool_get(&s->pool);
	if (!st->req.db)
		return reply_error(c, st, 503, "database unavailable", NULL);
	code = authenticate(s, c, st, &msg);
	if (code)
		return reply_error(c, st, code, msg, NULL);
	cl = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
					 MHD_HTTP_HEADER_CONTENT_LENGTH);
	if (cl && strtoull(cl, NULL, 10) > st->max)
		return reply_error(c, st, 413, "request body too large", NULL);
	st->stream = route_stream_of(st->route);
	if (st->stream) {
		if (st->stream->begin(&st->req, &st->sresp, &st->req.stream) ||
		    st->sresp.status) {
			if (!st->sresp.status)
				return reply_error(c, st, 500, "internal error", NULL);
			return reply_resp(c, st, &st->sresp);
		}
	}
	return MHD_YES;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c,
				  const char *url, const char *method,
				  const char *version, const char *upload,
				  size_t *upload_size, void **con_cls)
{
	struct server *s = cls;
	struct req_state *st = *con_cls;

	(void)version;
	if (!st) {
		st = calloc(1, sizeof(*st));
		if (!st)
			return MHD_NO;
		st->route_idx = -1;
		clock_gettime(CLOCK_MONOTONIC, &st->start);
		*con_cls = st;
		return first_call(s, c, url, method, st);
	}
	if (st->replied) {
		*upload_size = 0;
		return MHD_YES;
	}
	if (*upload_size && st->stream) {
		size_t n = *upload_size;

		*upload_size = 0;
		st->len += n;
		if (st->stream_refused || st->too_big)
			return MHD_YES;
		if (st->len > st->max)
			st->too_big = true;
		else if (st->stream->data(&st->req, st->req.stream, upload, n,
						 &st->sresp))
			st->stream_refused = true;
		return MHD_YES;
	}
	if (*upload_size) {
		size_t n = *upload_size;

		*upload_size = 0;
		if (st->too_big || st->len + n > st->max) {
			st->too_big = true;
			return MHD_YES;
		}
		if (st->len + n + 1 > st->cap) {
			size_t cap = st->cap ? st->cap : 4096;
			char *b;

			while (cap < st->len + n + 1)
				cap *= 2;
			b = realloc(st->body, cap);
			if (!b)
				return MHD_NO;
			st->body = b;
			st->cap = cap;
		}
		memcpy(st->body + st->len, upload, n);
		st->len += n;
		st->body[st->len] = '\0';
		return MHD_YES;
	}
	if (st->too_big)
		return reply_error(c, st, 413, "request body too large", NULL);
	if (st->stream_refused) {
		if (!st->sresp.status)
			return reply_error(c, st, 500, "internal error", NULL);
		return reply_resp(c, st, &st->sresp);
	}
	if (st->stream)
		st->len = 0;	/* the handler reads req->stream, not the body */
	return dispatch(s, c, st);
}

static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
			 enum MHD_RequestTerminationCode toe)
{
	struct server *s = cls;
	struct req_state *st = *con_cls;

	(void)c;
	(void)toe;
	if (!st)
		return;
	metrics_record(&s->metrics, st->route_idx, st->status ? st->status : 500,
		       elapsed_us(&st->start));
	if (st->stream && st->req.stream)
		st->stream->end(st->req.stream);
	free(st->sresp.body);
	if (st->req.db)
		db_pool_put(&s->pool, st->req.db);
	free(st->body);
	free(st->scratch);
	free(st);
	*con_cls = NULL;
}

/* The analysis worker stored an experiment's verdicts. */
static void analysis_done(void *arg, int64_t exp, const char *state)
{
	struct server *s = arg;

	events_publish(&s->events, "experiment",
		       json_pack("{s:I,s:s}", "experiment_id", (json_int_t)exp,
				 "state", state));
	/* A bisection step or a track's change point may continue. */
	workers_kick_bisect();
}

/* The lab's background workers (lab/workers.h). */
static int start_workers(struct server *s)
{
	const struct server_config *cfg = &s->cfg;
	struct workers_config wc = {
		.pool = &s->pool, .queue = &s->queue,
		.smtp = { .url = cfg->smtp_url, .from = cfg->smtp_from,
			  .to = cfg->smtp_to, .base_url = cfg->public_url,
			  .user = cfg->smtp_user, .password = cfg->smtp_password,
			  .timeout_s = cfg->delivery_timeout },
		.track_poll = cfg->track_poll,
		.git = { .threads = cfg->git_fetchers, .wait_s = cfg->git_wait,
			 .interval_s = cfg->git_fetch_interval },
		.images = &s->images,
		.retention_s = cfg->retention_s,
		.max_queued = cfg->max_queued_runs,
		.reply_inbox = cfg->reply_inbox,
	};

	server_jobs_ctx(s, &wc.jobs);
	gitmirror_set_fetch_timeout(cfg->git_fetch_timeout);
	if (workers_start(&wc)) {
		fprintf(stderr, "perflabd: cannot start the background workers\n");
		return -1;
	}
	s->workers_started = true;
	return 0;
}

/* ---- start / stop ---------------------------------------------------- */

static int parse_listen(const char *spec, struct sockaddr_storage *ss,
			int *family)
{
	char host[256];
	const char *colon = strrchr(spec, ':');
	char *end;
	long port;

	if (!colon || (size_t)(colon - spec) >= sizeof(host))
		return -1;
	port = strtol(colon + 1, &end, 10);
	if (*end || port < 0 || port > 65535 || end == colon + 1)
		return -1;
	memcpy(host, spec, colon - spec);
	host[colon - spec] = '\0';
	memset(ss, 0, sizeof(*ss));
	if (host[0] == '[') {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)ss;
		size_t n = strlen(host);

		if (host[n - 1] != ']')
			return -1;
		host[n - 1] = '\0';
		a->sin6_family = AF_INET6;
		a->sin6_port = htons((uint16_t)port);
		*family = AF_INET6;
		return inet_pton(AF_INET6, host + 1, &a->sin6_addr) == 1 ? 0 : -1;
	}
	struct sockaddr_in *a = (struct sockaddr_in *)ss;

	a->sin_family = AF_INET;
	a->sin_port = htons((uint16_t)port);
	*family = AF_INET;
	if (!host[0])
		return 0;
	return inet_pton(AF_INET, host, &a->sin_addr) == 1 ? 0 : -1;
}

static int open_db(struct server *s)
{
	char err[600];
	store_conn *db;

	if (db_check_file(s->cfg.db_path, err, sizeof(err))) {
		fprintf(stderr, "perflabd: %s\n", err);
		return -1;
	}
	if (db_pool_init(&s->pool, s->cfg.db_path))
		return -1;
	db = db_pool_get(&s->pool);
	if (!db)
		return -1;
	db_writer_init(&s->writer, db);
	return 0;
}

int server_start(struct server *s, const struct server_config *cfg)
{
	struct sockaddr_storage ss;
	const union MHD_DaemonInfo *info;
	unsigned flags;
	int family;

	memset(s, 0, sizeof(*s));
	s->cfg = *cfg;
	if (parse_listen(cfg->listen, &ss, &family)) {
		fprintf(stderr, "perflabd: bad --listen '%s' (want ADDR:PORT)\n", cfg->listen);
		return -1;
	}
	if (cfg->web_dir && !realpath(cfg->web_dir, s->web_real)) {
		fprintf(stderr, "perflabd: --web %s: %s\n", cfg->web_dir, strerror(errno));
		return -1;
	}
	if (open_db(s) || images_dir_init(s))
		return -1;
	git_dir_init(cfg);
	lei_dir_init(cfg);
	bisect_report_set_url(cfg->public_url);
	auth_cache_init(&s->auth, cfg->auth_ttl);
	ratelimit_init(&s->auth_fails, RATELIMIT_BURST, RATELIMIT_PER_SECOND);
	events_init(&s->events);
	cache_init(&s->cache);
	metrics_init(&s->metrics, (int)perflab_routes_count, route_label);
	job_queue_init(&s->queue);

	/* Before the first request: uploads kick it. */
	if (analysis_worker_start(&s->analysis, &s->pool, &s->writer,
				  analysis_done, s)) {
		fprintf(stderr, "perflabd: cannot start the analysis worker\n");
		return -1;
	}

	{
		struct jobs_ctx jc;

		s->lava_cfg = cfg->lava;
		s->lava_cfg.images = &s->images;
		if (!s->lava_cfg.url)
			s->lava_cfg.url = cfg->public_url;
		server_jobs_ctx(s, &jc);
		if (lava_worker_start(&s->lava, &s->pool, &s->writer, &jc,
				      &s->lava_cfg)) {
			fprintf(stderr, "perflabd: cannot start the LAVA worker\n");
			return -1;
		}
	}

	flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD |
		MHD_USE_POLL | MHD_USE_ERROR_LOG;
	if (family == AF_INET6)
		flags |= MHD_USE_IPv6;
	s->mhd = MHD_start_daemon(flags, 0, NULL, NULL, on_request, s,
				  MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
				  MHD_OPTION_NOTIFY_COMPLETED, on_completed, s,
				  MHD_OPTION_CONNECTION_LIMIT, (unsigned)cfg->conn_limit,
				  MHD_OPTION_CONNECTION_TIMEOUT, 120u,
				  MHD_OPTION_THREAD_STACK_SIZE, (size_t)(1u << 20),
				  MHD_OPTION_LISTEN_BACKLOG_SIZE, 1024u,
				  MHD_OPTION_END);
	if (!s->mhd) {
		fprintf(stderr, "perflabd: cannot listen on %s: %s\n", cfg->listen,
			strerror(errno));
		return -1;
	}
	info = MHD_get_daemon_info(s->mhd, MHD_DAEMON_INFO_BIND_PORT);
	s->port = info ? info->port : 0;
	if (cfg->port_file) {
		FILE *f = fopen(cfg->port_file, "w");

		if (f) {
			fprintf(f, "%d\n", s->port);
			fclose(f);
		}
	}
	return start_workers(s);
}

void server_stop(struct server *s)
{
	s->stopping = 1;
	job_queue_stop(&s->queue);
	events_close(&s->events);
	/* Finishes the analysis in hand (its git, the culprit's patch-id,
	 * before git is cancelled); other marks wait for the next start. */
	analysis_worker_stop(&s->analysis);
	lava_worker_stop(&s->lava);
	/* Kills running git and deliveries; requests waiting for a fetch
	 * are answered at once. */
	if (s->workers_started)
		workers_stop();
	MHD_stop_daemon(s->mhd);
	analysis_worker_destroy(&s->analysis);
	db_writer_destroy(&s->writer);
	db_pool_destroy(&s->pool);
	metrics_destroy(&s->metrics);
	events_destroy(&s->events);
	cache_destroy(&s->cache);
	auth_cache_destroy(&s->auth);
	ratelimit_destroy(&s->auth_fails);
}
