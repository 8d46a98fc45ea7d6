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

static void usage(FILE *f)
{
	struct cli_flags g;
	struct opt_table t;
	int i;

	config_flags_table(&t, &g);
	fprintf(f,
		"usage: perflab [--server URL] [--key KEY] COMMAND [ARGS...]\n\n");
	opttab_usage(&t, f);
	fprintf(f, "\ncommands:\n");
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

/*
 * Take the global options out of argv, wherever they stand before a
 * "--"; the command's own options and words stay, in order, from
 * argv[1] on. -1 on a bad one (message printed).
 */
static int parse_globals(int *argc, char **argv, struct cli_flags *g)
{
	struct opt_table t;
	char err[256];
	int first;

	config_flags_table(&t, g);
	if (opttab_parse(&t, 1, *argc, argv, OPTTAB_KNOWN, &first, err,
			 sizeof(err))) {
		cli_usage_error("%s", err);
		return -1;
	}
	memmove(argv + 1, argv + first, (*argc - first + 1) * sizeof(*argv));
	*argc -= first - 1;
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
	struct cli_flags g = { 0 };
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
