#!/usr/bin/env bash
# Description: the real perflab-runner (local backend, a regular file as
# target) is killed with SIGKILL while its bench runs: the lease expires,
# the job is requeued, a restarted runner finishes the experiment with
# exactly the planned runs, none doubled.
. "$(dirname "$0")/../api/lib.sh"
. "$(dirname "$0")/lib.sh"
need_local_runner
rpid=
trap '[ -n "$rpid" ] && kill_tree $rpid; rm -rf "$WD"; cleanup' EXIT

start_daemon --lease-seconds 4 --max-attempts 5
SUB=$(make_key submit alice)
RUN=$(make_key runner r1)
ADM=$(make_key admin root)
api PUT /api/v1/setup-scripts/noop "$ADM" '{"script":"true"}' >/dev/null
expect_status 201 "store the setup script"
# the runner registers h1 (local) later: the backend must be one a
# registered host runs
register_host "$RUN" h1 local local
api POST /api/v1/experiments "$SUB" '{"runs":2,"max_runs":2,"backend":"local",
  "bench":{"polled":false,"runtime":3,"warmup":1,"depth":16,"submit_batch":4,
           "complete_batch":4,"profile":false},
  "variants":[{"name":"A"},{"name":"B","setup_script":"noop"}]}' >/dev/null
expect_status 201 "create"

start_runner() {
	"$R" --server "$BASE" --key "$RUN" --backend local --name h1 \
		--target "$WD/img" --workdir "$WD/w" --claim-wait 1 --bench "$TOP/build/perflab-bench" \
		>>"$TMP/runner.log" 2>&1 &
	rpid=$!
}
start_runner
wait_for "[ \"\$(sql \"SELECT count(*) FROM jobs WHERE phase = 'run' AND state = 'running'\")\" = 1 ]" 30 "a job in phase run"
id=$(sql "SELECT id FROM jobs WHERE phase = 'run' AND state = 'running'")
kill_tree $rpid
rpid=
echo "killed perflab-runner while job $id ran its bench"
wait_for "[ \"\$(sql \"SELECT state FROM jobs WHERE id = $id\")\" = queued ]" 15 "job $id requeued"
check "$(sql "SELECT count(*) FROM job_events WHERE job_id = $id AND event = 'expired'")" -ge 1 "expiry recorded"

start_runner
wait_for "[ \"\$(sql 'SELECT state FROM experiments WHERE id = 1')\" = done ]" 60 "experiment done"
kill_tree $rpid
rpid=
check_exact_runs 1
check "$(sql "SELECT attempt FROM jobs WHERE id = $id")" -ge 2 "killed job ran again"
check "$(sql 'PRAGMA integrity_check')" = ok "integrity_check"
echo "ok"
