// SPDX-License-Identifier: MIT
/*
 * lava_log: LAVA's one-record-a-line YAML job log -> console text,
 * results and errors.
 */
#include "daemon/lab/lava_log.h"
#include "common/guest_markers.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_DEPTH 16

struct cur {
	const char *p, *end;
	char *err;
	size_t errlen;
	int depth;
};

static void *bad(struct cur *c, const char *fmt, ...)
{
	va_list ap;

	if (c->err && !*c->err) {
		va_start(ap, fmt);
		vsnprintf(c->err, c->errlen, fmt, ap);
		va_end(ap);
	}
	return NULL;
}

static void ws(struct cur *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t'))
		c->p++;
}

struct buf {
	char *s;
	size_t len, cap;
};

static int put(struct buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = (b->len + n + 1) * 2;
		char *ns = realloc(b->s, cap);

		if (!ns)
			return -1;
		b->s = ns;
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = 0;
	return 0;
}

/* Code point -> UTF-8; lone surrogates and > U+10FFFF become U+FFFD. */
static int put_cp(struct buf *b, uint32_t cp)
{
	char u[4];
	size_t n;

	if ((cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		cp = 0xfffd;
	if (cp < 0x80) {
		u[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		u[0] = (char)(0xc0 | cp >> 6);
		u[1] = (char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		u[0] = (char)(0xe0 | cp >> 12);
		u[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		u[2] = (char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		u[0] = (char)(0xf0 | cp >> 18);
		u[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
		u[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
		u[3] = (char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	return put(b, u, n);
}

static int hexval(struct cur *c, int digits, uint32_t *out)
{
	uint32_t v = 0;

	if (c->end - c->p < digits)
		return -1;
	for (int i = 0; i < digits; i++) {
		char ch = c->p[i];

		v <<= 4;
		if (ch >= '0' && ch <= '9')
			v |= (uint32_t)(ch - '0');
		else if (ch >= 'a' && ch <= 'f')
			v |= (uint32_t)(ch - 'a' + 10);
		else if (ch >= 'A' && ch <= 'F')
			v |= (uint32_t)(ch - 'A' + 10);
		else
			return -1;
	}
	c->p += digits;
	*out = v;
	return 0;
}

/* YAML 1.1 double-quoted escapes (PyYAML's emitter writes these). */
static int dq_escape(struct cur *c, struct buf *b)
{
	static const char simple[] = "0\0a\ab\bt\tn\nv\vf\fr\re\033 \040\"\"/"
				     "/\\\\";
	uint32_t cp;
	char e;

	if (c->p >= c->end)
		return -1;
	e = *c->p++;
	if (e == '\t')
		return put(b, "\t", 1);
	for (size_t i = 0; i + 1 < sizeof(simple); i += 2)
		if (simple[i] == e)
			return put(b, &simple[i + 1], 1);
	switch (e) {
	case 'N': return put_cp(b, 0x85);
	case '_': return put_cp(b, 0xa0);
	case 'L': return put_cp(b, 0x2028);
	case 'P': return put_cp(b, 0x2029);
	case 'x': return hexval(c, 2, &cp) ? -1 : put_cp(b, cp);
	case 'u': return hexval(c, 4, &cp) ? -1 : put_cp(b, cp);
	case 'U': return hexval(c, 8, &cp) ? -1 : put_cp(b, cp);
	}
	return -1;
}

static json_t *dq_string(struct cur *c)
{
	struct buf b = { 0 };
	json_t *s;

	c->p++;			/* opening quote */
	if (put(&b, "", 0))
		return NULL;
	while (c->p < c->end && *c->p != '"') {
		if (*c->p == '\\') {
			c->p++;
			if (dq_escape(c, &b)) {
				free(b.s);
				return bad(c, "bad escape in a quoted scalar");
			}
			continue;
		}
		if (put(&b, c->p, 1)) {
			free(b.s);
			return NULL;
		}
		c->p++;
	}
	if (c->p >= c->end) {
		free(b.s);
		return bad(c, "unterminated quoted scalar");
	}
	c->p++;
	s = json_stringn_nocheck(b.s, b.len);
	free(b.s);
	return s;
}

static json_t *sq_string(struct cur *c)
{
	struct buf b = { 0 };
	json_t *s;

	c->p++;
	if (put(&b, "", 0))
		return NULL;
	for (;;) {
		if (c->p >= c->end) {
			free(b.s);
			return bad(c, "unterminated quoted scalar");
		}
		if (*c->p == '\'') {
			if (c->p + 1 < c->end && c->p[1] == '\'') {
				c->p += 2;
				if (put(&b, "'", 1))
					goto oom;
				continue;
			}
			c->p++;
			break;
		}
		if (put(&b, c->p++, 1))
			goto oom;
	}
	s = json_stringn_nocheck(b.s, b.len);
	free(b.s);
	return s;
oom:
	free(b.s);
	return NULL;
}

static json_t *value(struct cur *c);

/* YAML's implicit types of a scalar's text (null, bool, int, float). */
static json_t *resolve(const char *s, size_t n)
{
	char tmp[64], *e;
	double d;
	long long ll;

	if (n && n < sizeof(tmp) && !memchr(s, 0, n)) {
		memcpy(tmp, s, n);
		tmp[n] = 0;
		if (!strcmp(tmp, "null") || !strcmp(tmp, "~"))
			return json_null();
		if (!strcmp(tmp, "true"))
			return json_true();
		if (!strcmp(tmp, "false"))
			return json_false();
		ll = strtoll(tmp, &e, 10);
		if (!*e)
			return json_integer(ll);
		d = strtod(tmp, &e);
		if (!*e && (tmp[0] == '-' || tmp[0] == '+' || tmp[0] == '.' ||
			    (tmp[0] >= '0' && tmp[0] <= '9')))
			return json_real(d);
	}
	return json_stringn_nocheck(s, n);
}

/* A plain scalar in flow context: up to , ] } or ": ". */
static json_t *plain(struct cur *c)
{
	const char *s = c->p;
	size_t n;

	while (c->p < c->end && *c->p != ',' && *c->p != ']' && *c->p != '}' &&
	       !(*c->p == ':' && (c->p + 1 == c->end || c->p[1] == ' ')))
		c->p++;
	n = (size_t)(c->p - s);
	while (n && s[n - 1] == ' ')
		n--;
	if (!n)
		return bad(c, "empty plain scalar");
	return resolve(s, n);
}

/*
 * "! "5"": the non-specific tag; PyYAML (LAVA's emitter writes it for
 * every number, null and boolean) resolves the text as a plain scalar.
 */
static json_t *nonspecific(struct cur *c)
{
	json_t *v, *r;

	c->p++;
	ws(c);
	v = value(c);
	if (!v || !json_is_string(v))
		return v;
	r = resolve(json_string_value(v), json_string_length(v));
	json_decref(v);
	return r;
}

/* "!!int "5"" and friends: the tag says how to read the scalar. */
static json_t *tagged(struct cur *c)
{
	const char *t = c->p + 2, *e = t;
	json_t *v, *r = NULL;
	const char *s;

	while (e < c->end && *e >= 'a' && *e <= 'z')
		e++;
	c->p = e;
	ws(c);
	v = value(c);
	if (!v || !json_is_string(v))
		return v;
	s = json_string_value(v);
	if ((size_t)(e - t) == 3 && !strncmp(t, "int", 3))
		r = json_integer(strtoll(s, NULL, 10));
	else if ((size_t)(e - t) == 5 && !strncmp(t, "float", 5))
		r = json_real(strtod(s, NULL));
	else if ((size_t)(e - t) == 4 && !strncmp(t, "bool", 4))
		r = json_boolean(!strcmp(s, "true"));
	else if ((size_t)(e - t) == 4 && !strncmp(t, "null", 4))
		r = json_null();
	if (!r)
		return v;
	json_decref(v);
	return r;
}

static json_t *flow(struct cur *c, char close)
{
	json_t *o = close == '}' ? json_object() : json_array();
	json_t *k, *v;

	if (++c->depth > MAX_DEPTH) {
		json_decref(o);
		return bad(c, "nested deeper than %d", MAX_DEPTH);
	}
	c->p++;
	for (;;) {
		ws(c);
		if (c->p < c->end && *c->p == close) {
			c->p++;
			break;
		}
		if (close == '}') {
			k = value(c);
			if (!k || !json_is_string(k)) {
				json_decref(k);
				goto fail;
			}
			ws(c);
			if (c->p >= c->end || *c->p != ':') {
				json_decref(k);
				bad(c, "expected ':' in a mapping");
				goto fail;
			}
			c->p++;
			ws(c);
			v = value(c);
			if (!v || json_object_set_new_nocheck(o,
						json_string_value(k), v)) {
				json_decref(k);
				goto fail;
			}
			json_decref(k);
		} else {
			v = value(c);
			if (!v || json_array_append_new(o, v))
				goto fail;
		}
		ws(c);
		if (c->p < c->end && *c->p == ',') {
			c->p++;
			continue;
		}
		if (c->p < c->end && *c->p == close) {
			c->p++;
			break;
		}
		bad(c, "expected ',' or '%c'", close);
		goto fail;
	}
	c->depth--;
	return o;
fail:
	json_decref(o);
	return NULL;
}

static json_t *value(struct cur *c)
{
	ws(c);
	if (c->p >= c->end)
		return bad(c, "value expected");
	switch (*c->p) {
	case '"': return dq_string(c);
	case '\'': return sq_string(c);
	case '{': return flow(c, '}');
	case '[': return flow(c, ']');
	case '!':
		if (c->end - c->p > 2 && c->p[1] == '!')
			return tagged(c);
		if (c->end - c->p > 1 && c->p[1] == ' ')
			return nonspecific(c);
		return bad(c, "unsupported tag");
	}
	return plain(c);
}

json_t *lava_log_line(const char *line, size_t len, char *err, size_t errlen)
{
	struct cur c = { line, line + len, err, errlen, 0 };
	json_t *v;

	if (err && errlen)
		*err = 0;
	if (len > LAVA_LOG_MAX_LINE)
		return bad(&c, "record longer than %u bytes", LAVA_LOG_MAX_LINE);
	if (len < 2 || line[0] != '-' || line[1] != ' ')
		return bad(&c, "a record starts with \"- \"");
	c.p += 2;
	ws(&c);
	if (c.p >= c.end || *c.p != '{')
		return bad(&c, "a record is a flow mapping");
	v = flow(&c, '}');
	if (!v)
		return NULL;
	ws(&c);
	if (c.p != c.end) {
		json_decref(v);
		return bad(&c, "trailing text after the record");
	}
	return v;
}

/* "2023-01-10T10:19:40.312412" -> seconds since the epoch (UTC); 0. */
static double parse_dt(const char *s)
{
	struct tm tm = { 0 };
	const char *rest;
	double frac = 0;

	if (!s)
		return 0;
	rest = strptime(s, "%Y-%m-%dT%H:%M:%S", &tm);
	if (!rest)
		return 0;
	if (*rest == '.')
		frac = strtod(rest, NULL);
	return (double)timegm(&tm) + frac;
}

/* LAVA's console logger wrote every '"' as '\"': undo it. */
static int put_target(struct buf *b, const char *s)
{
	for (; *s; s++) {
		if (s[0] == '\\' && s[1] == '"')
			s++;
		if (put(b, s, 1))
			return -1;
	}
	return put(b, "\n", 1);
}

static int take(struct lava_log *l, json_t *rec, struct buf *tgt,
		struct buf *errs)
{
	const char *lvl = json_string_value(json_object_get(rec, "lvl"));
	json_t *msg = json_object_get(rec, "msg");
	double dt = parse_dt(json_string_value(json_object_get(rec, "dt")));

	if (dt && !l->first_dt)
		l->first_dt = dt;
	if (dt)
		l->end_dt = dt;
	if (!lvl)
		return 0;
	if (!strcmp(lvl, "target") && json_is_string(msg)) {
		if (!l->bench_dt && strstr(json_string_value(msg),
					   SERIAL_BENCH_BEGIN))
			l->bench_dt = dt;
		return put_target(tgt, json_string_value(msg));
	}
	if (!strcmp(lvl, "results") && json_is_object(msg))
		return json_array_append(l->results, msg);
	if (!strcmp(lvl, "error") && json_is_string(msg))
		return put(errs, json_string_value(msg),
			   strlen(json_string_value(msg))) ||
		       put(errs, "\n", 1);
	return 0;
}

int lava_log_parse(const char *text, size_t len, struct lava_log *out,
		   char *err, size_t errlen)
{
	struct buf tgt = { 0 }, errs = { 0 };
	const char *p = text, *end = text + len;

	memset(out, 0, sizeof(*out));
	if (len > LAVA_LOG_MAX_BYTES) {
		snprintf(err, errlen, "LAVA log over %u MiB",
			 LAVA_LOG_MAX_BYTES >> 20);
		return -1;
	}
	out->results = json_array();
	if (!out->results || put(&tgt, "", 0) || put(&errs, "", 0))
		goto oom;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		json_t *rec;

		if (n && p[n - 1] == '\r')
			n--;
		if (n) {
			out->lines++;
			rec = lava_log_line(p, n, NULL, 0);
			if (!rec)
				out->bad_lines++;
			else if (take(out, rec, &tgt, &errs)) {
				json_decref(rec);
				goto oom;
			}
			json_decref(rec);
		}
		p = nl ? nl + 1 : end;
	}
	out->target = tgt.s;
	out->target_len = tgt.len;
	out->errors = errs.s;
	return 0;
oom:
	free(tgt.s);
	free(errs.s);
	json_decref(out->results);
	memset(out, 0, sizeof(*out));
	snprintf(err, errlen, "out of memory parsing the LAVA log");
	return -1;
}

void lava_log_free(struct lava_log *l)
{
	free(l->target);
	free(l->errors);
	json_decref(l->results);
	memset(l, 0, sizeof(*l));
}
