#!/usr/bin/env bash
# Description: a toggle experiment on the local backend: the
# runner writes each run's runtime setting on the host itself and reads it
# back, runs the variants of one "boot" (this kernel's boot id) in A B B A
# order and uploads each run with the host's boot id and its position; a
# setting the kernel does not have (/proc/sys/kernel/io_uring_iter_save on
# a kernel without kernel-patches/0006) fails the variant with reason
# "setting" and the error. The setting used is /proc/sys/vm/stat_interval,
# written with the value it already has, so the host is left as it was.
. "$(dirname "$0")/../api/lib.sh"
R=$TOP/build/perflab-runner
[ -x "$R" ] || skip "build/perflab-runner not built"
[ -x "$TOP/build/perflab-bench" ] || skip "build/perflab-bench not built"
S=/proc/sys/vm/stat_interval
v=$(cat $S 2>/dev/null) || skip "no $S"
(echo "$v" >$S) 2>/dev/null || skip "$S is not writable here (needs root and a writable /proc/sys)"
img=$(mktemp /var/tmp/perflab-ltog.XXXXXX)
dd if=/dev/zero of="$img" bs=1M count=32 status=none
dd if="$img" of=/dev/null bs=4096 count=1 iflag=direct status=none 2>/dev/null ||
	{ rm -f "$img"; skip "no O_DIRECT on /var/tmp"; }
RUNNER_PID=
stop_all() {
	[ -n "$RUNNER_PID" ] && kill "$RUNNER_PID" 2>/dev/null && wait "$RUNNER_PID" 2>/dev/null
	rm -f "$img"
	cleanup
}
trap stop_all EXIT

start_daemon
ADM=$(make_key admin root)
RK=$(make_key runner local-runner)
"$R" --server "$BASE" --key "$RK" --backend local --name local-host --label local \
	--target "$img" --workdir "$TMP/runner" --claim-wait 1 >"$TMP/runner.log" 2>&1 &
RUNNER_PID=$!
body() { # body SETTINGS_B
	jq -n --arg s "$S" --arg v "$v" --argjson b "$1" '{title: "local toggle",
	  label: "local", backend: "local", runs: 3, max_runs: 3, toggle: true,
	  bench: {polled: false, runtime: 2, warmup: 1, depth: 16, submit_batch: 4,
		  complete_batch: 4},
	  variants: [{name: "a", settings: {($s): $v}}, {name: "b", settings: $b}]}'
}
wait_done() {
	for _ in $(seq 120); do
		state=$(api GET "/api/v1/experiments/$1" "$ADM" | jq -r .state)
		case $state in done | failed | cancelled) return ;; esac
		sleep 1
	done
}
id=$(api POST /api/v1/experiments "$ADM" "$(body "{\"$S\":\"$v\"}")" | jq -r .id)
expect_status 201 "local toggle"
wait_done "$id"
check "$state" = done "local toggle done ($(tail -5 "$TMP/runner.log"))"
exp=$(api GET "/api/v1/experiments/$id" "$ADM")
boot=$(cat /proc/sys/kernel/random/boot_id)
check "$(jq '.runs | length' <<<"$exp")" -eq 6 "6 runs"
check "$(jq --arg b "$boot" '[.runs[] | select(.boot_id == $b)] | length' <<<"$exp")" -eq 6 "every run from this kernel's boot"
check "$(jq -r '[.runs[] | .variant] | join("")' <<<"$exp")" = abbaab "A B B A order"
check "$(jq -r '[.runs[].boot_pos] | join(",")' <<<"$exp")" = "0,1,2,3,4,5" "positions"
check "$(cat $S)" = "$v" "the setting is as it was"

id=$(api POST /api/v1/experiments "$ADM" "$(body '{"/proc/sys/kernel/io_uring_iter_save":"0"}')" | jq -r .id)
expect_status 201 "a setting this kernel does not have"
wait_done "$id"
exp=$(api GET "/api/v1/experiments/$id" "$ADM")
check "$(jq -r '.variants[1].state' <<<"$exp")" = failed "variant b failed"
check "$(jq -r '.variants[1].failure_reason' <<<"$exp")" = setting "reason setting"
grep -q "io_uring_iter_save: No such file or directory" <<<"$(jq -r '.variants[1].failure_log' <<<"$exp")" ||
	fail "the error is not shown: $(jq -r '.variants[1].failure_log' <<<"$exp")"
echo PASS
