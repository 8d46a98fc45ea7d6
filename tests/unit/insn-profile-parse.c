/*
 * Description: the perflab-insn plugin output parser accepts a well-formed
 * profile and rejects truncated, inconsistent or malformed ones; symbol
 * maps keep text symbols only; the exact_profile JSON splits kernel and
 * user, merges symbols of one name, counts addresses no symbol covers and
 * sorts rows by instructions; a window that never closed gives no profile.
 */
#include <string.h>

#include "common/insn_profile.h"
#include "unit/check.h"

#define HDR "perflab-insn 1\nmarkers 1 1\nwindow closed\nblocks 4\n"

static const char good[] = HDR "total 1000\naddrs 6\n"
	"ffffffff81000010 300\n"	/* f1 */
	"ffffffff81000020 100\n"	/* f1 */
	"ffffffff81000210 250\n"	/* cmp (second static) */
	"ffffffff81000110 50\n"		/* cmp */
	"401010 200\n"			/* worker_loop */
	"ffffffff90000000 100\n"	/* beyond the last symbol */
	"end\n";

static const char map[] =
	"ffffffff81000000 T f1\n"
	"ffffffff81000000 T f1_alias\n"
	"ffffffff81000100 t cmp\n"
	"ffffffff81000180 D some_data\n"
	"ffffffff81000200 t cmp\n"
	"ffffffff81000300 T _etext\n"
	"garbage line\n"
	"0000000000401000 T worker_loop\n"
	"0000000000402000 T _fini\n";

static int parses(const char *text)
{
	struct insn_prof p;
	char err[256];
	int ok = !insn_prof_parse(text, strlen(text), &p, err, sizeof(err));

	insn_prof_free(&p);
	return ok;
}

static void check_rejects(void)
{
	CHECK(!parses(HDR "total 10\naddrs 1\n10 10\n"), "no end line");
	CHECK(!parses(HDR "total 11\naddrs 1\n10 10\nend\n"), "sum != total");
	CHECK(!parses(HDR "total 20\naddrs 2\n10 10\n10 10\nend\n"),
	      "duplicate address");
	CHECK(!parses(HDR "total 10\naddrs 2\n10 10\nend\n"), "too few lines");
	CHECK(!parses(HDR "total 10\naddrs 1\nzz 10\nend\n"), "bad hex");
	CHECK(!parses(HDR "total 10\naddrs 1\n10 -10\nend\n"), "negative");
	CHECK(!parses(HDR "total 0\naddrs 1\n10 0\nend\n"), "zero count");
	CHECK(!parses(HDR "total 10\naddrs 1\n10 10\nend\nmore\n"),
	      "text after end");
	CHECK(!parses(HDR "total 99999999999999999999\naddrs 0\nend\n"),
	      "u64 overflow");
	CHECK(!parses(HDR "total 18446744073709551615\naddrs 2\n"
		      "10 18446744073709551615\n20 1\nend\n"), "sum overflow");
	CHECK(!parses("perflab-insn 2\n"), "version 2");
	CHECK(!parses(""), "empty");
}

static void check_json(void)
{
	struct insn_symtab t;
	struct insn_prof p;
	char err[256];
	json_t *j, *s;

	CHECK(!insn_prof_parse(good, strlen(good), &p, err, sizeof(err)),
	      "%s", err);
	CHECK(p.n == 6 && p.addr[0] == 0x401010, "n %zu", p.n);
	CHECK(!insn_symtab_parse(map, strlen(map), &t));
	CHECK(t.n == 6, "text symbols %zu", t.n);	/* no alias, no data */
	CHECK(insn_symtab_find(&t, 0xffffffff81000180ull) >= 0 &&
	      !strcmp(t.name[insn_symtab_find(&t, 0xffffffff81000180ull)],
		      "cmp"), "data symbol must not split a function");
	j = insn_prof_json(&p, 100, &t, &t, "perflab-bench", err, sizeof(err));
	CHECK(j, "%s", err);
	if (!j)
		goto out;
	CHECK(json_integer_value(json_object_get(j, "total")) == 1000);
	CHECK(json_integer_value(json_object_get(j, "kernel")) == 800);
	CHECK(json_integer_value(json_object_get(j, "user")) == 200);
	CHECK(json_integer_value(json_object_get(j, "unattributed")) == 100);
	CHECK(json_integer_value(json_object_get(j, "ios")) == 100);
	s = json_object_get(j, "symbols");
	CHECK(json_array_size(s) == 3, "rows %zu", json_array_size(s));
	CHECK(!strcmp(json_string_value(json_object_get(
		json_array_get(s, 0), "sym")), "f1"));
	CHECK(json_integer_value(json_object_get(json_array_get(s, 0),
						 "insns")) == 400);
	CHECK(!strcmp(json_string_value(json_object_get(
		json_array_get(s, 1), "sym")), "cmp"), "merged statics");
	CHECK(json_integer_value(json_object_get(json_array_get(s, 1),
						 "insns")) == 300);
	CHECK(!strcmp(json_string_value(json_object_get(
		json_array_get(s, 2), "dso")), "perflab-bench"));
	json_decref(j);
	p.window = INSN_WIN_OPEN;
	j = insn_prof_json(&p, 100, &t, &t, "perflab-bench", err, sizeof(err));
	CHECK(!j && strstr(err, "never closed"), "open window: %s", err);
	json_decref(j);
out:
	insn_symtab_free(&t);
	insn_prof_free(&p);
}

int main(void)
{
	check_rejects();
	check_json();
	DONE();
}
