/* SPDX-License-Identifier: MIT */
/*
 * render - text output of API answers: the experiment summary, the
 * LKP-style verdict table, compare results, alerts and hosts.
 *
 * Field lookups accept alternatives ("a|b.c": the first that exists), so
 * the output degrades gracefully when an answer lacks a field.
 */
#ifndef PERFLAB_CLI_RENDER_H
#define PERFLAB_CLI_RENDER_H

#include <stdbool.h>
#include <stdio.h>
#include <jansson.h>

/* First of the '|'-separated, '.'-dotted @paths present in @o, or NULL. */
json_t *render_get(json_t *o, const char *paths);
/* Number (integer or real) at @paths, or NAN. */
double render_num(json_t *o, const char *paths);
/* String at @paths, or @def. */
const char *render_str(json_t *o, const char *paths, const char *def);

/* "experiment N submitted: URL" (relative URLs joined to @server). */
void render_submitted(FILE *f, const char *server, json_t *doc, bool quiet);
void render_experiment(FILE *f, json_t *exp);
/* Only the verdict part (LKP table + one verdict line per variant). */
void render_verdicts(FILE *f, json_t *exp);
void render_compare(FILE *f, json_t *doc);
void render_alerts(FILE *f, json_t *doc);
void render_hosts(FILE *f, json_t *doc);
/* GET /api/v1/failure-reasons as a table. */
void render_failure_reasons(FILE *f, json_t *doc);
/*
 * The failure reason table (GET /api/v1/failure-reasons, borrowed until
 * the next call; NULL: none) that render_experiment explains a failed
 * variant's reason from.
 */
void render_set_failure_reasons(json_t *doc);

/* The comparison array of an experiment or compare answer, or NULL. */
json_t *render_comparisons(json_t *doc);
/* True if any comparison in @doc has the verdict "regression". */
bool render_has_regression(json_t *doc);

#endif /* PERFLAB_CLI_RENDER_H */
