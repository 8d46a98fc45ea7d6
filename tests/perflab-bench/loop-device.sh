#!/usr/bin/env bash
# Description: on a loop device (direct IO over a /dev/shm file) -p0 runs
# and reports the device from sysfs, and -p1 is refused naming the loop
# device and the fix, since loop has no poll queues; a queue depth above the
# device's nr_requests is warned about. Needs root.
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || skip "jq not installed"
need_loop 64
name=$(basename "$loopdev")
"$BENCH" -p1 -r 2 -w 0 "$loopdev" >"$tmpd/out" 2>"$tmpd/err"
rc=$?
cat "$tmpd/err"
[ $rc = 1 ] || fail "-p1 on $loopdev exited $rc, want 1"
grep -q "device $name has no poll queues" "$tmpd/err" || fail "message does not name $name"
grep -q 'poll_queues=N' "$tmpd/err" || fail "message lacks the poll_queues fix"
grep -q -- '-p0' "$tmpd/err" || fail "message lacks -p0"

nr=$(cat "/sys/block/$name/queue/nr_requests")
"$BENCH" -p0 -r 3 -w 1 -j "$tmpd/j.json" "$loopdev" >"$tmpd/out" 2>&1 ||
	fail "-p0 run failed: $(cat "$tmpd/out")"
cat "$tmpd/out"
grep -q warning "$tmpd/out" && fail "-d 128 warned on a queue of $nr"
jq -e --arg n "$name" '.device.name == $n and .device.type == "block"
	and .device.io_poll == 0 and .device.logical_block_size == 512
	and .device.size_bytes == 67108864
	and (.device.scheduler | length) > 0
	and .device.nr_requests == $nr' --argjson nr "$nr" "$tmpd/j.json" >/dev/null ||
	fail "device facts wrong: $(jq -c .device "$tmpd/j.json")"
jq -e '(.samples | length) == 3 and all(.samples[]; .iops > 0)
	and .summary.mean > 0' "$tmpd/j.json" >/dev/null ||
	fail "samples wrong: $(jq -c .samples "$tmpd/j.json")"
# 4 KiB blocks on the same device: still a multiple of the 512 B lbs
"$BENCH" -p0 -b 4096 -r 1 -w 0 "$loopdev" >/dev/null 2>&1 || fail "-b 4096 failed"
# a deeper queue than the device has: the run goes on, with a warning
"$BENCH" -p0 -d $((nr * 2)) -r 1 -w 0 "$loopdev" >"$tmpd/out" 2>"$tmpd/err" ||
	fail "-d $((nr * 2)) failed: $(cat "$tmpd/err")"
grep -q "warning: $loopdev: the device queue holds $nr requests" "$tmpd/err" ||
	fail "no queue depth warning for -d $((nr * 2)): $(cat "$tmpd/err")"
echo "loop-device: ok"
