#!/usr/bin/env bash
# Description: -p1 on regular files never falls back to interrupts: a file
# on tmpfs (no ->iopoll) fails with the kernel's EOPNOTSUPP, and a file on a
# block device whose queue/io_poll is 0 is refused before any IO; both exit
# 1 with a message naming the device (or file system) and the fix (-p0).
. "$(dirname "$0")/lib.sh"
shm_file 16
"$BENCH" -p1 -r 2 -w 0 -j "$tmpd/j.json" "$img" >"$tmpd/out" 2>"$tmpd/err"
rc=$?
cat "$tmpd/out" "$tmpd/err"
[ $rc = 1 ] || fail "tmpfs file with -p1 exited $rc, want 1"
grep -q 'EOPNOTSUPP' "$tmpd/err" || fail "no EOPNOTSUPP in the message"
grep -q -- '-p0' "$tmpd/err" || fail "the message does not give the -p0 fix"
grep -q '^Summary' "$tmpd/out" && fail "a summary was printed for a failed run"
[ -e "$tmpd/j.json" ] && fail "JSON was written for a failed run"

# A file on a real block device (the build directory's file system).
f=$top/build/.plb-poll-test.$$
trap 'rm -f "$f"; cleanup' EXIT
dd if=/dev/zero of="$f" bs=1M count=4 status=none || fail "cannot create $f"
dev=$(stat -c '%d' "$f")
maj=$((dev >> 8)) min=$((dev & 255))
[ "$maj" = 0 ] && skip "build/ is on a file system without a block device"
q=/sys/dev/block/$maj:$min/queue
[ -e "$q" ] || q=/sys/dev/block/$maj:$min/../queue
[ -r "$q/io_poll" ] || skip "no $q/io_poll"
if [ "$(cat "$q/io_poll")" != 0 ]; then
	skip "the device under build/ has poll queues; refusal not testable"
fi
name=$(basename "$(readlink -f "$q/..")")
"$BENCH" -p1 -r 2 -w 0 "$f" >"$tmpd/out" 2>"$tmpd/err"
rc=$?
cat "$tmpd/err"
[ $rc = 1 ] || fail "file on $name with -p1 exited $rc, want 1"
grep -q "backing device $name has no poll queues" "$tmpd/err" ||
	fail "message does not name device $name"
grep -q -- '-p0' "$tmpd/err" || fail "the message does not give the -p0 fix"
[ -s "$tmpd/out" ] && fail "per-second lines were printed before refusing"
"$BENCH" -p0 -r 1 -w 0 "$f" >"$tmpd/out" 2>&1 || fail "-p0 on the same file failed: $(cat "$tmpd/out")"
echo "poll-refused-file: ok"
