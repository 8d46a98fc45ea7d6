// SPDX-License-Identifier: MIT
/*
 * lava_template: ${name} substitution in a JSON tree, then the emitter.
 */
#include "daemon/lab/lava_template.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NAME 64
#define MAX_DEPTH 32

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static int name_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       (ch >= '0' && ch <= '9') || ch == '_';
}

/*
 * The variable at s ("${name}..."): its length in *nlen, the name copied
 * to @name. 0, or -1 for a malformed reference.
 */
static int ref_at(const char *s, char name[MAX_NAME + 1], size_t *reflen)
{
	size_t n = 0;

	if (s[0] != '$' || s[1] != '{')
		return -1;
	while (name_char(s[2 + n]) && n < MAX_NAME)
		n++;
	if (!n || s[2 + n] != '}')
		return -1;
	memcpy(name, s + 2, n);
	name[n] = 0;
	*reflen = n + 3;
	return 0;
}

/* Walk every string of the tree; fn(arg, string, err) may stop it. */
typedef int walk_fn(void *arg, const char *s, char *err, size_t errlen);

static int walk(const json_t *v, walk_fn *fn, void *arg, int depth, char *err,
		size_t errlen)
{
	const char *k;
	json_t *x;
	size_t i;

	if (depth > MAX_DEPTH)
		return fail(err, errlen, "template nested deeper than %d",
			    MAX_DEPTH);
	if (json_is_string(v))
		return fn(arg, json_string_value(v), err, errlen);
	if (json_is_array(v)) {
		json_array_foreach(v, i, x)
			if (walk(x, fn, arg, depth + 1, err, errlen))
				return -1;
	}
	if (json_is_object(v)) {
		json_object_foreach((json_t *)v, k, x) {
			if (strstr(k, "${"))
				return fail(err, errlen, "template: a key may"
					    " not name a variable (%.64s)", k);
			if (walk(x, fn, arg, depth + 1, err, errlen))
				return -1;
		}
	}
	return 0;
}

static int collect(void *arg, const char *s, char *err, size_t errlen)
{
	json_t *names = arg;
	char name[MAX_NAME + 1];
	size_t len, i;
	json_t *x;

	for (const char *p = s; *p; p++)
		if ((*p < 0x20 && *p != '\n' && *p != '\t') || *p > 0x7e)
			return fail(err, errlen, "template: strings must be"
				    " ASCII (\"%.40s\")", s);
	for (const char *p = strstr(s, "${"); p; p = strstr(p, "${")) {
		if (p > s && p[-1] == '$') {	/* $${: a literal ${ */
			p += 2;
			continue;
		}
		if (ref_at(p, name, &len))
			return fail(err, errlen, "template: malformed variable"
				    " reference in \"%.80s\" (want ${name},"
				    " name of [A-Za-z0-9_])", s);
		p += len;
		json_array_foreach(names, i, x)
			if (!strcmp(json_string_value(x), name))
				break;
		if (i == json_array_size(names) &&
		    json_array_append_new(names, json_string(name)))
			return -1;
	}
	return 0;
}

json_t *lava_template_vars(const json_t *tmpl)
{
	json_t *names = json_array();
	char err[8];

	if (names && walk(tmpl, collect, names, 0, err, sizeof(err))) {
		json_decref(names);
		return NULL;
	}
	return names;
}

json_t *lava_template_parse(const char *text, char *err, size_t errlen)
{
	json_error_t je;
	json_t *t, *names;

	if (strlen(text) > LAVA_TEMPLATE_MAX) {
		fail(err, errlen, "template over %u KiB", LAVA_TEMPLATE_MAX >> 10);
		return NULL;
	}
	t = json_loads(text, JSON_REJECT_DUPLICATES, &je);
	if (!t) {
		fail(err, errlen, "template is not JSON: line %d: %s", je.line,
		     je.text);
		return NULL;
	}
	if (!json_is_object(t) || !json_is_array(json_object_get(t, "actions"))) {
		fail(err, errlen, "template must be a LAVA job definition: an"
		     " object with \"actions\"");
		goto bad;
	}
	names = json_array();
	if (!names || walk(t, collect, names, 0, err, errlen)) {
		json_decref(names);
		goto bad;
	}
	json_decref(names);
	return t;
bad:
	json_decref(t);
	return NULL;
}

/* Printable ASCII only: what a substituted string may contain. */
static int printable(const char *s)
{
	for (; *s; s++)
		if (*s < 0x20 || *s > 0x7e)
			return 0;
	return 1;
}

static int check_value(const char *name, const json_t *v, char *err,
		       size_t errlen)
{
	const char *k;
	json_t *x;
	size_t i;

	if (json_is_string(v) && !printable(json_string_value(v)))
		return fail(err, errlen, "variable %s: only printable ASCII may"
			    " be substituted", name);
	if (json_is_array(v))
		json_array_foreach(v, i, x)
			if (check_value(name, x, err, errlen))
				return -1;
	if (json_is_object(v))
		json_object_foreach((json_t *)v, k, x)
			if (!printable(k) || check_value(name, x, err, errlen))
				return fail(err, errlen, "variable %s: only"
					    " printable ASCII may be"
					    " substituted", name);
	return 0;
}

/* A new string with every ${name} of @s replaced. */
static json_t *interpolate(const char *s, const json_t *vars, char *err,
			   size_t errlen)
{
	char name[MAX_NAME + 1], num[32];
	size_t cap = strlen(s) + 1, len = 0, rl;
	char *out = malloc(cap);
	json_t *r;

	if (!out)
		return NULL;
	while (*s) {
		const char *val;
		const json_t *v;
		size_t vl;

		if (s[0] == '$' && s[1] == '$' && s[2] == '{') {
			val = "${";	/* $${: a literal ${ (iPXE's variables) */
			vl = 2;
			rl = 3;
		} else if (s[0] != '$' || s[1] != '{') {
			val = s;
			vl = 1;
			rl = 1;
		} else {
			if (ref_at(s, name, &rl)) {
				fail(err, errlen, "malformed variable reference");
				goto bad;
			}
			v = json_object_get(vars, name);
			if (json_is_integer(v)) {
				snprintf(num, sizeof(num), "%" JSON_INTEGER_FORMAT,
					 json_integer_value(v));
				val = num;
			} else if (json_is_string(v)) {
				val = json_string_value(v);
			} else {
				fail(err, errlen, "template: variable %s %s", name,
				     v ? "is not a string or integer (a value of"
				     " another type must stand alone, \"${name}\")"
				     : "is unknown");
				goto bad;
			}
			vl = strlen(val);
		}
		if (len + vl + 1 > cap) {
			char *n;

			cap = (len + vl + 1) * 2;
			n = realloc(out, cap);
			if (!n)
				goto bad;
			out = n;
		}
		memcpy(out + len, val, vl);
		len += vl;
		s += rl;
	}
	out[len] = 0;
	r = json_string(out);
	free(out);
	return r;
bad:
	free(out);
	return NULL;
}

static json_t *subst(const json_t *v, const json_t *vars, int depth, char *err,
		     size_t errlen)
{
	char name[MAX_NAME + 1];
	const char *k;
	json_t *out, *x, *y;
	size_t i, rl;

	if (depth > MAX_DEPTH) {
		fail(err, errlen, "template nested too deep");
		return NULL;
	}
	if (json_is_string(v)) {
		const char *s = json_string_value(v);

		if (!ref_at(s, name, &rl) && !s[rl]) {
			x = json_object_get(vars, name);
			if (!x) {
				fail(err, errlen, "template: variable %s is"
				     " unknown", name);
				return NULL;
			}
			return json_deep_copy(x);
		}
		return strstr(s, "${") ? interpolate(s, vars, err, errlen) :
		       json_copy((json_t *)v);
	}
	if (json_is_array(v)) {
		out = json_array();
		json_array_foreach(v, i, x) {
			y = subst(x, vars, depth + 1, err, errlen);
			if (!y || json_array_append_new(out, y)) {
				json_decref(out);
				return NULL;
			}
		}
		return out;
	}
	if (json_is_object(v)) {
		out = json_object();
		json_object_foreach((json_t *)v, k, x) {
			y = subst(x, vars, depth + 1, err, errlen);
			if (!y || json_object_set_new(out, k, y)) {
				json_decref(out);
				return NULL;
			}
		}
		return out;
	}
	return json_copy((json_t *)v);
}

char *lava_template_render(const json_t *tmpl, const json_t *vars, char *err,
			   size_t errlen)
{
	const char *k;
	json_t *x, *def;
	char *text;

	json_object_foreach((json_t *)vars, k, x)
		if (check_value(k, x, err, errlen))
			return NULL;
	def = subst(tmpl, vars, 0, err, errlen);
	if (!def)
		return NULL;
	text = json_dumps(def, JSON_INDENT(2) | JSON_ENSURE_ASCII |
			  JSON_PRESERVE_ORDER);
	json_decref(def);
	if (!text)
		fail(err, errlen, "out of memory rendering the job");
	return text;
}
