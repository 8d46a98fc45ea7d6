/* SPDX-License-Identifier: MIT */
/*
 * commands - the `perflab` sub-commands.  Each gets the connected client
 * and its own argv (argv[0] is the command name) and returns an exit code
 * (CLI_OK, CLI_REGRESSION, CLI_ERROR from cli/util.h).
 */
#ifndef PERFLAB_CLI_COMMANDS_H
#define PERFLAB_CLI_COMMANDS_H

#include "cli/client.h"

typedef int (*cli_command_fn)(const struct client *c, int argc, char **argv);

struct cli_command {
	const char *name;
	cli_command_fn fn;
	const char *usage;	/* arguments, after the command name */
	const char *help;	/* one line */
};

extern const struct cli_command cli_commands[];
extern const int cli_commands_count;

int cmd_submit(const struct client *c, int argc, char **argv);
int cmd_run(const struct client *c, int argc, char **argv);
int cmd_show(const struct client *c, int argc, char **argv);
int cmd_watch(const struct client *c, int argc, char **argv);
int cmd_perf_diff(const struct client *c, int argc, char **argv);
int cmd_compare(const struct client *c, int argc, char **argv);
int cmd_cancel(const struct client *c, int argc, char **argv);
int cmd_alerts(const struct client *c, int argc, char **argv);
int cmd_hosts(const struct client *c, int argc, char **argv);
int cmd_failure_reasons(const struct client *c, int argc, char **argv);
int cmd_track(const struct client *c, int argc, char **argv);
int cmd_watches(const struct client *c, int argc, char **argv);
int cmd_bisect(const struct client *c, int argc, char **argv);
int cmd_lava(const struct client *c, int argc, char **argv);

#endif /* PERFLAB_CLI_COMMANDS_H */
