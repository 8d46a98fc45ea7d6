#!/usr/bin/env bash
# Description: the real perflab-runner loses contact (stopped with SIGSTOP,
# as on a network partition) for longer than its lease while its bench
# runs: the job is requeued; when it comes back its late heartbeat/result
# is refused with 409, it drops the job and moves on, and the experiment
# ends with exactly the planned runs.
. "$(dirname "$0")/../api/lib.sh"
. "$(dirname "$0")/lib.sh"
need_local_runner
rpid=
trap '[ -n "$rpid" ] && { kill -CONT $rpid; kill_tree $rpid; }; rm -rf "$WD"; cleanup' EXIT

start_daemon --lease-seconds 3 --max-attempts 5
SUB=$(make_key submit alice)
RUN=$(make_key runner r1)
# the runner registers h1 (local) later: the backend must be one a
# registered host runs
register_host "$RUN" h1 local local
api POST /api/v1/experiments "$SUB" '{"runs":1,"max_runs":1,"backend":"local",
  "bench":{"polled":false,"runtime":3,"warmup":1,"depth":16,"submit_batch":4,
           "complete_batch":4,"profile":false},
  "variants":[{"name":"A"},{"name":"B"}]}' >/dev/null
expect_status 201 "create"

"$R" --server "$BASE" --key "$RUN" --backend local --name h1 --target "$WD/img" \
	--workdir "$WD/w" --claim-wait 1 --bench "$TOP/build/perflab-bench" >"$TMP/runner.log" 2>&1 &
rpid=$!
wait_for "[ \"\$(sql \"SELECT count(*) FROM jobs WHERE phase = 'run' AND state = 'running'\")\" = 1 ]" 30 "a job in phase run"
id=$(sql "SELECT id FROM jobs WHERE phase = 'run' AND state = 'running'")
lease=$(sql "SELECT lease_token FROM jobs WHERE id = $id")
kill -STOP $rpid
echo "runner cut off while job $id runs"
wait_for "[ \"\$(sql \"SELECT state FROM jobs WHERE id = $id\")\" = queued ]" 15 "job $id requeued"
sleep 2	# the bench (not stopped) finishes meanwhile
kill -CONT $rpid
wait_for "[ \"\$(sql 'SELECT state FROM experiments WHERE id = 1')\" = done ]" 60 "experiment done"
kill_tree $rpid
rpid=
cat "$TMP/runner.log"
grep -q "409\|lease lost\|dropping the job" "$TMP/runner.log" ||
	fail "the runner did not see its lease refused"
api POST "/api/v1/jobs/$id/result" "$RUN" "$(sample_result "$lease")" >/dev/null
expect_status 409 "late result with the expired lease"
check_exact_runs 1
check "$(sql "SELECT count(*) FROM runs WHERE lease_token = '$lease'")" -eq 0 "nothing stored under the old lease"
check "$(sql "SELECT attempt FROM jobs WHERE id = $id")" -ge 2 "the job ran again"
echo "ok"
