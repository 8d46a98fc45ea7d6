/* SPDX-License-Identifier: MIT */
/*
 * series - load an experiment definition (a file in kernel-patches/series/)
 * and turn it into the body of POST /api/v1/experiments.
 *
 * A definition is the API body with one convenience: an entry of a
 * variant's "patches" may be a file path (repo-relative, e.g.
 * "kernel-patches/0001-foo.patch"); it is replaced by the file's raw
 * text.  Relative paths are tried against the current directory, then
 * against the series file's directory and each of its parents, so
 * `perflab run` works from anywhere inside the repository.  Entries that
 * already are patch text (they contain a newline) or numbers (patch ids)
 * are passed through.
 *
 * A file may also hold several experiments, {"experiments": [BODY, ...]}
 * (seed-001.json: one question asked with two designs); `perflab run`
 * submits each in order.
 */
#ifndef PERFLAB_CLI_SERIES_H
#define PERFLAB_CLI_SERIES_H

#include <stddef.h>
#include <jansson.h>

/*
 * Read @path and inline its patch files.  Returns the body (caller
 * decrefs), or NULL with a reason in @err.
 */
json_t *series_load(const char *path, char *err, size_t errlen);

/* Find @rel as described above; fills @out.  Returns 0 or -1. */
int series_resolve(const char *series_path, const char *rel, char *out,
		   size_t outlen);

#endif /* PERFLAB_CLI_SERIES_H */
