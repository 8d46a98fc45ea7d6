#!/usr/bin/env bash
# Description: a toggle experiment on the local backend leaves the host's
# setting as it found it (issue 27 finding 4). /proc/sys/vm/stat_interval
# is set to an unusual value F first; variants write F+1 and F+2. After
# the job the file reads F again. Then a long run is started, the runner
# is killed with SIGKILL once the file shows a variant's value (the crash
# leaves it changed: checked), the experiment is cancelled, and a new
# runner on the same --workdir puts F back at its start, before claiming
# anything. The reference is the file itself, read by this script. Fails
# on the old runner, which left the last variant's value.
. "$(dirname "$0")/../api/lib.sh"
R=$TOP/build/perflab-runner
[ -x "$R" ] || skip "build/perflab-runner not built"
[ -x "$TOP/build/perflab-bench" ] || skip "build/perflab-bench not built"
S=/proc/sys/vm/stat_interval
orig=$(cat $S 2>/dev/null) || skip "no $S"
(echo "$orig" >$S) 2>/dev/null || skip "$S is not writable here (needs root and a writable /proc/sys)"
F=7
[ "$orig" = 7 ] && F=9
img=$(mktemp /var/tmp/perflab-ltogr.XXXXXX)
dd if=/dev/zero of="$img" bs=1M count=32 status=none
dd if="$img" of=/dev/null bs=4096 count=1 iflag=direct status=none 2>/dev/null ||
	{ rm -f "$img"; skip "no O_DIRECT on /var/tmp"; }
RUNNER_PID=
stop_all() {
	[ -n "$RUNNER_PID" ] && kill "$RUNNER_PID" 2>/dev/null && wait "$RUNNER_PID" 2>/dev/null
	echo "$orig" >$S
	rm -f "$img"
	cleanup
}
trap stop_all EXIT
echo $F >$S

start_daemon
ADM=$(make_key admin root)
RK=$(make_key runner local-runner)
runner() {
	"$R" --server "$BASE" --key "$RK" --backend local --name local-host --label local \
		--target "$img" --workdir "$TMP/runner" --claim-wait 1 >>"$TMP/runner.log" 2>&1 &
	RUNNER_PID=$!
}
runner
wait_host "$ADM" local-host
body() { # body RUNTIME
	jq -n --arg s "$S" --arg a "$((F + 1))" --arg b "$((F + 2))" --argjson rt "$1" \
	  '{title: "local toggle restore", label: "local", backend: "local", runs: 2,
	  max_runs: 2, toggle: true,
	  bench: {polled: false, runtime: $rt, warmup: 1, depth: 16, submit_batch: 4,
		  complete_batch: 4},
	  variants: [{name: "a", settings: {($s): $a}}, {name: "b", settings: {($s): $b}}]}'
}
wait_done() {
	for _ in $(seq 120); do
		state=$(api GET "/api/v1/experiments/$1" "$ADM" | jq -r .state)
		case $state in done | failed | cancelled) return ;; esac
		sleep 1
	done
}

# 1. a whole job: the value as found afterwards
id=$(api POST /api/v1/experiments "$ADM" "$(body 2)" | jq -r .id)
expect_status 201 "local toggle"
wait_done "$id"
check "$state" = done "toggle done ($(tail -5 "$TMP/runner.log"))"
check "$(cat $S)" = "$F" "the setting is as the job found it"
[ ! -e "$TMP/runner/toggle-saved.json" ] || fail "the saved settings were left behind"

# 2. SIGKILL mid-job: the next start restores
id=$(api POST /api/v1/experiments "$ADM" "$(body 60)" | jq -r .id)
expect_status 201 "long toggle"
for _ in $(seq 600); do
	v=$(cat $S)
	[ "$v" != "$F" ] && break
	sleep 0.1
done
check "$v" != "$F" "a variant's value was written ($(tail -3 "$TMP/runner.log"))"
kill -9 "$RUNNER_PID"
wait "$RUNNER_PID" 2>/dev/null
RUNNER_PID=
check "$(cat $S)" != "$F" "the crash left the variant's value"
[ -s "$TMP/runner/toggle-saved.json" ] || fail "nothing saved before the write"
api POST "/api/v1/experiments/$id/cancel" "$ADM" >/dev/null
expect_status 200 "cancel"
runner
for _ in $(seq 200); do
	[ "$(cat $S)" = "$F" ] && break
	sleep 0.1
done
check "$(cat $S)" = "$F" "the restarted runner restored the setting ($(tail -3 "$TMP/runner.log"))"
[ ! -e "$TMP/runner/toggle-saved.json" ] || fail "the saved settings were left behind"
grep -q "restoring the host's settings" "$TMP/runner.log" || fail "the restore is not logged"
echo PASS
