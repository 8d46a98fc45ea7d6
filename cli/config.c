// SPDX-License-Identifier: MIT
/*
 * config - server URL and API key for the CLI (flags, env, config file).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/config.h"

static const struct opt_def flag_defs[] = {
	{ .name = "server", .kind = OPT_STR,
	  .off = offsetof(struct cli_flags, server), .arg = "URL",
	  .dflt = CLI_DEFAULT_SERVER, .flags = OPT_DOC_DEFAULT,
	  .help = "perflabd's URL (or PERFLAB_URL, config server=URL)" },
	{ .name = "key", .kind = OPT_STR,
	  .off = offsetof(struct cli_flags, key), .arg = "KEY",
	  .help = "API key (or PERFLAB_KEY, config key=KEY)" },
};

#define NFLAGS (sizeof(flag_defs) / sizeof(flag_defs[0]))

void config_flags_table(struct opt_table *t, struct cli_flags *f)
{
	*t = (struct opt_table){ "global options (anywhere before \"--\"):",
				 flag_defs, NFLAGS, f, NULL };
}

/* "unknown setting 'x' (server, url, key)": the names from the table. */
static int unknown_setting(const char *path, int lineno, const char *name,
			   char *err, size_t errlen)
{
	int n = snprintf(err, errlen, "%s:%d: unknown setting '%s' (", path,
			 lineno, name);

	for (size_t i = 0; i < NFLAGS && n > 0 && (size_t)n < errlen; i++)
		n += snprintf(err + n, errlen - n, "%s%s", i ? ", " : "",
			      flag_defs[i].name);
	if (n > 0 && (size_t)n < errlen)
		snprintf(err + n, errlen - n, ", url)");
	return -1;
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' ||
			 e[-1] == '\r'))
		*--e = '\0';
	return s;
}

static int set_value(char *dst, const char *val, const char *what, char *err,
		     size_t errlen)
{
	if (strlen(val) >= CLI_CONFIG_VALUE_MAX) {
		snprintf(err, errlen, "%s is too long (max %d bytes)", what,
			 CLI_CONFIG_VALUE_MAX - 1);
		return -1;
	}
	strcpy(dst, val);
	return 0;
}

static int parse_line(char *line, int lineno, const char *path, char *server,
		      char *key, char *err, size_t errlen)
{
	char *eq, *name, *val;

	line = trim(line);
	if (!*line || *line == '#')
		return 0;
	eq = strchr(line, '=');
	if (!eq) {
		snprintf(err, errlen, "%s:%d: expected key=value", path,
			 lineno);
		return -1;
	}
	*eq = '\0';
	name = trim(line);
	val = trim(eq + 1);
	if (!strcmp(name, "url"))
		name = "server";
	if (!opttab_find(&(struct opt_table){ .defs = flag_defs,
					      .n = NFLAGS }, name))
		return unknown_setting(path, lineno, name, err, errlen);
	return set_value(!strcmp(name, "server") ? server : key, val, name,
			 err, errlen);
}

int config_read_file(const char *path, char *server, char *key, char *err,
		     size_t errlen)
{
	char line[CLI_CONFIG_VALUE_MAX + 64];
	int lineno = 0, ret = 0;
	FILE *f;

	f = fopen(path, "r");
	if (!f) {
		if (errno == ENOENT)
			return 1;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (!strchr(line, '\n') && !feof(f)) {
			snprintf(err, errlen, "%s:%d: line too long", path,
				 lineno);
			ret = -1;
			break;
		}
		ret = parse_line(line, lineno, path, server, key, err, errlen);
		if (ret)
			break;
	}
	fclose(f);
	return ret;
}

static int config_path(char *buf, size_t len)
{
	const char *p = getenv("PERFLAB_CONFIG");
	int n;

	if (p && *p)
		n = snprintf(buf, len, "%s", p);
	else if ((p = getenv("XDG_CONFIG_HOME")) && *p)
		n = snprintf(buf, len, "%s/perflab/config", p);
	else if ((p = getenv("HOME")) && *p)
		n = snprintf(buf, len, "%s/.config/perflab/config", p);
	else
		return -1;
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

int config_resolve(struct cli_config *cfg, const char *flag_server,
		   const char *flag_key, char *err, size_t errlen)
{
	char fserver[CLI_CONFIG_VALUE_MAX] = "", fkey[CLI_CONFIG_VALUE_MAX] = "";
	const char *env_server = getenv("PERFLAB_URL");
	const char *env_key = getenv("PERFLAB_KEY");
	char path[4096];

	memset(cfg, 0, sizeof(*cfg));
	if (config_path(path, sizeof(path)) == 0 &&
	    config_read_file(path, fserver, fkey, err, errlen) < 0)
		return -1;

	if (flag_server) {
		cfg->server_from = "flag";
	} else if (env_server && *env_server) {
		flag_server = env_server;
		cfg->server_from = "env";
	} else if (*fserver) {
		flag_server = fserver;
		cfg->server_from = "file";
	} else {
		flag_server = CLI_DEFAULT_SERVER;
		cfg->server_from = "default";
	}
	if (set_value(cfg->server, flag_server, "server", err, errlen))
		return -1;

	if (flag_key) {
		cfg->key_from = "flag";
	} else if (env_key && *env_key) {
		flag_key = env_key;
		cfg->key_from = "env";
	} else if (*fkey) {
		flag_key = fkey;
		cfg->key_from = "file";
	} else {
		flag_key = "";
		cfg->key_from = "none";
	}
	if (set_value(cfg->key, flag_key, "key", err, errlen))
		return -1;
	if (strncmp(cfg->server, "http://", 7) &&
	    strncmp(cfg->server, "https://", 8)) {
		snprintf(err, errlen,
			 "server '%s' (from %s) must start with http:// or https://",
			 cfg->server, cfg->server_from);
		return -1;
	}
	return 0;
}
