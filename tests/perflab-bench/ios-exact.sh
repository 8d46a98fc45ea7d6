#!/usr/bin/env bash
# Description: --ios N times N completed IOs (plus at most one reap, <= QD)
# after warm-up and reports elapsed ns per IO with 6 decimals, consistent
# with the wall time and IOPS of the run; -r then only caps the run.
# summary.window_ios (the IO count of the exact instruction profile) equals
# ios_measured with --ios.
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || skip "jq not installed"
shm_file 64
j=$tmpd/i.json
n=400000
start=$(date +%s%N)
"$BENCH" -p0 -w 1 --ios $n -j "$j" "$img" >"$tmpd/out" 2>&1 || fail "bench failed: $(cat "$tmpd/out")"
wall=$(( $(date +%s%N) - start ))
cat "$tmpd/out"
grep -Eq "; ns/IO=[0-9]+\.[0-9]{6} over [0-9]+ IOs$" "$tmpd/out" || fail "summary lacks ns/IO"
jq -e --argjson n $n '.params.ios == $n and .params.runtime == 0
	and .summary.ios_measured >= $n and .summary.ios_measured <= $n + 128
	and .summary.ns_per_io > 0
	and .summary.window_ios == .summary.ios_measured' "$j" >/dev/null ||
	fail "summary wrong: $(jq -c .summary "$j")"
# measured time fits in the wall time of the whole run minus warm-up
jq -e --argjson w "$wall" '.summary.ns_per_io * .summary.ios_measured < $w - 900000000' "$j" >/dev/null ||
	fail "ns/IO x IOs exceeds the wall time ($wall ns)"
# too many IOs for the -r cap: a failure, not a partial figure
"$BENCH" -p0 -w 1 -r 2 --ios 1000000000000 "$img" >"$tmpd/out" 2>&1
[ $? = 1 ] || fail "an unreachable --ios did not fail"
grep -q "completed only" "$tmpd/out" || fail "no reason given: $(cat "$tmpd/out")"
echo "ios-exact: ok"
