#!/usr/bin/env bash
# Description: -P profiles the measured window system-wide with libperf and
# resolves kernel symbols: the JSON profile names the event (cycles or
# cpu-clock), counts samples and lost samples, and its symbols and folded
# stacks contain the kernel's io_uring read path.
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || skip "jq not installed"
shm_file 64
j=$tmpd/p.json
"$BENCH" -P -p0 -r 3 -w 1 -j "$j" "$img" >"$tmpd/out" 2>&1
rc=$?
cat "$tmpd/out"
if [ $rc != 0 ]; then
	grep -q perf_event_open "$tmpd/out" && skip "perf_event_open not permitted here"
	fail "bench -P exited $rc"
fi
grep -Eq '^Profile: event=(cycles|cpu-clock), [0-9]+ samples, [0-9]+ lost$' "$tmpd/out" ||
	fail "no profile header line"
jq -e '.params.profile == true and (.profile.event == "cycles" or .profile.event == "cpu-clock")
	and .profile.total > 0 and (.profile.lost | type) == "number"
	and .profile.kallsyms > 1000' "$j" >/dev/null ||
	fail "profile header wrong: $(jq -c '.profile | del(.symbols, .stacks)' "$j")"
# self counts add up to the total (every sample has a leaf)
jq -e '([.profile.symbols[].samples] | add) == .profile.total' "$j" >/dev/null ||
	fail "symbol samples do not add up to total"
jq -e '([.profile.stacks[].samples] | add) + .profile.stacks_omitted_samples == .profile.total' "$j" >/dev/null ||
	fail "stack samples do not add up to total"
ksyms=$(jq '[.profile.symbols[] | select(.dso == "[kernel.kallsyms]" and .sym != "[unknown]")] | length' "$j")
[ "$ksyms" -gt 5 ] || fail "only $ksyms resolved kernel symbols"
# a resolved io_uring frame must appear in some folded stack, root first
jq -e '[.profile.stacks[].stack | select(test("(^|;)(io_uring_enter|__do_sys_io_uring_enter|__x64_sys_io_uring_enter|io_submit_sqes)(;|$)"))] | length > 0' "$j" >/dev/null ||
	fail "no io_uring_enter frame in any stack"
# Root first: the syscall entry comes before the io_uring frames (user
# frames such as libc's syscall() may precede it when they resolve).
jq -e '[.profile.stacks[].stack | select(test("(^|;)entry_SYSCALL_64[^;]*;(.*;)?do_syscall_64;(.*;)?__do_sys_io_uring_enter(;|$)"))] | length > 0' "$j" >/dev/null ||
	fail "no stack runs from the syscall entry down to io_uring_enter (root first)"
echo "profile-kernel: ok"
