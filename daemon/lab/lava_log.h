/* SPDX-License-Identifier: MIT */
/*
 * lava_log: a LAVA job log (output.yaml; GET /api/v0.2/jobs/{id}/logs/,
 * or "log" of a notify callback with dataset all), one record a line:
 *
 *   - {"dt": "2023-01-10T10:19:40.312412", "lvl": "target", "msg": "..."}
 *
 * LAVA writes each record with PyYAML, flow style, every scalar double
 * quoted (lava_common/log.py: default_style='"', width=10**6), so a line
 * is a small YAML flow subset: double-quoted scalars with YAML's escapes,
 * flow mappings and sequences, and plain scalars. That subset is parsed
 * here into JSON values; nothing else of YAML is accepted. The log comes
 * from a lab and its guest (hostile): lines are bounded, depth is
 * bounded, a malformed line is counted and skipped.
 *
 * Levels used: "target" (the device's console, one line of output a
 * record; LAVA's console logger has dropped empty lines, "\r" and ESC and
 * turned every '"' into '\"', which target text undoes), "results" (msg
 * a mapping: definition, case, result, measurement, units, and for the
 * job's own "lava" suite error_type and error_msg), "error", "info".
 */
#ifndef PERFLAB_LAVA_LOG_H
#define PERFLAB_LAVA_LOG_H

#include <stddef.h>
#include <jansson.h>

#define LAVA_LOG_MAX_LINE (1u << 20)	/* LAVA cuts longer records */
#define LAVA_LOG_MAX_BYTES (256u << 20)

/* One record line (without its newline) -> the mapping, or NULL + err. */
json_t *lava_log_line(const char *line, size_t len, char *err, size_t errlen);

struct lava_log {
	char *target;		/* console text, "\n" after each line */
	size_t target_len;
	json_t *results;	/* array of "results" msg mappings */
	char *errors;		/* "error" records' text, one a line */
	double first_dt;	/* seconds (UTC) of the first record, 0 */
	double bench_dt;	/* of the first target line with the bench
				 * begin marker, 0 if none */
	double end_dt;		/* of the last record */
	size_t lines, bad_lines;
};

/*
 * Parse a whole log. 0, or -1 (over LAVA_LOG_MAX_BYTES, out of memory)
 * with err. Malformed lines are skipped (bad_lines).
 */
int lava_log_parse(const char *text, size_t len, struct lava_log *out,
		   char *err, size_t errlen);
void lava_log_free(struct lava_log *l);

#endif
