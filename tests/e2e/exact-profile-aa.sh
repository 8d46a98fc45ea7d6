#!/usr/bin/env bash
# Description: A/A on the qemu-icount tier's exact instruction profile: two
# boots of the same cached base kernel (perflab-insn plugin, --ios 200000)
# give profiles whose every symbol, and the total, agree within 0.1
# instructions per IO; the window counts the requested IOs exactly.
. "$(dirname "$0")/lib/exact.sh"

boot aa1
boot aa2
diff_exact aa1 aa2
[ "$(jq .exact_profile.ios "$TMP/aa1.json")" -ge "$IOS" ] || fail "window IO count below --ios"
n=$(rows 'length')
[ "$n" -gt 20 ] || fail "only $n symbols in the profile"
total=$(rows '.[] | select(.sym == "TOTAL") | .base')
awk -v t="$total" 'BEGIN { exit !(t > 500 && t < 100000) }' || fail "implausible $total instructions per IO"
worst=$(rows 'map(.delta | fabs) | max')
echo "largest |delta| across $n rows: $worst instructions per IO (total $total per IO)"
awk -v w="$worst" 'BEGIN { exit !(w <= 0.1) }' || fail "A/A delta $worst > 0.1 instructions per IO"
exit 0
