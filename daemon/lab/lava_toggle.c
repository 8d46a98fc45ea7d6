// SPDX-License-Identifier: MIT
/*
 * lava_toggle: the test step of a toggle boot and its runs back from the
 * console; see lava_toggle.h.
 */
#include "daemon/lab/lava_toggle.h"
#include "common/guest_markers.h"
#include "common/rtsetting.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *lava_toggle_command(const json_t *runs, const char *target,
			  const char *flags, char *err, size_t errlen)
{
	const json_t *r, *v;
	const char *path;
	char *buf = NULL;
	size_t i, len = 0;
	FILE *f;

	if (!json_array_size(runs) || json_array_size(runs) > LAVA_TOGGLE_MAX_RUNS) {
		snprintf(err, errlen, "a toggle boot on a LAVA lab has 1-%d runs",
			 LAVA_TOGGLE_MAX_RUNS);
		return NULL;
	}
	f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	json_array_foreach(runs, i, r) {
		const json_t *set = json_object_get(json_object_get(r, "variant"),
						    "settings");

		fprintf(f, "%s/bin/perflab-lava-bench --run %lld %zu", i ? " && " : "",
			(long long)json_integer_value(json_object_get(r, "job_id")), i);
		/* Checked at submission; again here, as they reach a shell. */
		json_object_foreach((json_t *)set, path, v) {
			const char *val = json_string_value(v);

			if (rtsetting_path_check(path, err, errlen) || !val ||
			    rtsetting_value_check(val, err, errlen)) {
				if (!val)
					snprintf(err, errlen, "%s: not a string", path);
				fclose(f);
				free(buf);
				return NULL;
			}
			fprintf(f, " --set %s %s", path, val);
		}
		fprintf(f, " %s %s", target, flags);
	}
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* The next "MARKER job=" at or after @from, or NULL. */
static const char *next_marker(const char *text, size_t len, size_t from,
			       const char *marker)
{
	char pat[64];

	snprintf(pat, sizeof(pat), "%s job=", marker);
	return from < len ? memmem(text + from, len - from, pat, strlen(pat))
			  : NULL;
}

static const char *line_end(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', end - p);

	return nl ? nl + 1 : end;
}

/* SERIAL_RUN_END or SERIAL_REFUSED of job @job in [p, end), or NULL. */
static const char *job_line(const char *p, const char *end, const char *marker,
			    int64_t job)
{
	const char *hit;
	long long n;

	while ((hit = next_marker(p, end - p, 0, marker))) {
		if (sscanf(hit + strlen(marker), " job=%lld", &n) == 1 && n == job)
			return hit;
		p = line_end(hit, end);
	}
	return NULL;
}

static void refused_words(const char *r, const char *end, struct lava_frame *fr)
{
	const char *e = memchr(r, '\n', end - r);
	int n;

	r += strlen(SERIAL_REFUSED);
	r += strspn(r, " ");
	r += strcspn(r, " \n");	/* job=N */
	r += strspn(r, " ");
	if (!e)
		e = end;
	while (e > r && (e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\n'))
		e--;
	n = (int)(e - r);
	snprintf(fr->refused, sizeof(fr->refused), "%.*s", n > 0 ? n : 0, r);
	if (!fr->refused[0])
		snprintf(fr->refused, sizeof(fr->refused), "(no reason given)");
}

int lava_toggle_frames(const char *text, size_t len, struct lava_frame *out,
		       int max)
{
	const char *end = text + len, *p, *next, *stop, *hit;
	int n = 0;

	for (p = next_marker(text, len, 0, SERIAL_RUN); p && n < max; p = next) {
		struct lava_frame *fr = &out[n];
		long long job;

		memset(fr, 0, sizeof(*fr));
		next = next_marker(text, len, line_end(p, end) - text, SERIAL_RUN);
		if (sscanf(p + strlen(SERIAL_RUN), " job=%lld pos=%d boot=%64s",
			   &job, &fr->pos, fr->boot_id) < 2 || job <= 0)
			continue;
		fr->job_id = job;
		stop = next ? next : end;
		hit = job_line(p, stop, SERIAL_RUN_END, job);
		fr->complete = hit != NULL;
		if (hit)
			stop = line_end(hit, end);
		fr->off = (size_t)(p - text);
		fr->len = (size_t)(stop - p);
		hit = job_line(p, stop, SERIAL_REFUSED, job);
		if (hit)
			refused_words(hit, stop, fr);
		n++;
	}
	return n;
}
