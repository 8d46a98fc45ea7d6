// SPDX-License-Identifier: MIT
/*
 * watches - the list watches of a lab (docs/api.md "List watches"):
 *
 *   perflab watches list [--json]
 *   perflab watches show ID [--json]    its series, their versions side
 *                                       by side, and the refusals
 */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/subcmd.h"
#include "cli/util.h"

static void render_list(json_t *doc)
{
	json_t *w;
	size_t i;

	printf("%5s  %-16s  %-10s  %4s  %6s  %8s  %s\n", "id", "name", "base",
	       "runs", "series", "messages", "query");
	json_array_foreach(subcmd_list(doc, "watches"), i, w)
		printf("%5lld  %-16s  %-10s  %4lld  %6lld  %8lld  %s\n",
		       (long long)json_integer_value(json_object_get(w, "id")),
		       subcmd_str(w, "name"), subcmd_str(w, "base"),
		       (long long)json_integer_value(json_object_get(w, "runs")),
		       (long long)json_integer_value(json_object_get(w, "nseries")),
		       (long long)json_integer_value(json_object_get(w, "nmessages")),
		       subcmd_str(w, "query"));
}

/* "vN" of the series, with "<- vM" when it follows the version before. */
static void render_series(json_t *s, json_t *all)
{
	json_t *prev = NULL, *p, *reply = json_object_get(s, "reply");
	char exp[24] = "-", ver[24];
	size_t i;

	json_array_foreach(all, i, p)
		if (json_equal(json_object_get(p, "id"), json_object_get(s, "previous_id")))
			prev = p;
	if (prev)
		snprintf(ver, sizeof(ver), "v%lld<-v%lld",
			 (long long)json_integer_value(json_object_get(s, "version")),
			 (long long)json_integer_value(json_object_get(prev, "version")));
	else
		snprintf(ver, sizeof(ver), "v%lld",
			 (long long)json_integer_value(json_object_get(s, "version")));
	if (json_is_integer(json_object_get(s, "experiment_id")))
		snprintf(exp, sizeof(exp), "%lld",
			 (long long)json_integer_value(json_object_get(s, "experiment_id")));
	printf("%5lld  %-8s  %2lld  %-9s  %5s  %-9s  %-11s  %s\n",
	       (long long)json_integer_value(json_object_get(s, "id")), ver,
	       (long long)json_integer_value(json_object_get(s, "total")),
	       subcmd_str(s, "state"), exp, reply ? subcmd_str(reply, "status") : "-",
	       subcmd_str(s, "base_how"), subcmd_str(s, "subject"));
	if (json_is_string(json_object_get(s, "reason")))
		printf("%7s%s\n", "", subcmd_str(s, "reason"));
	if (reply && json_is_string(json_object_get(reply, "note")))
		printf("%7sreply: %s\n", "", subcmd_str(reply, "note"));
}

static void render_watch(json_t *w)
{
	json_t *series = json_object_get(w, "series"), *s, *m;
	size_t i;

	printf("watch %lld  %s\n", (long long)json_integer_value(json_object_get(w, "id")),
	       subcmd_str(w, "name"));
	printf("  inbox   %s\n  query   %s\n  base    %s %s, as key %s\n",
	       subcmd_str(w, "inbox"), subcmd_str(w, "query"), subcmd_str(w, "base"),
	       subcmd_str(w, "ref"), subcmd_str(w, "submit_key"));
	if (json_is_string(json_object_get(w, "poll_error")))
		printf("  poll    failed: %s\n", subcmd_str(w, "poll_error"));
	printf("\n%5s  %-8s  %2s  %-9s  %5s  %-9s  %-11s  %s\n", "id", "version", "n",
	       "state", "exp", "reply", "base", "subject");
	json_array_foreach(series, i, s)
		render_series(s, series);
	printf("\nrefused messages (of the last read):\n");
	json_array_foreach(json_object_get(w, "log"), i, m)
		if (!strcmp(json_string_value(json_object_get(m, "kind")) ?: "", "refused"))
			printf("  %s: %s\n", subcmd_str(m, "message_id"),
			       subcmd_str(m, "reason"));
}

int cmd_watches(const struct client *c, int argc, char **argv)
{
	json_t *doc = NULL;
	bool json = false;
	int idx;

	if (argc < 2)
		return cli_usage_error("watches: list or show");
	if (!strcmp(argv[1], "list")) {
		for (int i = 2; i < argc; i++) {
			if (strcmp(argv[i], "--json"))
				return cli_usage_error("watches list: unexpected '%s'", argv[i]);
			json = true;
		}
		if (client_json(c, "GET", "/api/v1/watches", NULL, NULL, 0, &doc, NULL))
			return CLI_ERROR;
	} else if (!strcmp(argv[1], "show")) {
		idx = subcmd_id_arg(argc - 1, argv + 1, "watches show", &json);
		if (idx < 0)
			return CLI_ERROR;
		if (subcmd_get_one(c, "/api/v1/watches/%lld", argv[idx + 1], "watch", &doc))
			return CLI_ERROR;
	} else {
		return cli_usage_error("watches: unknown sub-command '%s' (list, show)",
				       argv[1]);
	}
	if (json)
		subcmd_print_json(doc);
	else if (!strcmp(argv[1], "list"))
		render_list(doc);
	else
		render_watch(doc);
	json_decref(doc);
	return CLI_OK;
}
