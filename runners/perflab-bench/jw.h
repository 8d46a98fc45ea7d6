/* SPDX-License-Identifier: MIT */
/*
 * Minimal streaming JSON writer (no library, keeps the static binary
 * small). Commas are placed automatically; strings are escaped per RFC 8259.
 */
#ifndef PERFLAB_BENCH_JW_H
#define PERFLAB_BENCH_JW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JW_MAX_DEPTH 32

struct jw {
	FILE *f;
	int depth;
	bool need_comma[JW_MAX_DEPTH];
	bool after_key;
	bool nl;		/* newline before the next element */
};

void jw_init(struct jw *j, FILE *f);
void jw_obj_open(struct jw *j);
void jw_obj_close(struct jw *j);
void jw_arr_open(struct jw *j);
void jw_arr_close(struct jw *j);
void jw_key(struct jw *j, const char *key);
void jw_str(struct jw *j, const char *s);
void jw_u64(struct jw *j, uint64_t v);
void jw_i64(struct jw *j, int64_t v);
/* Finite doubles with @prec digits after the point; NaN/inf become null. */
void jw_double(struct jw *j, double v, int prec);
void jw_bool(struct jw *j, bool v);
void jw_null(struct jw *j);
/* Starts the next element on a new line (readability only). */
void jw_nl(struct jw *j);
/* Writes @s as a JSON string literal (quotes included) to @f. */
void jw_escape(FILE *f, const char *s);

#endif
