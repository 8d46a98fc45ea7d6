// SPDX-License-Identifier: MIT
/*
 * perflab lava - the LAVA labs a label can be bound to (docs/api.md
 * "LAVA labs"): add one from its JSON definition, list them, disable one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/util.h"

static int lava_add(const struct client *c, const char *file)
{
	json_t *doc = NULL;
	char *buf;
	size_t len;
	int rc;

	if (cli_read_file(file, &buf, &len))
		return CLI_ERROR;
	rc = client_json(c, "POST", "/api/v1/lava/labs", "application/json", buf,
			 len, &doc, NULL);
	free(buf);
	if (rc)
		return CLI_ERROR;
	printf("lab %s (id %lld) drives label %s\n",
	       json_string_value(json_object_get(doc, "name")),
	       (long long)json_integer_value(json_object_get(doc, "id")),
	       json_string_value(json_object_get(doc, "label")));
	json_decref(doc);
	return CLI_OK;
}

static int lava_list(const struct client *c, int json)
{
	json_t *doc = NULL, *l;
	size_t i;

	if (client_json(c, "GET", "/api/v1/lava/labs", NULL, NULL, 0, &doc, NULL))
		return CLI_ERROR;
	if (json) {
		char *s = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);

		puts(s ? s : "");
		free(s);
		json_decref(doc);
		return CLI_OK;
	}
	printf("%-20s %-16s %-8s %-12s %-7s %s\n", "NAME", "LABEL", "ENABLED",
	       "DEVICE_TYPE", "JOBS", "URL");
	json_array_foreach(json_object_get(doc, "labs"), i, l)
		printf("%-20s %-16s %-8s %-12s %-7lld %s\n",
		       json_string_value(json_object_get(l, "name")),
		       json_string_value(json_object_get(l, "label")),
		       json_is_true(json_object_get(l, "enabled")) ? "yes" : "no",
		       json_string_value(json_object_get(l, "device_type")),
		       (long long)json_integer_value(json_object_get(l, "lava_jobs")),
		       json_string_value(json_object_get(l, "url")));
	json_decref(doc);
	return CLI_OK;
}

int cmd_lava(const struct client *c, int argc, char **argv)
{
	char path[200];
	json_t *doc = NULL;

	if (argc == 3 && !strcmp(argv[1], "add"))
		return lava_add(c, argv[2]);
	if (argc >= 2 && !strcmp(argv[1], "list") &&
	    (argc == 2 || (argc == 3 && !strcmp(argv[2], "--json"))))
		return lava_list(c, argc == 3);
	if (argc == 3 && !strcmp(argv[1], "remove")) {
		if (strlen(argv[2]) > 64 || strchr(argv[2], '/'))
			return cli_usage_error("lava remove: bad lab name '%s'", argv[2]);
		snprintf(path, sizeof(path), "/api/v1/lava/labs/%s", argv[2]);
		if (client_json(c, "DELETE", path, NULL, NULL, 0, &doc, NULL))
			return CLI_ERROR;
		printf("lab %s disabled\n", argv[2]);
		json_decref(doc);
		return CLI_OK;
	}
	return cli_usage_error("lava: add LAB.json | list [--json] | remove NAME");
}
