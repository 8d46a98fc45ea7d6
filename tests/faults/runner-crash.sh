#!/usr/bin/env bash
# Description: a runner (curl, runner protocol) killed with SIGKILL in the
# build, boot and run phases: each lease expires, the job is requeued with
# the next attempt, the dead lease gets 409, and a fresh runner finishes
# the experiment with exactly the planned runs, none doubled.
. "$(dirname "$0")/../api/lib.sh"
. "$(dirname "$0")/lib.sh"
start_daemon --lease-seconds 2 --max-attempts 5
SUB=$(make_key submit alice)
RUN=$(make_key runner r1)
register_host "$RUN" h1
api POST /api/v1/experiments "$SUB" '{"runs":2,"max_runs":2,"variants":[{"name":"A"},{"name":"B"}]}' >/dev/null
expect_status 201 "create"
pids=()
trap 'for p in "${pids[@]}"; do kill_tree $p; done; cleanup' EXIT

for phase in build boot run; do
	sim_runner "$RUN" h1 $phase &
	pid=$!
	pids+=($pid)
	wait_for "[ -s $TMP/stalled-$phase ]" 20 "runner reaching $phase"
	read -r id lease <"$TMP/stalled-$phase"
	check "$(sql "SELECT state || '/' || phase FROM jobs WHERE id = $id")" = "running/$phase" "job $id running in $phase"
	kill_tree $pid
	echo "killed the runner in phase $phase of job $id"
	wait_for "[ \"\$(sql \"SELECT state FROM jobs WHERE id = $id\")\" = queued ]" 10 "job $id requeued"
	check "$(sql "SELECT count(*) FROM job_events WHERE job_id = $id AND event = 'expired'")" -ge 1 "expiry of job $id recorded"
	api POST "/api/v1/jobs/$id/result" "$RUN" "$(sample_result "$lease")" >/dev/null
	expect_status 409 "result with the dead lease of job $id"
	api POST "/api/v1/jobs/$id/heartbeat" "$RUN" "{\"lease\":\"$lease\"}" >/dev/null
	expect_status 409 "heartbeat with the dead lease of job $id"
done
check "$(sql 'SELECT count(*) FROM runs')" -eq 0 "no run stored by killed runners"

# A healthy runner drains the queue.
touch "$TMP/drained"
sim_runner "$RUN" h1 none &
pid=$!
pids+=($pid)
wait_for "[ \"\$(sql 'SELECT state FROM experiments WHERE id = 1')\" = done ]" 40 "experiment done"
kill_tree $pid
check_exact_runs 1
check "$(sql "SELECT max(attempt) FROM jobs")" -ge 2 "requeued jobs ran again"
check "$(sql "SELECT count(*) FROM jobs WHERE attempt > 1")" -ge 1 "some job had a second attempt"
[ -s "$TMP/sim-errors" ] && fail "an upload was refused: $(cat "$TMP/sim-errors")"
check "$(sql 'PRAGMA integrity_check')" = ok "integrity_check"
echo "ok"
