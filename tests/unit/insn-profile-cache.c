/*
 * Description: the v2 perflab-insn profile (cache model on) parses with
 * its geometry, window totals and per-address events kept in address
 * order; hostile ones are refused with the reason: event columns that do
 * not add up to the totals, negative or overflowing counts, an LL that
 * misses more than its L1, an L1 that misses more lines than it was
 * asked for, an impossible geometry, a missing or short events line.
 * The exact_profile JSON of a v2 profile carries the events per symbol
 * and in total, and estimated cycles by iai-callgrind's weights (L1 hit
 * 1, LL hit 5, RAM 35), checked against sums done by hand below.
 */
#include <string.h>

#include "common/insn_profile.h"
#include "unit/check.h"

#define HDR "perflab-insn 2\nmarkers 1 1\nwindow closed\nblocks 4\ntotal 30\n"
#define GEOM "cache line 64 l1i 32768 8 l1d 32768 8 ll 2097152 16\n"

/* Two addresses, listed high first: the parser sorts them. */
static const char good[] = HDR GEOM
	"events 12 3 2 5 1 1 4 1\n"
	"addrs 2\n"
	"ffffffff81000020 10 2 3 0 1 1 0 1 1\n"
	"ffffffff81000010 20 10 0 2 4 0 1 3 0\n"
	"end\n";

static int reason(const char *text, const char *want)
{
	struct insn_prof p;
	char err[256] = "";
	int bad = insn_prof_parse(text, strlen(text), &p, err, sizeof(err));

	insn_prof_free(&p);
	if (!bad || !strstr(err, want)) {
		fprintf(stderr, "want an error with \"%s\", got %s\n", want,
			bad ? err : "success");
		return 0;
	}
	return 1;
}

static void check_good(void)
{
	struct insn_prof p;
	char err[256];

	CHECK(!insn_prof_parse(good, strlen(good), &p, err, sizeof(err)),
	      "%s", err);
	CHECK(p.cache && p.n == 2 && p.total == 30);
	CHECK(p.geom.line == 64 && p.geom.l1i_size == 32768 &&
	      p.geom.l1d_ways == 8 && p.geom.ll_size == 2097152 &&
	      p.geom.ll_ways == 16);
	CHECK(p.ev_total[INSN_EV_DR] == 12 && p.ev_total[INSN_EV_LLDWM] == 1);
	/* Sorted by address, each address's events with it. */
	CHECK(p.addr[0] == 0xffffffff81000010ull && p.count[0] == 20);
	CHECK(p.ev && p.ev[INSN_EV_DR] == 10 && p.ev[INSN_EV_D1RM] == 4 &&
	      p.ev[INSN_EV_LLDRM] == 3);
	CHECK(p.ev[INSN_EV_N + INSN_EV_DW] == 3 &&
	      p.ev[INSN_EV_N + INSN_EV_LLDWM] == 1);
	insn_prof_free(&p);
	/* A v1 profile still parses, without events. */
	{
		static const char v1[] = "perflab-insn 1\nmarkers 1 1\nwindow "
			"closed\nblocks 1\ntotal 5\naddrs 1\n10 5\nend\n";

		CHECK(!insn_prof_parse(v1, strlen(v1), &p, err, sizeof(err)) &&
		      !p.cache && !p.ev, "%s", err);
		insn_prof_free(&p);
	}
}

static void check_hostile(void)
{
	CHECK(reason(HDR GEOM "events 12 3 2 5 1 1 4 2\naddrs 2\n"
		     "ffffffff81000020 10 2 3 0 1 1 0 1 1\n"
		     "ffffffff81000010 20 10 0 2 4 0 1 3 0\nend\n",
		     "adds up to"), "events total off by one");
	CHECK(reason(HDR GEOM "events 0 0 0 0 0 0 0 0\naddrs 1\n"
		     "10 30 -1 0 0 0 0 0 0 0\nend\n", "want \"hexaddr"),
	      "negative event");
	CHECK(reason(HDR GEOM "events 0 0 0 0 0 0 0 0\naddrs 1\n"
		     "10 30 99999999999999999999 0 0 0 0 0 0 0\nend\n",
		     "want \"hexaddr"), "event beyond u64");
	CHECK(reason(HDR GEOM "events 18446744073709551615 0 0 0 0 0 0 0\n"
		     "addrs 2\n10 15 18446744073709551615 0 0 0 0 0 0 0\n"
		     "20 15 1 0 0 0 0 0 0 0\nend\n", "overflow"),
	      "event column sum overflow");
	CHECK(reason(HDR GEOM "events 5 0 0 1 0 0 2 0\naddrs 1\n"
		     "10 30 5 0 0 1 0 0 2 0\nend\n", "more LL misses"),
	      "LL read misses above L1D read misses");
	CHECK(reason(HDR GEOM "events 0 0 1 0 0 2 0 0\naddrs 1\n"
		     "10 30 0 0 1 0 0 2 0 0\nend\n", "more LL misses"),
	      "LL fetch misses above L1I misses");
	CHECK(reason(HDR GEOM "events 2 0 0 5 0 0 0 0\naddrs 1\n"
		     "10 30 2 0 0 5 0 0 0 0\nend\n", "more L1 misses"),
	      "5 L1D misses from 2 reads");
	CHECK(reason(HDR GEOM "events 0 0 61 0 0 0 0 0\naddrs 1\n"
		     "10 30 0 0 61 0 0 0 0 0\nend\n", "more L1 misses"),
	      "61 L1I misses from 30 fetches");
	CHECK(reason(HDR GEOM "events 0 0 0 0 0 0 0 0\naddrs 1\n"
		     "10 30 0 0 0 0 0 0 0\nend\n", "8 events"),
	      "seven events");
	CHECK(reason(HDR GEOM "events 0 0 0 0 0 0 0\naddrs 0\nend\n",
		     "want events"), "short events line");
	CHECK(reason(HDR GEOM "addrs 0\nend\n", "want events"),
	      "no events line");
	CHECK(reason(HDR "cache line 64 l1i 32768 8 l1d 30000 8 ll 2097152 16\n"
		     "events 0 0 0 0 0 0 0 0\naddrs 0\nend\n", "geometry"),
	      "L1D not whole sets");
	CHECK(reason(HDR "cache line 64 l1i 32768 8 l1d 32768 8 ll 3145728 16\n"
		     "events 0 0 0 0 0 0 0 0\naddrs 0\nend\n", "geometry"),
	      "LL sets not a power of two");
	CHECK(reason(HDR "cache line 48 l1i 32768 8 l1d 32768 8 ll 2097152 16\n"
		     "events 0 0 0 0 0 0 0 0\naddrs 0\nend\n", "geometry"),
	      "48-byte lines");
	CHECK(reason(HDR "cache line 64 l1i 32768 0 l1d 32768 8 ll 2097152 16\n"
		     "events 0 0 0 0 0 0 0 0\naddrs 0\nend\n", "geometry"),
	      "zero ways");
	CHECK(reason(HDR "cache line 64 l1i 32768 8 l1d 32768 8 ll 2097152 -16\n"
		     "events 0 0 0 0 0 0 0 0\naddrs 0\nend\n", "want cache line"),
	      "negative ways");
	CHECK(reason(HDR "cache line 64 l1i 32768 8 l1d 32768 8 ll 2097152 16 x\n"
		     "events 0 0 0 0 0 0 0 0\naddrs 0\nend\n", "text after"),
	      "trailing text after the geometry");
	CHECK(reason("perflab-insn 3\nmarkers 1 1\n", "v1 or v2"),
	      "unknown version");
}

static uint64_t field(json_t *o, const char *k)
{
	return (uint64_t)json_integer_value(json_object_get(o, k));
}

static void check_json(void)
{
	static const char map[] = "ffffffff81000000 T f1\n"
				  "ffffffff81000018 T f2\n"
				  "ffffffff81000100 T _etext\n";
	struct insn_symtab t;
	struct insn_prof p;
	json_t *j, *r;
	char err[256];

	CHECK(!insn_prof_parse(good, strlen(good), &p, err, sizeof(err)));
	CHECK(!insn_symtab_parse(map, strlen(map), &t));
	j = insn_prof_json(&p, 2, &t, NULL, "perflab-bench", err, sizeof(err));
	CHECK(j, "%s", err);
	if (!j)
		goto out;
	/*
	 * f1 (...10): 20 insns + 10 reads = 30 accesses, L1 misses 2 + 4 = 6,
	 * LL 1 + 3 = 4: 24 L1 hits + 5 * 2 LL hits + 35 * 4 = 174.
	 * f2 (...20): 10 + 2 + 3 = 15 accesses, L1 misses 0 + 1 + 1 = 2, LL
	 * 0 + 1 + 1 = 2: 13 + 0 + 70 = 83.
	 */
	r = json_array_get(json_object_get(j, "symbols"), 0);
	CHECK(!strcmp(json_string_value(json_object_get(r, "sym")), "f1"));
	CHECK(field(r, "insns") == 20 && field(r, "data_reads") == 10 &&
	      field(r, "data_writes") == 0 && field(r, "l1i_misses") == 2 &&
	      field(r, "l1d_read_misses") == 4 &&
	      field(r, "l1d_write_misses") == 0 && field(r, "ll_misses") == 4);
	CHECK(field(r, "est_cycles") == 174, "f1 est %llu",
	      (unsigned long long)field(r, "est_cycles"));
	r = json_array_get(json_object_get(j, "symbols"), 1);
	CHECK(field(r, "est_cycles") == 83 && field(r, "ll_misses") == 2 &&
	      field(r, "data_writes") == 3 && field(r, "l1d_write_misses") == 1);
	CHECK(field(j, "est_cycles") == 257 && field(j, "ll_misses") == 6 &&
	      field(j, "l1i_misses") == 2);
	r = insn_prof_cost_json(j);
	CHECK(json_real_value(json_object_get(r, "est_cycles_per_io")) == 128.5);
	CHECK(json_real_value(json_object_get(r, "l1_misses_per_io")) == 4.0);
	CHECK(json_real_value(json_object_get(r, "ll_misses_per_io")) == 3.0);
	json_decref(r);
	r = json_object_get(j, "cache");
	CHECK(field(r, "line") == 64 &&
	      field(json_object_get(r, "ll"), "size") == 2097152 &&
	      field(json_object_get(r, "weights"), "ram") == 35);
	json_decref(j);
out:
	insn_symtab_free(&t);
	insn_prof_free(&p);
}

int main(void)
{
	check_good();
	check_json();
	check_hostile();
	DONE();
}
