// SPDX-License-Identifier: MIT
/*
 * perflab - command-line client of perflabd.
 *
 *   perflab [--server URL] [--key KEY] COMMAND [ARGS...]
 *
 * Global options may appear anywhere before a "--".  Exit codes: 0 ok,
 * 1 regression found, 2 usage, connection or HTTP error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/client.h"
#include "cli/calibrate.h"
#include "cli/commands.h"
#include "cli/config.h"
#include "cli/util.h"
#include "common/http_client.h"

struct globals {
	const char *server;
	const char *key;
	bool help;
	bool show_config;
};

static void usage(FILE *f)
{
	int i;

	fprintf(f,
		"usage: perflab [--server URL] [--key KEY] COMMAND [ARGS...]\n\n"
		"commands:\n");
	for (i = 0; i < cli_commands_count; i++)
		fprintf(f, "  %-10s %s\n      %s\n", cli_commands[i].name,
			cli_commands[i].usage, cli_commands[i].help);
	fprintf(f, "  %-10s %s\n      %s\n", cli_calibrate.name,
		cli_calibrate.usage, cli_calibrate.help);
	fprintf(f,
		"\nserver and key, highest precedence first: --server/--key,\n"
		"PERFLAB_URL/PERFLAB_KEY, the config file ($PERFLAB_CONFIG or\n"
		"~/.config/perflab/config: lines server=URL and key=KEY),\n"
		"default server " CLI_DEFAULT_SERVER ".\n"
		"'perflab config' prints what is in effect.\n\n"
		"exit status: 0 ok, 1 regression found, 2 usage/connection/HTTP error\n"
		"(watch: also an experiment or variant that failed)\n");
}

/* Take a global option out of argv; returns 1 if @i was one, -1 on error. */
static int take_global(int *argc, char **argv, int i, struct globals *g)
{
	static const char *const names[] = { "--server", "--key" };
	const char **dst[] = { &g->server, &g->key };
	size_t n, k;
	int used = 0;

	for (k = 0; k < 2 && !used; k++) {
		n = strlen(names[k]);
		if (!strcmp(argv[i], names[k])) {
			if (i + 1 >= *argc) {
				cli_usage_error("%s needs a value", names[k]);
				return -1;
			}
			*dst[k] = argv[i + 1];
			used = 2;
		} else if (!strncmp(argv[i], names[k], n) &&
			   argv[i][n] == '=') {
			*dst[k] = argv[i] + n + 1;
			used = 1;
		}
	}
	if (!used)
		return 0;
	memmove(&argv[i], &argv[i + used],
		(*argc - i - used + 1) * sizeof(*argv));
	*argc -= used;
	return 1;
}

static int parse_globals(int *argc, char **argv, struct globals *g)
{
	int i = 1, r;

	while (i < *argc) {
		if (!strcmp(argv[i], "--"))
			break;
		r = take_global(argc, argv, i, g);
		if (r < 0)
			return -1;
		if (r == 0)
			i++;
	}
	return 0;
}

static const struct cli_command *find_command(const char *name)
{
	int i;

	for (i = 0; i < cli_commands_count; i++)
		if (!strcmp(cli_commands[i].name, name))
			return &cli_commands[i];
	return NULL;
}

static int show_config(const struct cli_config *cfg)
{
	printf("server %s (from %s)\n", cfg->server, cfg->server_from);
	if (*cfg->key)
		printf("key    %.12s... (from %s)\n", cfg->key, cfg->key_from);
	else
		printf("key    none\n");
	return CLI_OK;
}

int main(int argc, char **argv)
{
	const struct cli_command *cmd;
	struct globals g = { 0 };
	struct cli_config cfg;
	struct client c = { 0 };
	char err[512];

	if (parse_globals(&argc, argv, &g))
		return CLI_ERROR;
	if (argc < 2)
		return cli_usage_error("missing command");
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return CLI_OK;
	}
	if (config_resolve(&cfg, g.server, g.key, err, sizeof(err))) {
		fprintf(stderr, "perflab: %s\n", err);
		return CLI_ERROR;
	}
	if (!strcmp(argv[1], "config"))
		return show_config(&cfg);
	cmd = find_command(argv[1]);
	if (!cmd && !strcmp(argv[1], cli_calibrate.name))
		cmd = &cli_calibrate;
	if (!cmd)
		return cli_usage_error("unknown command '%s'", argv[1]);
	if (http_client_global_init()) {
		fprintf(stderr, "perflab: libcurl initialisation failed\n");
		return CLI_ERROR;
	}
	c.server = cfg.server;
	c.key = cfg.key;
	c.timeout = 120;
	return cmd->fn(&c, argc - 1, argv + 1);
}
