#!/usr/bin/env bash
# Description: A/A on the qemu-icount tier's exact instruction profile: two
# sides of two boots each of the same cached base kernel (perflab-insn
# plugin, --ios 200000) give profiles whose every symbol, and the total,
# agree within 0.1 instructions per IO (means over a side's runs, as the
# daemon's exact perf diff shows them); the window counts the requested
# IOs exactly.
# Two boots a side, not one: the guest seeds its random state from the
# wall clock (RTC), and sbitmap draws its tag allocation hints from it, so
# about one boot in 16 wraps the tag map differently: +0.156 instr/IO in
# __sbitmap_queue_get_batch. One such boot moves a side's mean by 0.078.
. "$(dirname "$0")/lib/exact.sh"

for b in a1 a2 b1 b2; do
	boot "$b"
done
python3 "$TOP/tests/e2e/lib/exact_diff.py" --base "$TMP/a1.json" "$TMP/a2.json" \
	--new "$TMP/b1.json" "$TMP/b2.json" --top 8 --json "$TMP/diff.json" ||
	fail "exact_diff.py failed"
[ "$(jq .exact_profile.ios "$TMP/a1.json")" -ge "$IOS" ] || fail "window IO count below --ios"
n=$(rows 'length')
[ "$n" -gt 20 ] || fail "only $n symbols in the profile"
total=$(rows '.[] | select(.sym == "TOTAL") | .base')
awk -v t="$total" 'BEGIN { exit !(t > 500 && t < 100000) }' || fail "implausible $total instructions per IO"
worst=$(rows 'map(.delta | fabs) | max')
spread=$(rows 'map(.spread) | max')
echo "largest |delta| across $n rows: $worst instructions per IO (total $total per IO; largest spread within a side $spread)"
awk -v w="$worst" 'BEGIN { exit !(w <= 0.1) }' || fail "A/A delta $worst > 0.1 instructions per IO"
exit 0
