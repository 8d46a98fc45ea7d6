#!/usr/bin/env bash
# Description: a result upload the daemon refuses with a 4xx (here 422;
# the result comes from the guest, so a patch can cause this) is final:
# the real perflab-runner uploads it once, then fails the job as
# "internal" with the daemon's reason, instead of retrying for ever while
# its heartbeats keep the lease (and the host) taken. The daemon is a
# small python3 stand-in that refuses every result.
. "$(dirname "$0")/../api/lib.sh"
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "python3 is not installed"
need_local_runner
spid= rpid=
trap '[ -n "$rpid" ] && kill_tree $rpid; [ -n "$spid" ] && kill $spid; rm -rf "$WD"; cleanup' EXIT

python3 "$(dirname "$0")/result-refused.py" "$TMP/port" "$TMP/requests" &
spid=$!
for _ in $(seq 50); do [ -s "$TMP/port" ] && break; sleep 0.1; done
[ -s "$TMP/port" ] || fail "stub daemon did not start"
BASE=http://127.0.0.1:$(cat "$TMP/port")

"$R" --server "$BASE" --key plk_x_y --backend local --name h1 --once \
	--target "$WD/img" --workdir "$WD/w" --claim-wait 1 \
	--bench "$TOP/build/perflab-bench" >"$TMP/runner.log" 2>&1 &
rpid=$!
wait_for "grep -q '/fail' '$TMP/requests' 2>/dev/null" 40 "the runner fails the job"
wait_for "! kill -0 $rpid 2>/dev/null" 10 "the --once runner exits"
rpid=
n=$(grep -c '"/api/v1/jobs/7/result"' "$TMP/requests")
check "$n" -eq 1 "the refused result was uploaded once, not retried"
f=$(grep '"/api/v1/jobs/7/fail"' "$TMP/requests" | head -1 | jq -r .body)
check "$(jq -r .reason <<<"$f")" = internal "the job fails as internal"
jq -r .log <<<"$f" | grep -q "3 samples for a 2 s run" ||
	fail "the failure carries the daemon's reason: $f"
echo ok
