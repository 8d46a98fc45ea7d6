// SPDX-License-Identifier: MIT
/*
 * Series import parsing; see series_import.h.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "daemon/analysis/series_import.h"


/* UNIX seconds, or an ISO 8601 date / date-time (UTC). */
static int parse_time(const char *s, int64_t *out)
{
	struct tm tm = { 0 };
	const char *e;
	char *end;
	long long v = strtoll(s, &end, 10);

	if (end != s && (!*end || isspace((unsigned char)*end))) {
		*out = v;
		return 0;
	}
	e = strptime(s, "%Y-%m-%dT%H:%M:%S", &tm);
	if (!e) {
		memset(&tm, 0, sizeof(tm));
		e = strptime(s, "%Y-%m-%d", &tm);
	}
	if (!e || (*e && *e != 'Z' && !isspace((unsigned char)*e)))
		return -1;
	*out = (int64_t)timegm(&tm);
	return 0;
}

int series_parse_csv(const char *text, struct series_point_in **pts, size_t *n,
		     char *err, size_t errlen)
{
	const char *p = text;
	size_t line = 0, cap = 0;

	*n = 0;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char buf[512], *f[3] = { NULL }, *save = NULL, *end;
		int nf = 0;

		line++;
		if (len >= sizeof(buf)) {
			snprintf(err, errlen, "line %zu: too long", line);
			return -1;
		}
		memcpy(buf, p, len);
		buf[len] = '\0';
		p = nl ? nl + 1 : p + len;
		if (len && buf[len - 1] == '\r')
			buf[len - 1] = '\0';
		if (!buf[strspn(buf, " \t")])
			continue;
		for (char *t = strtok_r(buf, ",", &save); t && nf < 3;
		     t = strtok_r(NULL, ",", &save))
			f[nf++] = t + strspn(t, " \t");
		if (nf < 2) {
			snprintf(err, errlen, "line %zu: expected time,value[,label]", line);
			return -1;
		}
		if (*n == cap) {
			struct series_point_in *q;

			if (cap >= SERIES_MAX_POINTS) {
				snprintf(err, errlen, "too many points (max %d)", SERIES_MAX_POINTS);
				return -1;
			}
			cap = cap ? 2 * cap : 256;
			q = realloc(*pts, cap * sizeof(*q));
			if (!q) {
				snprintf(err, errlen, "out of memory");
				return -1;
			}
			*pts = q;
		}
		(*pts)[*n].v = strtod(f[1], &end);
		if (end == f[1] || !isfinite((*pts)[*n].v) ||
		    parse_time(f[0], &(*pts)[*n].t)) {
			if (line == 1 && *n == 0)
				continue;	/* a header line */
			snprintf(err, errlen, "line %zu: bad time or value", line);
			return -1;
		}
		snprintf((*pts)[*n].label, sizeof((*pts)[*n].label), "%s",
			 nf > 2 ? f[2] : "");
		(*n)++;
	}
	return 0;
}

int series_parse_json_points(json_t *arr, struct series_point_in **pts, size_t *n,
			     char *err, size_t errlen)
{
	json_t *e;
	size_t i;

	*n = 0;
	if (!json_is_array(arr) || json_array_size(arr) > SERIES_MAX_POINTS) {
		snprintf(err, errlen, "\"points\" must be an array of at most %d",
			 SERIES_MAX_POINTS);
		return -1;
	}
	*pts = calloc(json_array_size(arr) + 1, sizeof(**pts));
	if (!*pts)
		return -1;
	json_array_foreach(arr, i, e) {
		json_t *t = json_object_get(e, "time"), *v = json_object_get(e, "value");
		json_t *l = json_object_get(e, "label");
		struct series_point_in *p = &(*pts)[*n];

		if (!l)
			l = json_object_get(e, "commit");
		if (!json_is_number(v) || (l && !json_is_string(l)) ||
		    !(json_is_integer(t) || json_is_string(t))) {
			snprintf(err, errlen, "points[%zu]: needs time (UNIX seconds or ISO 8601), value (number), optional label", i);
			return -1;
		}
		if (json_is_integer(t))
			p->t = json_integer_value(t);
		else if (parse_time(json_string_value(t), &p->t)) {
			snprintf(err, errlen, "points[%zu]: bad time", i);
			return -1;
		}
		p->v = json_number_value(v);
		snprintf(p->label, sizeof(p->label), "%s", l ? json_string_value(l) : "");
		(*n)++;
	}
	return 0;
}
