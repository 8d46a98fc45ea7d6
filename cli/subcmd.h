/* SPDX-License-Identifier: MIT */
/*
 * subcmd - what the "list | show ID" commands share (track, bisect,
 * watches): JSON output, strings and numbers of an answer made safe for
 * the terminal, the list of an answer, one id argument, GET of one.
 */
#ifndef PERFLAB_CLI_SUBCMD_H
#define PERFLAB_CLI_SUBCMD_H

#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>

#include "cli/client.h"

/* @doc indented, keys sorted, and a newline. */
void subcmd_print_json(json_t *doc);
/* "-" for a missing number, else @fmt of it, in @buf. */
const char *subcmd_num(char *buf, size_t n, json_t *o, const char *key,
		       const char *fmt);
/*
 * A string of the answer for the terminal: control characters (escape
 * sequences in a commit subject or a mail) as '?', "-" when missing.
 * Rotating buffers: up to 8 may be used in one printf.
 */
const char *subcmd_str(json_t *o, const char *key);
/* A list answer may be the array itself or {"<name>": [...]}. */
json_t *subcmd_list(json_t *doc, const char *name);
/* "[--json] ID": the index of ID in @argv, or -1 after a usage message. */
int subcmd_id_arg(int argc, char **argv, const char *cmd, bool *json);
/* GET @fmt with the id @arg; the usage error for a bad id names @what. */
int subcmd_get_one(const struct client *c, const char *fmt, const char *arg,
		   const char *what, json_t **doc);

#endif
