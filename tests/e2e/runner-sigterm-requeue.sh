#!/usr/bin/env bash
# Description: SIGTERM during a job makes perflab-runner kill its guest,
# report the job failed ("internal", runner stopped) and exit 0 promptly;
# the daemon requeues it and a restarted runner completes it, so the
# experiment ends with exactly the planned run (real perflabd, qemu-icount).
. "$(dirname "$0")/../api/lib.sh"
command -v qemu-system-x86_64 >/dev/null || skip "qemu-system-x86_64 is not installed"
RUNNER=$TOP/build/perflab-runner
for f in "$RUNNER" "$TOP/build/perflab-bench-static"; do
	[ -x "$f" ] || skip "$f is not built"
done
[ -f "$TOP/build/linux-source-6.1/Makefile" ] || skip "base tree missing (make deps)"
RPID=
stop_all() {
	[ -n "$RPID" ] && kill "$RPID" 2>/dev/null && wait "$RPID" 2>/dev/null
	cleanup
}
trap stop_all EXIT

start_daemon
SUB=$(make_key submit t)
RK=$(make_key runner r)
run_runner() {
	"$RUNNER" --server "$BASE" --key "$RK" --backend qemu-icount --name sig-host \
		--label sigterm-lab --workdir "$TMP/w" --kcache "$KCACHE" \
		--claim-wait 1 "$@" >>"$TMP/runner.log" 2>&1 &
	RPID=$!
}
run_runner
wait_host "$SUB" sig-host
body=$(api POST /api/v1/experiments "$SUB" '{"label":"sigterm-lab","backend":"qemu-icount",
  "runs":1,"max_runs":1,"bench":{"runtime":3,"warmup":1,"target":"nullb"},
  "variants":[{"name":"base"}]}')
expect_status 201 "create experiment"
id=$(jq -r .id <<<"$body")

# Wait until the guest is booting or running (the base image may need a build).
for _ in $(seq 900); do
	grep -q "phase boot" "$TMP/runner.log" && break
	sleep 1
done
grep -q "phase boot" "$TMP/runner.log" || fail "runner never booted a guest: $(tail "$TMP/runner.log")"
t0=$(date +%s)
kill -TERM "$RPID"
wait "$RPID"
rc=$?
RPID=
dt=$(($(date +%s) - t0))
echo "runner exited rc=$rc after ${dt}s"
check "$rc" -eq 0 "runner exit status after SIGTERM"
check "$dt" -le 15 "prompt exit"
grep -q "failed (internal)" "$TMP/runner.log" || fail "job not reported failed: $(tail "$TMP/runner.log")"
pgrep -f "$TMP/w/console-" >/dev/null && fail "guest left running"

run_runner --once
for _ in $(seq 300); do
	state=$(api GET "/api/v1/experiments/$id" "$SUB" | jq -r .state)
	case $state in done | failed) break ;; esac
	sleep 1
done
check "$state" = done "experiment state after the restart"
exp=$(api GET "/api/v1/experiments/$id" "$SUB")
check "$(jq '.runs | length' <<<"$exp")" -eq 1 "exactly one run"
check "$(sql "SELECT count(*) FROM runs WHERE experiment_id = $id")" -eq 1 "one run stored"
echo ok
