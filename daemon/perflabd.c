// SPDX-License-Identifier: MIT
/*
 * perflabd: the perflab daemon.
 *
 *   perflabd [--listen ADDR:PORT] [--db FILE] [--web DIR] [--port-file FILE]
 *            [--lease-seconds N] [--max-attempts N] [--public-read]
 *            [--max-queued-runs N] [--trusted-proxy ADDR[,ADDR]]...
 *            [--smtp-url URL --smtp-from ADDR --smtp-to ADDR[,ADDR]
 *             [--smtp-user USER --smtp-password-file FILE]] [--public-url URL]
 *            [--git-dir DIR] [--track-poll SECONDS] [--git-fetchers N]
 *            [--git-wait SECONDS] [--git-fetch-interval SECONDS]
 *            [--git-fetch-timeout SECONDS] [--image-dir DIR]
 *            [--image-max-bytes N] [--image-max-age SECONDS]
 *            [--image-builders any|builders] [--lava-guest DIR]
 *            [--lava-url URL] [--delivery-timeout SECONDS]
 *            [--retention-days N] [--reply-inbox DIR] [--help]
 *   perflabd [--db FILE] key create|list|revoke ...
 *   perflabd [--db FILE] migrate
 *   perflabd [--db FILE] backup FILE [--pages-per-second N]
 *   perflabd [--db FILE] check [FILE]
 *   perflabd [--db FILE] restore BACKUP
 *
 * The serving options are one table, daemon/http/server_opts.c: it gives
 * their parsing, defaults and --help (tests/unit/opttab-tables holds this
 * comment to it). --db may stand before the subcommand, like every global
 * option, or after it; the subcommand's own --db wins.
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/http/server.h"
#include "daemon/http/server_opts.h"
#include "daemon/lab/apikeys.h"
#include "daemon/store/backup.h"
#include "daemon/store/db.h"

static void usage(FILE *f)
{
	struct server_config cfg;
	struct opt_table t;

	server_opts_table(&t, &cfg, NULL);
	fprintf(f,
		"usage: perflabd [OPTIONS]\n"
		"       perflabd [--db FILE] key create --role submit|admin|runner NAME\n"
		"       perflabd [--db FILE] key list\n"
		"       perflabd [--db FILE] key revoke NAME\n"
		"       perflabd [--db FILE] migrate\n"
		"       perflabd [--db FILE] backup FILE [--pages-per-second N]\n"
		"       perflabd [--db FILE] check [FILE]\n"
		"       perflabd [--db FILE] restore BACKUP\n"
		"       (the subcommands also take --db FILE after their words)\n\n");
	opttab_usage(&t, f);
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
 * The first option given that only serving reads (not --db or --help),
 * NULL when none: a subcommand refuses it rather than ignore it.
 */
static const char *serving_option(const struct opt_table *t)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->seen[i] && strcmp(t->defs[i].name, "db") &&
		    t->defs[i].kind != OPT_HELP)
			return t->defs[i].name;
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned char seen[64] = { 0 };
	struct server_config cfg;
	static struct server srv;
	struct opt_table t;
	char err[512];
	sigset_t set;
	int first, r, sig;

	db_global_init();
	server_config_defaults(&cfg);
	server_opts_table(&t, &cfg, seen);
	if (server_opts_count() > sizeof(seen) ||
	    opttab_defaults(&t, err, sizeof(err)))
		return fprintf(stderr, "perflabd: option table: %s\n", err), 1;
	/* OPTTAB_STOP: the first word names a subcommand. */
	r = opttab_parse(&t, 1, argc, argv, OPTTAB_STOP | OPTTAB_PREFIX, &first,
			 err, sizeof(err));
	if (r == OPTTAB_HELP)
		return usage(stdout), 0;
	if (r)
		return fprintf(stderr, "perflabd: %s (see --help)\n", err), 2;
	if (first < argc)
		return subcommand(argc - first, argv + first, cfg.db_path,
				  serving_option(&t));
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
