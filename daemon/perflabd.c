// SPDX-License-Identifier: MIT
/*
 * perflabd: the perflab daemon.
 *
 *   perflabd --listen ADDR:PORT --db FILE [--web DIR] [--lease-seconds N]
 *            [--max-attempts N] [--public-read] [--port-file FILE]
 *            [--max-queued-runs N] [--trusted-proxy ADDR[,ADDR]]...
 *   perflabd [--db FILE] key create|list|revoke ...
 *   perflabd [--db FILE] migrate
 *   perflabd [--db FILE] backup FILE [--pages-per-second N]
 *   perflabd [--db FILE] check [FILE]
 *   perflabd [--db FILE] restore BACKUP
 *
 * --db may stand before the subcommand, like every global option, or
 * after it; the subcommand's own --db wins.
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/http/server.h"
#include "daemon/lab/apikeys.h"
#include "daemon/lab/watches.h"
#include "daemon/lab/worker.h"
#include "daemon/store/backup.h"
#include "daemon/store/db.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: perflabd [--listen ADDR:PORT] [--db FILE] [--web DIR]\n"
		"                [--lease-seconds N] [--max-attempts N] [--public-read]\n"
		"                [--port-file FILE] [--smtp-url smtp://HOST:PORT\n"
		"                --smtp-from ADDR --smtp-to ADDR[,ADDR]\n"
		"                [--smtp-user USER --smtp-password-file FILE]]\n"
		"                [--public-url URL] [--max-queued-runs N]\n"
		"                [--trusted-proxy ADDR[,ADDR]]...\n"
		"                [--git-dir DIR] [--track-poll SECONDS]\n"
		"                [--image-dir DIR] [--image-max-bytes N]\n"
		"                [--image-max-age SECONDS] [--image-builders any|builders]\n"
		"                [--lava-guest DIR]\n"
		"                [--lava-url URL]\n"
		"                [--git-fetchers N] [--git-wait SECONDS]\n"
		"                [--git-fetch-interval SECONDS]\n"
		"                [--git-fetch-timeout SECONDS]\n"
		"                [--delivery-timeout SECONDS]\n"
		"                [--retention-days N] [--reply-inbox DIR]\n"
		"       perflabd [--db FILE] key create --role submit|admin|runner NAME\n"
		"       perflabd [--db FILE] key list\n"
		"       perflabd [--db FILE] key revoke NAME\n"
		"       perflabd [--db FILE] migrate\n"
		"       perflabd [--db FILE] backup FILE [--pages-per-second N]\n"
		"       perflabd [--db FILE] check [FILE]\n"
		"       perflabd [--db FILE] restore BACKUP\n"
		"       (the subcommands also take --db FILE after their words)\n");
}

static int parse_int(const char *s, int min, int max, int *out)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (!*s || *end || v < min || v > max)
		return -1;
	*out = (int)v;
	return 0;
}

static store_conn *open_migrated(const char *path)
{
	char err[512];
	store_conn *db = db_open(path, err, sizeof(err));

	if (!db) {
		fprintf(stderr, "perflabd: %s\n", err);
		return NULL;
	}
	if (db_migrate(db, err, sizeof(err)) < 0) {
		fprintf(stderr, "perflabd: %s: %s\n", path, err);
		db_close(db);
		return NULL;
	}
	return db;
}

static void print_keys(json_t *a)
{
	json_t *k;
	size_t i;

	printf("%-24s %-7s %-22s %-16s %-20s %s\n", "NAME", "ROLE", "KEY", "HOST",
	       "CREATED", "STATE");
	json_array_foreach(a, i, k)
		printf("%-24s %-7s %-22s %-16s %-20s %s\n",
		       json_string_value(json_object_get(k, "name")),
		       json_string_value(json_object_get(k, "role")),
		       json_string_value(json_object_get(k, "key")),
		       json_string_value(json_object_get(k, "host")),
		       json_string_value(json_object_get(k, "created")),
		       json_string_value(json_object_get(k, "state")));
}

/* perflabd key list [--db F] | perflabd key revoke NAME [--db F] */
static int cmd_key_admin(int argc, char **argv, const char *path)
{
	const char *name = NULL;
	struct lab_err e;
	store_conn *db;
	json_t *keys;
	int i, rc = 0;

	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--db") && i + 1 < argc)
			path = argv[++i];
		else if (!name && argv[i][0] != '-')
			name = argv[i];
		else
			return usage(stderr), 2;
	}
	if (!strcmp(argv[1], "revoke") != !!name)
		return usage(stderr), 2;
	db = open_migrated(path);
	if (!db)
		return 1;
	if (name) {
		if (apikeys_revoke(db, name, &e)) {
			fprintf(stderr, "perflabd: %s\n", e.msg);
			rc = 1;
		} else {
			printf("revoked %s (running daemons forget it within a minute)\n", name);
		}
	} else {
		keys = apikeys_list_json(db);
		print_keys(keys);
		rc = keys ? 0 : 1;
		json_decref(keys);
	}
	db_close(db);
	return rc;
}

/* argv[0] is "key"; @path is the global --db (or the default). */
static int cmd_key(int argc, char **argv, const char *path)
{
	static const struct option opts[] = {
		{ "role", required_argument, NULL, 'r' },
		{ "db", required_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 },
	};
	const char *role = NULL;
	char key[APIKEY_LEN + 1];
	struct lab_err e;
	store_conn *db;
	int c;

	if (argc >= 2 && (!strcmp(argv[1], "list") || !strcmp(argv[1], "revoke")))
		return cmd_key_admin(argc, argv, path);
	if (argc < 2 || strcmp(argv[1], "create")) {
		usage(stderr);
		return 2;
	}
	/* From "create" on; optind 0 makes getopt start afresh (main's
	 * scan stopped at "key" in REQUIRE_ORDER mode). */
	argc--;
	argv++;
	optind = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'r')
			role = optarg;
		else if (c == 'd')
			path = optarg;
		else
			return usage(stderr), 2;
	}
	if (!role || optind != argc - 1) {
		fprintf(stderr, "perflabd: key create needs --role and a NAME\n");
		return 2;
	}
	db = open_migrated(path);
	if (!db)
		return 1;
	if (apikeys_create(db, argv[optind], role, key, sizeof(key), &e) < 0) {
		fprintf(stderr, "perflabd: %s\n", e.msg);
		db_close(db);
		return 1;
	}
	printf("%s\n", key);
	db_close(db);
	return 0;
}

static int cmd_migrate(int argc, char **argv, const char *path)
{
	store_conn *db;

	if (argc == 3 && !strcmp(argv[1], "--db"))
		path = argv[2];
	else if (argc != 1)
		return usage(stderr), 2;
	db = open_migrated(path);
	if (!db)
		return 1;
	printf("%s: schema version %d\n", path, db_user_version(db));
	db_close(db);
	return 0;
}

/*
 * backup FILE [--pages-per-second N] | check [FILE] | restore BACKUP,
 * each with --db FILE anywhere among its words: the one FILE word in
 * *@file, the rate in *@rate (backup only). 0 or -1 (usage).
 */
static int db_cmd_args(int argc, char **argv, const char **path,
		       const char **file, int *rate)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--db") && i + 1 < argc)
			*path = argv[++i];
		else if (rate && !strcmp(argv[i], "--pages-per-second") &&
			 i + 1 < argc) {
			if (parse_int(argv[++i], 0, 1 << 30, rate))
				return -1;
		} else if (!*file && argv[i][0] != '-')
			*file = argv[i];
		else
			return -1;
	}
	return 0;
}

static void backup_progress(void *arg, int done, int total)
{
	(void)arg;
	fprintf(stderr, "perflabd: backup: %d/%d pages\n", done, total);
}

static void print_problem(void *arg, const char *problem)
{
	fprintf(arg, "%s\n", problem);
}

/* perflabd backup FILE: a consistent copy while perflabd serves. */
static int cmd_backup(int argc, char **argv, const char *path)
{
	struct db_backup_opts o = { .progress = backup_progress };
	const char *file = NULL;
	char err[1024];

	if (db_cmd_args(argc, argv, &path, &file, &o.pages_per_second) || !file)
		return usage(stderr), 2;
	if (db_backup_file(path, file, &o, err, sizeof(err))) {
		fprintf(stderr, "perflabd: %s\n", err);
		return 1;
	}
	printf("%s: backup of %s\n", file, path);
	return 0;
}

/* perflabd check [FILE]: integrity and foreign keys; 1 on any problem. */
static int cmd_check(int argc, char **argv, const char *path)
{
	const char *file = NULL;
	char err[1024];
	int n, v = 0;

	if (db_cmd_args(argc, argv, &path, &file, NULL))
		return usage(stderr), 2;
	if (file)
		path = file;
	n = db_check_path(path, 0, print_problem, stdout, &v, err, sizeof(err));
	if (n < 0) {
		fprintf(stderr, "perflabd: %s\n", err);
		return 1;
	}
	if (n > 0) {
		printf("%s: %d problem%s\n", path, n, n == 1 ? "" : "s");
		return 1;
	}
	printf("%s: ok (schema version %d, integrity and foreign keys)\n",
	       path, v);
	return 0;
}

/* perflabd restore BACKUP: over --db, which nobody may have open. */
static int cmd_restore(int argc, char **argv, const char *path)
{
	const char *file = NULL;
	char err[1024];

	if (db_cmd_args(argc, argv, &path, &file, NULL) || !file)
		return usage(stderr), 2;
	if (db_restore_file(file, path, err, sizeof(err))) {
		fprintf(stderr, "perflabd: %s\n", err);
		return 1;
	}
	printf("%s: restored from %s (perflabd migrates it when it starts)\n",
	       path, file);
	return 0;
}

static const struct {
	const char *name;
	int (*run)(int argc, char **argv, const char *path);
} subcommands[] = {
	{ "key", cmd_key },
	{ "migrate", cmd_migrate },
	{ "backup", cmd_backup },
	{ "check", cmd_check },
	{ "restore", cmd_restore },
};

/*
 * perflabd [--db FILE] key|migrate|backup|check|restore ...: of the
 * global options only --db
 * means something to a subcommand; the serving ones are refused rather
 * than ignored.
 */
static int subcommand(int argc, char **argv, const char *path,
		      const char *serving_opt)
{
	size_t i;

	for (i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		if (!strcmp(argv[0], subcommands[i].name))
			break;
	if (i == sizeof(subcommands) / sizeof(subcommands[0])) {
		fprintf(stderr, "perflabd: unknown command '%s'\n", argv[0]);
		return usage(stderr), 2;
	}
	if (serving_opt) {
		fprintf(stderr, "perflabd: --%s is for serving; '%s' takes only --db\n",
			serving_opt, argv[0]);
		return 2;
	}
	return subcommands[i].run(argc, argv, path);
}

/*
 * The SMTP password comes from a file (first line), never from the
 * command line, where every user of the machine could read it.
 */
static char *read_secret(const char *path)
{
	char line[1024];
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f) {
		fprintf(stderr, "perflabd: --smtp-password-file %s: %m\n", path);
		return NULL;
	}
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	n = strcspn(line, "\r\n");
	line[n] = '\0';
	if (!n) {
		fprintf(stderr, "perflabd: --smtp-password-file %s is empty\n",
			path);
		return NULL;
	}
	return strdup(line);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "listen", required_argument, NULL, 'l' },
		{ "db", required_argument, NULL, 'd' },
		{ "web", required_argument, NULL, 'w' },
		{ "lease-seconds", required_argument, NULL, 'L' },
		{ "max-attempts", required_argument, NULL, 'A' },
		{ "public-read", no_argument, NULL, 'P' },
		{ "port-file", required_argument, NULL, 'p' },
		{ "smtp-url", required_argument, NULL, 'S' },
		{ "smtp-from", required_argument, NULL, 'F' },
		{ "smtp-to", required_argument, NULL, 'T' },
		{ "smtp-user", required_argument, NULL, 'u' },
		{ "smtp-password-file", required_argument, NULL, 'W' },
		{ "public-url", required_argument, NULL, 'U' },
		{ "max-queued-runs", required_argument, NULL, 'Q' },
		{ "trusted-proxy", required_argument, NULL, 'X' },
		{ "git-dir", required_argument, NULL, 'G' },
		{ "track-poll", required_argument, NULL, 'K' },
		{ "image-dir", required_argument, NULL, 'I' },
		{ "image-max-bytes", required_argument, NULL, 'M' },
		{ "image-max-age", required_argument, NULL, 'a' },
		{ "image-builders", required_argument, NULL, 'B' },
		{ "lava-guest", required_argument, NULL, 'g' },
		{ "lava-url", required_argument, NULL, 'C' },
		{ "git-fetchers", required_argument, NULL, 'j' },
		{ "git-wait", required_argument, NULL, 'y' },
		{ "git-fetch-interval", required_argument, NULL, 'n' },
		{ "git-fetch-timeout", required_argument, NULL, 't' },
		{ "delivery-timeout", required_argument, NULL, 'D' },
		{ "retention-days", required_argument, NULL, 'r' },
		{ "reply-inbox", required_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct server_config cfg;
	static struct server srv;
	const char *serving_opt = NULL;
	sigset_t set;
	int c, i, sig;

	db_global_init();
	server_config_defaults(&cfg);
	/* "+": stop at the first word, which names a subcommand. */
	while ((c = getopt_long(argc, argv, "+", opts, &i)) != -1) {
		if (c != 'd' && c != 'h' && c != '?')
			serving_opt = opts[i].name;
		switch (c) {
		case 'l': cfg.listen = optarg; break;
		case 'd': cfg.db_path = optarg; break;
		case 'w': cfg.web_dir = optarg; break;
		case 'p': cfg.port_file = optarg; break;
		case 'P': cfg.public_read = true; break;
		case 'S': cfg.smtp_url = optarg; break;
		case 'F': cfg.smtp_from = optarg; break;
		case 'T': cfg.smtp_to = optarg; break;
		case 'u': cfg.smtp_user = optarg; break;
		case 'W':
			cfg.smtp_password = read_secret(optarg);
			if (!cfg.smtp_password)
				return 2;
			break;
		case 'U': cfg.public_url = optarg; break;
		case 'G': cfg.git_dir = optarg; break;
		case 'I': cfg.image_dir = optarg; break;
		case 'M': {
			char *end;

			cfg.image_max_bytes = strtoull(optarg, &end, 10);
			if (*end || cfg.image_max_bytes < 4096)
				return fprintf(stderr, "perflabd: bad --image-max-bytes"
					       " (bytes, at least 4096)\n"), 2;
			break;
		}
		case 'a': {
			int age;

			if (parse_int(optarg, 0, 86400 * 3650, &age))
				return fprintf(stderr, "perflabd: bad --image-max-age"
					       " (seconds)\n"), 2;
			cfg.image_max_age = age ? age : 1;
			break;
		}
		case 'B':
			if (strcmp(optarg, "any") && strcmp(optarg, "builders"))
				return fprintf(stderr, "perflabd: --image-builders is"
					       " any or builders\n"), 2;
			cfg.builders_only = !strcmp(optarg, "builders");
			break;
		case 'g': cfg.lava.guest_dir = optarg; break;
		case 'C':
			if (strncmp(optarg, "http://", 7) && strncmp(optarg, "https://", 8))
				return fprintf(stderr, "perflabd: bad --lava-url"
					       " (http:// or https://)\n"), 2;
			cfg.lava.url = optarg;
			break;
		case 'K':
			if (parse_int(optarg, 0, 86400 * 7, &cfg.track_poll))
				return fprintf(stderr, "perflabd: bad --track-poll"
					       " (seconds, 0 = no timer)\n"), 2;
			break;
		case 'j':
			if (parse_int(optarg, 1, WORKER_MAX_THREADS, &cfg.git_fetchers))
				return fprintf(stderr, "perflabd: bad --git-fetchers"
					       " (1-%d)\n", WORKER_MAX_THREADS), 2;
			break;
		case 'y':
			if (parse_int(optarg, 0, 3600, &cfg.git_wait))
				return fprintf(stderr, "perflabd: bad --git-wait"
					       " (seconds)\n"), 2;
			break;
		case 'n':
			if (parse_int(optarg, 0, 86400, &cfg.git_fetch_interval))
				return fprintf(stderr, "perflabd: bad"
					       " --git-fetch-interval (seconds)\n"), 2;
			break;
		case 't':
			if (parse_int(optarg, 1, 86400, &cfg.git_fetch_timeout))
				return fprintf(stderr, "perflabd: bad"
					       " --git-fetch-timeout (seconds)\n"), 2;
			break;
		case 'D':
			if (parse_int(optarg, 1, 3600, &cfg.delivery_timeout))
				return fprintf(stderr, "perflabd: bad"
					       " --delivery-timeout (seconds)\n"), 2;
			break;
		case 'r': {
			int days;

			if (parse_int(optarg, 0, 36500, &days))
				return fprintf(stderr, "perflabd: bad --retention-days"
					       " (days, 0 = keep every detail)\n"), 2;
			cfg.retention_s = (int64_t)days * 86400;
			break;
		}
		case 'R':
			if (optarg[0] != '/' || !watches_inbox_dir_ok(optarg))
				return fprintf(stderr, "perflabd: --reply-inbox: %s is not"
					       " a public-inbox directory (absolute;"
					       " public-inbox-init -V2 it first)\n",
					       optarg), 2;
			cfg.reply_inbox = optarg;
			break;
		case 'Q':
			if (parse_int(optarg, 0, 1000000, &cfg.max_queued_runs))
				return fprintf(stderr, "perflabd: bad --max-queued-runs"
					       " (0 = no quota)\n"), 2;
			break;
		case 'X':
			if (clientaddr_add_proxies(&cfg.proxies, optarg))
				return fprintf(stderr, "perflabd: bad --trusted-proxy"
					       " '%s' (IPv4/IPv6 addresses, at most"
					       " %d)\n", optarg,
					       CLIENTADDR_MAX_PROXIES), 2;
			break;
		case 'L':
			if (parse_int(optarg, 1, 86400, &cfg.lease_seconds))
				return fprintf(stderr, "perflabd: bad --lease-seconds\n"), 2;
			break;
		case 'A':
			if (parse_int(optarg, 1, 100, &cfg.max_attempts))
				return fprintf(stderr, "perflabd: bad --max-attempts\n"), 2;
			break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind < argc)
		return subcommand(argc - optind, argv + optind, cfg.db_path,
				  serving_opt);
	if (!cfg.smtp_user != !cfg.smtp_password) {
		fprintf(stderr, "perflabd: --smtp-user and --smtp-password-file go together\n");
		return 2;
	}
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (server_start(&srv, &cfg))
		return 1;
	fprintf(stderr, "perflabd: listening on port %d (db %s, schema %d)\n",
		srv.port, cfg.db_path, db_schema_version());
	sigwait(&set, &sig);
	fprintf(stderr, "perflabd: signal %d, stopping\n", sig);
	server_stop(&srv);
	return 0;
}
