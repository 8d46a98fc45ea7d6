// SPDX-License-Identifier: MIT
/*
 * Helpers of the "list | show ID" commands; see subcmd.h.
 */
#include <stdio.h>
#include <string.h>

#include "cli/subcmd.h"
#include "cli/util.h"

void subcmd_print_json(json_t *doc)
{
	json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_SORT_KEYS);
	putchar('\n');
}

/* "-" for a missing number, else @fmt. */
const char *subcmd_num(char *buf, size_t n, json_t *o, const char *key,
		       const char *fmt)
{
	json_t *v = json_object_get(o, key);

	if (json_is_number(v))
		snprintf(buf, n, fmt, json_number_value(v));
	else
		snprintf(buf, n, "-");
	return buf;
}

/*
 * A string of the answer for the terminal: control characters (escape
 * sequences in a commit subject) as '?'. Rotating buffers: up to 8 may be
 * used in one printf.
 */
const char *subcmd_str(json_t *o, const char *key)
{
	static char buf[8][512];
	static int next;
	const char *s = json_string_value(json_object_get(o, key));
	char *d = buf[next++ % 8];
	size_t i;

	if (!s)
		return "-";
	for (i = 0; s[i] && i < sizeof(buf[0]) - 1; i++)
		d[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i];
	d[i] = '\0';
	return d;
}

/* A list answer may be the array itself or {"<name>": [...]}. */
json_t *subcmd_list(json_t *doc, const char *name)
{
	return json_is_array(doc) ? doc : json_object_get(doc, name);
}

/* GET @fmt with @id; the usage error for a bad id names @what. */
int subcmd_get_one(const struct client *c, const char *fmt, const char *arg,
		   const char *what, json_t **doc)
{
	long long id = cli_parse_id(arg);
	char path[128];

	if (id < 0)
		return cli_usage_error("'%s' is not a %s id", arg, what);
	snprintf(path, sizeof(path), fmt, id);
	return client_json(c, "GET", path, NULL, NULL, 0, doc, NULL) ?
		       CLI_ERROR : CLI_OK;
}

/* "[--json] ID": the index of ID or -1 after a usage message. */
int subcmd_id_arg(int argc, char **argv, const char *cmd, bool *json)
{
	int i, idx = -1;

	*json = false;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			*json = true;
		else if (argv[i][0] == '-' && argv[i][1])
			return cli_usage_error("%s: bad option '%s'", cmd, argv[i]), -1;
		else if (idx < 0)
			idx = i;
		else
			return cli_usage_error("%s: expected one id", cmd), -1;
	}
	if (idx < 0)
		cli_usage_error("%s: expected one id", cmd);
	return idx;
}
