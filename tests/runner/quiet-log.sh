#!/usr/bin/env bash
# Description: the real perflab-runner (local backend, a regular file as
# target) runs a 4-run experiment (2 variants x 2 runs) against a real
# perflabd; its log holds one line per job start, one per phase and one
# per upload, and no error line: no heartbeat 409 after an upload (the
# heartbeat that races the result is the normal end of the lease), no
# HTTP status, retry, warning or failure.
. "$(dirname "$0")/../api/lib.sh"
. "$(dirname "$0")/../faults/lib.sh"
need_local_runner
rpid=
trap '[ -n "$rpid" ] && kill_tree $rpid; rm -rf "$WD"; cleanup' EXIT

# Short heartbeat interval (lease/3 = 1 s) so beats and uploads overlap.
start_daemon --lease-seconds 3
SUB=$(make_key submit alice)
RUN=$(make_key runner r1)
# the runner registers h1 (local) later: the backend must be one a
# registered host runs
register_host "$RUN" h1 local local
api POST /api/v1/experiments "$SUB" '{"runs":2,"max_runs":2,"backend":"local",
  "bench":{"polled":false,"runtime":2,"warmup":1,"depth":16,"submit_batch":4,
           "complete_batch":4,"profile":false},
  "variants":[{"name":"A"},{"name":"B"}]}' >/dev/null
expect_status 201 "create"

"$R" --server "$BASE" --key "$RUN" --backend local --name h1 \
	--target "$WD/img" --workdir "$WD/w" --claim-wait 1 \
	--bench "$TOP/build/perflab-bench" >"$TMP/runner.log" 2>&1 &
rpid=$!
wait_for "[ \"\$(sql 'SELECT state FROM experiments WHERE id = 1')\" = done ]" 90 "experiment done"
# Heartbeats of the last job may still be in flight: let them land.
sleep 2
kill -TERM $rpid
wait $rpid
rpid=
check_exact_runs 1
echo "--- runner log"
cat "$TMP/runner.log"
echo "---"
log=$TMP/runner.log
check "$(grep -c ': job [0-9]* done: uploaded$' "$log")" -eq 4 "four uploads logged"
check "$(grep -c ': job [0-9]*: experiment 1 variant' "$log")" -eq 4 "four job starts logged"
bad=$(runner_log_problems "$log"; grep -i fail "$log")
[ -z "$bad" ] || fail "lines to act on in the runner log: $bad"
echo "ok"
