# Helpers for fault tests (sourced after tests/api/lib.sh).
#
#   sim_runner KEY HOST STALL_PHASE &   # the fake runner; STALL_PHASE build|boot|run|none
#   kill_tree PID                        # kill -9 PID and its direct children
#   wait_for 'shell condition' SECONDS WHAT
#   check_exact_runs EXPERIMENT_ID       # one run per job, planned count
#   trap unmount EXIT                    # stop perflabd, unmount $MNT, detach $LOOP
#   claim_one_job RUNS                   # daemon on $DB, A/B experiment, one
#                                        # job claimed: SUB RUN id lease
#   start_tarpit NAME...                 # tarpit.py listeners: $TMP/tp/NAME.port,
#                                        # NAME.conns; stopped (with perflabd
#                                        # by SIGKILL) on exit

# The fake runner (tests/lib/fake_runner.py) for host HOST, registered by
# the test: for each job it heartbeats build, boot, run, then uploads.
# With a STALL_PHASE it writes $TMP/stalled-PHASE at that phase of its
# first job and hangs there (the test kills it). It logs uploads to
# $TMP/sim-uploads (refusals to $TMP/sim-errors) and exits when a claim
# finds no job and $TMP/drained exists.
sim_runner() {
	exec python3 "$TOP/tests/lib/fake_runner.py" "$BASE" "$1" "$2" lab \
		--no-register --phases --stall "${3:-none}" --dir "$TMP"
}

kill_tree() {
	local kids
	kids=$(pgrep -P "$1" 2>/dev/null)
	kill -9 "$1" $kids 2>/dev/null
	wait "$1" 2>/dev/null
}

wait_for() { # wait_for COND SECONDS WHAT
	local i
	for i in $(seq $(($2 * 10))); do
		eval "$1" && return 0
		sleep 0.1
	done
	fail "timed out after $2 s waiting for: $3 $(cat "$TMP/sim-errors" 2>/dev/null)"
}

# Exactly one run per planned job of experiment $1, all jobs done.
check_exact_runs() {
	local e=$1 planned
	planned=$(sql "SELECT count(*) FROM jobs WHERE experiment_id = $e")
	check "$(sql "SELECT count(*) FROM jobs WHERE experiment_id = $e AND state = 'done'")" -eq "$planned" "every job of experiment $e done"
	check "$(sql "SELECT count(*) FROM runs WHERE experiment_id = $e")" -eq "$planned" "experiment $e has exactly the planned runs"
	check "$(sql "SELECT count(*) FROM (SELECT job_id FROM runs WHERE experiment_id = $e GROUP BY job_id HAVING count(*) > 1)")" -eq 0 "no job of experiment $e has two runs"
	check "$(sql "SELECT count(*) FROM (SELECT variant_id, run_index FROM runs WHERE experiment_id = $e GROUP BY 1, 2 HAVING count(*) > 1)")" -eq 0 "no duplicate (variant, run_index)"
}

# need_local_runner: sets R (the runner binary) and WD (a scratch dir whose
# 16 MiB file "$WD/img" takes O_DIRECT), for tests of the real runner's
# local backend; skips when the binaries or O_DIRECT are missing. The
# caller's EXIT trap removes WD.
need_local_runner() {
	R=${PERFLAB_RUNNER:-$TOP/build/perflab-runner}
	[ -x "$R" ] && [ -x "$TOP/build/perflab-bench" ] ||
		skip "perflab-runner or perflab-bench not built"
	WD=$(mktemp -d /var/tmp/perflab-fault.XXXXXX)
	dd if=/dev/zero of="$WD/img" bs=1M count=16 status=none
	if ! dd if="$WD/img" of=/dev/null bs=4096 count=1 iflag=direct \
		status=none 2>/dev/null; then
		rm -rf "$WD"
		skip "no O_DIRECT on /var/tmp"
	fi
}

# For tests that put the database on a file system of their own at $MNT
# (optionally on loop device $LOOP): the EXIT trap.
unmount() {
	stop_daemon 2>/dev/null
	umount "$MNT" 2>/dev/null || umount -l "$MNT" 2>/dev/null
	[ -n "${LOOP:-}" ] && losetup -d "$LOOP" 2>/dev/null
	cleanup
}

# claim_one_job RUNS: starts perflabd on $DB, makes keys SUB and RUN, host
# h1, an experiment of variants A and B with RUNS runs each, and claims
# one of its jobs: sets id and lease.
claim_one_job() {
	local job

	start_daemon --lease-seconds 600
	SUB=$(make_key submit alice)
	RUN=$(make_key runner r1)
	register_host "$RUN" h1
	api POST /api/v1/experiments "$SUB" "{\"runs\":$1,\"max_runs\":$1,\"variants\":[{\"name\":\"A\"},{\"name\":\"B\"}]}" >/dev/null
	expect_status 201 "create"
	job=$(claim "$RUN" h1 0)
	expect_status 200 "claim"
	id=$(jq -r .job_id <<<"$job")
	lease=$(jq -r .lease <<<"$job")
}

# Listeners that accept and never answer (tarpit.py), one per NAME; the
# exit trap kills perflabd (-9: it may be stuck on them) and the tarpit.
start_tarpit() {
	mkdir -p "$TMP/tp"
	python3 "$TOP/tests/faults/tarpit.py" "$TMP/tp" "$@" &
	TARPIT=$!
	trap stop_tarpit EXIT
	for _ in $(seq 100); do [ -s "$TMP/tp/${!#}.port" ] && return 0; sleep 0.05; done
	fail "tarpit did not start"
}

stop_tarpit() {
	if [ -n "$DAEMON_PID" ]; then
		kill -9 "$DAEMON_PID" 2>/dev/null
		wait "$DAEMON_PID" 2>/dev/null
		DAEMON_PID=
	fi
	kill "$TARPIT" 2>/dev/null
	wait "$TARPIT" 2>/dev/null
	cleanup
}
