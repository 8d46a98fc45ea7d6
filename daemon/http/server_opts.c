// SPDX-License-Identifier: MIT
/*
 * server_opts: perflabd's option table; see server_opts.h. The rows
 * that need more than a range check have a setter here.
 */
#include <stdlib.h>
#include <string.h>

#include "daemon/http/server_opts.h"
#include "daemon/lab/alerts.h"
#include "daemon/lab/fetcher.h"
#include "daemon/lab/gitmirror.h"
#include "daemon/lab/trust.h"
#include "daemon/lab/watches.h"
#include "daemon/lab/worker.h"

#define OFF(f) offsetof(struct server_config, f)
#define S_(x) #x
#define S(x) S_(x)

/*
 * The SMTP password comes from a file (first line), never from the
 * command line, where every user of the machine could read it.
 */
static int set_password_file(void *store, const char *path, char *err,
			     size_t len)
{
	struct server_config *cfg = store;
	char line[1024];
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f) {
		snprintf(err, len, "--smtp-password-file %s: %m", path);
		return -1;
	}
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	n = strcspn(line, "\r\n");
	line[n] = '\0';
	if (!n) {
		snprintf(err, len, "--smtp-password-file %s is empty", path);
		return -1;
	}
	cfg->smtp_password = strdup(line);
	return cfg->smtp_password ? 0 : -1;
}

static int set_image_max_age(void *store, const char *v, char *err,
			     size_t len)
{
	struct server_config *cfg = store;
	char *end;
	long age = strtol(v, &end, 10);

	(void)err;
	(void)len;
	if (!*v || *end || age < 0 || age > 86400L * 3650)
		return -1;
	cfg->image_max_age = age ? age : 1;
	return 0;
}

static int set_image_builders(void *store, const char *v, char *err,
			      size_t len)
{
	(void)err;
	(void)len;
	if (strcmp(v, "any") && strcmp(v, "builders"))
		return -1;
	((struct server_config *)store)->builders_only = !strcmp(v, "builders");
	return 0;
}

static int set_lava_url(void *store, const char *v, char *err, size_t len)
{
	(void)err;
	(void)len;
	if (strncmp(v, "http://", 7) && strncmp(v, "https://", 8))
		return -1;
	((struct server_config *)store)->lava.url = v;
	return 0;
}

static int set_retention_days(void *store, const char *v, char *err,
			      size_t len)
{
	char *end;
	long days = strtol(v, &end, 10);

	(void)err;
	(void)len;
	if (!*v || *end || days < 0 || days > 36500)
		return -1;
	((struct server_config *)store)->retention_s = (int64_t)days * 86400;
	return 0;
}

/* An absolute path to an initialised public-inbox (v2): replies go there too. */
static int set_reply_inbox(void *store, const char *v, char *err, size_t len)
{
	if (v[0] != '/' || !watches_inbox_dir_ok(v)) {
		snprintf(err, len, "--reply-inbox: %s is not a public-inbox"
			 " directory (absolute; public-inbox-init -V2 it first)", v);
		return -1;
	}
	((struct server_config *)store)->reply_inbox = v;
	return 0;
}

static int set_trusted_proxy(void *store, const char *v, char *err,
			     size_t len)
{
	struct server_config *cfg = store;

	if (!clientaddr_add_proxies(&cfg->proxies, v))
		return 0;
	snprintf(err, len, "bad --trusted-proxy '%s' (IPv4/IPv6 addresses, at"
		 " most %d)", v, CLIENTADDR_MAX_PROXIES);
	return -1;
}

static const struct opt_def server_defs[] = {
	{ .name = "listen", .kind = OPT_STR, .off = OFF(listen),
	  .arg = "ADDR:PORT", .dflt = "127.0.0.1:8080",
	  .help = "address to serve on ([::1]:PORT; port 0 picks one)" },
	{ .name = "db", .kind = OPT_STR, .off = OFF(db_path), .arg = "FILE",
	  .dflt = "perflab.db", .help = "the SQLite database" },
	{ .name = "web", .kind = OPT_STR, .off = OFF(web_dir), .arg = "DIR",
	  .help = "serve the web UI's files from DIR" },
	{ .name = "port-file", .kind = OPT_STR, .off = OFF(port_file),
	  .arg = "FILE", .help = "write the bound port to FILE" },
	{ .name = "lease-seconds", .kind = OPT_INT, .off = OFF(lease_seconds),
	  .arg = "N", .min = 1, .max = 86400, .dflt = "60",
	  .help = "a claimed job's lease without a heartbeat" },
	{ .name = "max-attempts", .kind = OPT_INT, .off = OFF(max_attempts),
	  .arg = "N", .min = 1, .max = 100, .dflt = "3",
	  .help = "claims of a job before it fails" },
	{ .name = "public-read", .kind = OPT_SET, .off = OFF(public_read),
	  .help = "reading routes need no key" },
	{ .name = "max-queued-runs", .kind = OPT_INT,
	  .off = OFF(max_queued_runs), .arg = "N", .min = 0, .max = 1000000,
	  .dflt = S(TRUST_DEFAULT_QUEUED_RUNS), .hint = "0 = no quota",
	  .help = "queued runs per non-admin key (0: no quota)" },
	{ .name = "trusted-proxy", .kind = OPT_FN, .arg = "ADDR[,ADDR]",
	  .set = set_trusted_proxy,
	  .help = "peers whose X-Forwarded-For names the client\n"
		  "(repeatable)" },
	{ .name = "smtp-url", .kind = OPT_STR, .off = OFF(smtp_url),
	  .arg = "smtp://HOST:PORT", .help = "alert mail relay" },
	{ .name = "smtp-from", .kind = OPT_STR, .off = OFF(smtp_from),
	  .arg = "ADDR", .help = "alert mail sender" },
	{ .name = "smtp-to", .kind = OPT_STR, .off = OFF(smtp_to),
	  .arg = "ADDR[,ADDR]", .help = "alert mail recipients" },
	{ .name = "smtp-user", .kind = OPT_STR, .off = OFF(smtp_user),
	  .arg = "USER", .help = "SMTP AUTH user (with --smtp-password-file)" },
	{ .name = "smtp-password-file", .kind = OPT_FN, .arg = "FILE",
	  .set = set_password_file,
	  .help = "SMTP AUTH password: the file's first line" },
	{ .name = "public-url", .kind = OPT_STR, .off = OFF(public_url),
	  .arg = "URL", .help = "link base in alert mails" },
	{ .name = "git-dir", .kind = OPT_STR, .off = OFF(git_dir), .arg = "DIR",
	  .dflt = "git beside --db", .flags = OPT_DOC_DEFAULT,
	  .help = "bare mirrors of git bases" },
	{ .name = "track-poll", .kind = OPT_INT, .off = OFF(track_poll),
	  .arg = "SECONDS", .min = 0, .max = 86400 * 7, .dflt = "300",
	  .hint = "seconds, 0 = no timer",
	  .help = "seconds between polls of every track (0: no timer)" },
	{ .name = "image-dir", .kind = OPT_STR, .off = OFF(image_dir),
	  .arg = "DIR", .dflt = "images beside --db", .flags = OPT_DOC_DEFAULT,
	  .help = "the kernel image store" },
	{ .name = "image-max-bytes", .kind = OPT_U64,
	  .off = OFF(image_max_bytes), .arg = "N", .min = 4096, .max = -1,
	  .hint = "bytes, at least 4096", .help = "the image store's size cap" },
	{ .name = "image-max-age", .kind = OPT_FN, .arg = "SECONDS",
	  .set = set_image_max_age, .hint = "seconds",
	  .help = "images unused this long are dropped" },
	{ .name = "image-builders", .kind = OPT_FN, .arg = "any|builders",
	  .set = set_image_builders, .dflt = "any",
	  .hint = "any or builders",
	  .help = "who may upload images: any runner or builders only" },
	{ .name = "lava-guest", .kind = OPT_STR, .off = OFF(lava.guest_dir),
	  .arg = "DIR", .help = "perflab-runner lava-guest's output" },
	{ .name = "lava-url", .kind = OPT_FN, .arg = "URL",
	  .set = set_lava_url, .hint = "http:// or https://",
	  .help = "perflabd as LAVA reaches it" },
	{ .name = "git-fetchers", .kind = OPT_INT, .off = OFF(git_fetchers),
	  .arg = "N", .min = 1, .max = WORKER_MAX_THREADS,
	  .dflt = S(FETCHER_DEFAULT_THREADS), .help = "git fetches at once" },
	{ .name = "git-wait", .kind = OPT_INT, .off = OFF(git_wait),
	  .arg = "SECONDS", .min = 0, .max = 3600,
	  .dflt = S(FETCHER_DEFAULT_WAIT_S),
	  .help = "how long a request waits for its fetch" },
	{ .name = "git-fetch-interval", .kind = OPT_INT,
	  .off = OFF(git_fetch_interval), .arg = "SECONDS", .min = 0,
	  .max = 86400, .dflt = S(FETCHER_DEFAULT_INTERVAL_S),
	  .help = "minimum seconds between fetches of one base" },
	{ .name = "git-fetch-timeout", .kind = OPT_INT,
	  .off = OFF(git_fetch_timeout), .arg = "SECONDS", .min = 1,
	  .max = 86400, .dflt = S(GITMIRROR_FETCH_TIMEOUT_S),
	  .help = "a fetch is killed after this long" },
	{ .name = "delivery-timeout", .kind = OPT_INT,
	  .off = OFF(delivery_timeout), .arg = "SECONDS", .min = 1,
	  .max = 3600, .dflt = S(ALERTS_DEFAULT_TIMEOUT_S),
	  .help = "SMTP/webhook connect and answer timeout" },
	{ .name = "retention-days", .kind = OPT_FN, .arg = "N",
	  .set = set_retention_days, .hint = "days, 0 = keep every detail",
	  .help = "compact runs' detail after N days (0: keep all)" },
	{ .name = "reply-inbox", .kind = OPT_FN, .arg = "DIR",
	  .set = set_reply_inbox,
	  .help = "public-inbox the lab's replies are also written to" },
	{ .name = "help", .letter = 'h', .kind = OPT_HELP, .help = "this help" },
};

#define NDEFS (sizeof(server_defs) / sizeof(server_defs[0]))

void server_opts_table(struct opt_table *t, struct server_config *cfg,
		       unsigned char *seen)
{
	*t = (struct opt_table){ "Options:", server_defs, NDEFS, cfg, seen };
}

size_t server_opts_count(void)
{
	return NDEFS;
}
