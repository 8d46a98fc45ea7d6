// SPDX-License-Identifier: MIT
#include <inttypes.h>
#include <math.h>

#include "jw.h"

void jw_init(struct jw *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->need_comma[0] = false;
	j->after_key = false;
	j->nl = false;
}

/* Separator before a value or key at the current level. */
static void sep(struct jw *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (j->need_comma[j->depth])
		fputc(',', j->f);
	if (j->nl)
		fputc('\n', j->f);
	j->nl = false;
	j->need_comma[j->depth] = true;
}

static void open_(struct jw *j, char c)
{
	sep(j);
	fputc(c, j->f);
	if (j->depth < JW_MAX_DEPTH - 1)
		j->depth++;
	j->need_comma[j->depth] = false;
}

static void close_(struct jw *j, char c)
{
	if (j->depth > 0)
		j->depth--;
	fputc(c, j->f);
}

void jw_obj_open(struct jw *j)
{
	open_(j, '{');
}

void jw_obj_close(struct jw *j)
{
	close_(j, '}');
}

void jw_arr_open(struct jw *j)
{
	open_(j, '[');
}

void jw_arr_close(struct jw *j)
{
	close_(j, ']');
}

void jw_escape(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	fputc('"', f);
	for (; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

void jw_key(struct jw *j, const char *key)
{
	sep(j);
	jw_escape(j->f, key);
	fputc(':', j->f);
	j->after_key = true;
}

void jw_str(struct jw *j, const char *s)
{
	sep(j);
	jw_escape(j->f, s);
}

void jw_u64(struct jw *j, uint64_t v)
{
	sep(j);
	fprintf(j->f, "%" PRIu64, v);
}

void jw_i64(struct jw *j, int64_t v)
{
	sep(j);
	fprintf(j->f, "%" PRId64, v);
}

void jw_double(struct jw *j, double v, int prec)
{
	sep(j);
	if (!isfinite(v))
		fputs("null", j->f);
	else
		fprintf(j->f, "%.*f", prec, v);
}

void jw_bool(struct jw *j, bool v)
{
	sep(j);
	fputs(v ? "true" : "false", j->f);
}

void jw_null(struct jw *j)
{
	sep(j);
	fputs("null", j->f);
}

void jw_nl(struct jw *j)
{
	j->nl = true;
}
