/* SPDX-License-Identifier: MIT */
/*
 * config - where the CLI finds the server URL and the API key.
 *
 * Precedence, highest first: --server/--key flags, PERFLAB_URL/PERFLAB_KEY
 * in the environment, the config file ($PERFLAB_CONFIG, else
 * $XDG_CONFIG_HOME/perflab/config, else ~/.config/perflab/config: key=value
 * lines "server=URL" (or "url=URL") and "key=KEY", '#' comments), and
 * finally the default server http://127.0.0.1:8080 with no key.
 */
#ifndef PERFLAB_CLI_CONFIG_H
#define PERFLAB_CLI_CONFIG_H

#include <stddef.h>

#include "common/opttab.h"

#define CLI_DEFAULT_SERVER "http://127.0.0.1:8080"
#define CLI_CONFIG_VALUE_MAX 1024

struct cli_config {
	char server[CLI_CONFIG_VALUE_MAX];
	char key[CLI_CONFIG_VALUE_MAX];
	const char *server_from;	/* "flag", "env", "file", "default" */
	const char *key_from;		/* same, or "none" */
};

/* perflab's global options, the flags of the settings above. */
struct cli_flags {
	const char *server;
	const char *key;
};

/*
 * Their table (common/opttab.h) over @f: the flags, their usage, and the
 * names a config file line may set ("url" is the file's old name of
 * server).
 */
void config_flags_table(struct opt_table *t, struct cli_flags *f);

/*
 * Fill @cfg.  @flag_server/@flag_key are the command-line values or NULL.
 * Returns 0, or -1 with a message in @err (unreadable or malformed config
 * file, value too long).
 */
int config_resolve(struct cli_config *cfg, const char *flag_server,
		   const char *flag_key, char *err, size_t errlen);

/*
 * Parse one config file into @server/@key (each CLI_CONFIG_VALUE_MAX,
 * left untouched when absent).  A missing file is not an error (returns
 * 1); 0 when read; -1 on error with @err filled.
 */
int config_read_file(const char *path, char *server, char *key, char *err,
		     size_t errlen);

#endif /* PERFLAB_CLI_CONFIG_H */
