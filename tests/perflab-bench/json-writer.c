/*
 * Description: the hand-written JSON writer escapes strings per RFC 8259,
 * places commas in nested objects and arrays, never prints NaN, and puts
 * optional newlines after the commas.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runners/perflab-bench/jw.h"
#include "unit/check.h"

static void expect(const char *got, const char *want, const char *what)
{
	if (strcmp(got, want)) {
		fprintf(stderr, "FAIL %s:\n  got  %s\n  want %s\n", what, got,
			want);
		fails++;
	}
}

int main(void)
{
	char *buf = NULL;
	size_t len = 0;
	struct jw j;
	FILE *f = open_memstream(&buf, &len);

	jw_init(&j, f);
	jw_obj_open(&j);
	jw_key(&j, "s");
	jw_str(&j, "a\"b\\c\n\t\x01\x1f/\xc3\xa9");
	jw_key(&j, "arr");
	jw_arr_open(&j);
	jw_u64(&j, 18446744073709551615ULL);
	jw_i64(&j, -3);
	jw_double(&j, 1.0 / 3, 6);
	jw_double(&j, NAN, 2);
	jw_bool(&j, true);
	jw_null(&j);
	jw_obj_open(&j);
	jw_obj_close(&j);
	jw_arr_open(&j);
	jw_arr_close(&j);
	jw_arr_close(&j);
	jw_key(&j, "o");
	jw_obj_open(&j);
	jw_key(&j, "k\"");
	jw_str(&j, NULL);
	jw_obj_close(&j);
	jw_obj_close(&j);
	fclose(f);
	expect(buf,
	       "{\"s\":\"a\\\"b\\\\c\\n\\t\\u0001\\u001f/\xc3\xa9\","
	       "\"arr\":[18446744073709551615,-3,0.333333,null,true,null,{},[]],"
	       "\"o\":{\"k\\\"\":\"\"}}",
	       "nested document");
	free(buf);

	/* jw_nl: the next element starts on a new line, after its comma. */
	f = open_memstream(&buf, &len);
	jw_init(&j, f);
	jw_nl(&j);
	jw_arr_open(&j);
	jw_u64(&j, 1);
	jw_nl(&j);
	jw_u64(&j, 2);
	jw_arr_close(&j);
	fclose(f);
	expect(buf, "\n[1,\n2]", "newlines");
	free(buf);
	if (fails)
		return 1;
	printf("json-writer: ok\n");
	return 0;
}
