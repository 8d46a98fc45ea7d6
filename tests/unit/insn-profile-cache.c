/*
 * Description: the v2 perflab-insn profile (cache model on) parses with
 * its geometry, window totals and per-address events kept in address
 * order; hostile ones are refused with the reason: event columns that do
 * not add up to the totals, negative or overflowing counts, an LL that
 * misses more than its L1, an L1 that misses more lines than it was
 * asked for, an impossible geometry, a missing or short events line.
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

int main(void)
{
	check_good();
	check_hostile();
	DONE();
}
