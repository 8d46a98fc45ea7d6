#!/usr/bin/env bash
# Description: build/perflab-bench-static (make static-bench, for the QEMU
# initramfs) is fully static and runs: usage, option errors, and a short
# -p0 run on a /dev/shm file with JSON output, with and without -P.
. "$(dirname "$0")/lib.sh"
S=$top/build/perflab-bench-static
[ -x "$S" ] || skip "build/perflab-bench-static not built (make static-bench)"
file "$S" | grep -q 'statically linked' || fail "not statically linked: $(file "$S")"
"$S" -h | grep -q '^Usage: perflab-bench' || fail "-h failed"
"$S" -q 2>/dev/null
[ $? = 2 ] || fail "bad option did not exit 2"
shm_file 16
"$S" -p0 -r 2 -w 1 -j "$tmpd/s.json" "$img" || fail "static run failed"
grep -q '"tool":"perflab-bench"' "$tmpd/s.json" || fail "no JSON written"
# -P: libperf, kallsyms and libelf symbol tables work in the static binary
"$S" -P -p0 -r 2 -w 1 -j "$tmpd/p.json" "$img" >"$tmpd/out" 2>&1
rc=$?
cat "$tmpd/out"
if [ $rc != 0 ]; then
	grep -q perf_event_open "$tmpd/out" && skip "perf_event_open not permitted here"
	fail "static -P run failed"
fi
grep -q '"dso":"\[kernel.kallsyms\]"' "$tmpd/p.json" || fail "no kernel symbols in the profile"
echo "static-binary: ok"
