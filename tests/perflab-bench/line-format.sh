#!/usr/bin/env bash
# Description: every per-second line is exactly the t/io_uring format
# "IOPS=N, IOS/call=S/R, inflight=(N)", one per second of -r, then one
# summary line, after one header line (target, parameters, ring flags);
# with -n 2 inflight lists both threads.
. "$(dirname "$0")/lib.sh"
shm_file 64
out=$("$BENCH" -p0 -r 3 -w 1 "$img") || fail "bench failed: $out"
echo "$out"
n=$(echo "$out" | grep -c '^IOPS=')
[ "$n" = 3 ] || fail "expected 3 per-second lines, got $n"
bad=$(echo "$out" | grep '^IOPS=' | grep -Ev '^IOPS=[0-9]+, IOS/call=[0-9]+/[0-9]+, inflight=\([0-9]+\)$')
[ -z "$bad" ] || fail "malformed line: $bad"
echo "$out" | grep '^IOPS=' | awk -F'[=,]' '$2 <= 0 { exit 1 }' ||
	fail "a second with no IO"
echo "$out" | grep -Eq '^Summary: IOPS mean=[0-9.]+, median=[0-9.]+, stddev=[0-9.]+ over 2 s \(warm-up 1 s dropped\); CPU/IO user=[0-9.]+ ns, sys=[0-9.]+ ns$' ||
	fail "summary line missing or malformed"
echo "$out" | head -n 1 | grep -Eq '^perflab-bench: .*img, threads=1, QD=128, bs=512, polled=0, fixedbufs=1, regfiles=1, random=1, ring flags:( [A-Z_]+)*$' ||
	fail "header line missing or malformed"
[ "$(echo "$out" | wc -l)" = 5 ] || fail "unexpected extra output"
if [ "$(nproc)" -ge 2 ]; then
	out=$("$BENCH" -p0 -n 2 -r 2 -w 0 "$img") || fail "-n 2 failed: $out"
	echo "$out"
	bad=$(echo "$out" | grep '^IOPS=' | grep -Ev '^IOPS=[0-9]+, IOS/call=[0-9]+/[0-9]+, inflight=\([0-9]+ [0-9]+\)$')
	[ -z "$bad" ] || fail "malformed two-thread line: $bad"
fi
echo "line-format: ok"
