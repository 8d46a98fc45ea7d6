#!/usr/bin/env bash
# Description: the analysis store is one transaction, so a crash at any
# point of it doubles nothing. A tracked baseline with a history (40
# nightly points, 9 % lower from the 31st) gets its next experiment's
# point, a change point and its alert (a mail and a webhook delivery)
# when that experiment is analysed. (1) When the store fails at its last
# step (a trigger refuses to clear the mark), the worker's retries add no
# second point. (2) perflabd is killed with SIGKILL at each step of the
# store (PERFLABD_TEST_ANALYSIS_STORE_STOP=STEP stops it there) and
# restarted: the analysis is stored once — one point of the experiment,
# one change point, one alert, one delivery per channel — and the
# database passes integrity_check.
. "$(dirname "$0")/../api/lib.sh"
RUNS=2
STEPS="comparisons calibration baseline extend alerts mark settled commit"
start_daemon
ADM=$(make_key admin root)
RUN=$(make_key runner r1)
register_host "$RUN" h1 lab
api POST /api/v1/webhooks "$ADM" '{"url":"http://127.0.0.1:9/hook","secret":"s3cret-key"}' >/dev/null
expect_status 201 "webhook"

# run_jobs N: claim and upload N jobs (IOPS 100000) as host h1.
run_jobs() {
	local i job
	for i in $(seq "$1"); do
		job=$(claim "$RUN" h1 5)
		[ "$(last_status)" = 200 ] || fail "claim $i: $(last_status)"
		api POST "/api/v1/jobs/$(jq -r .job_id <<<"$job")/result" "$RUN" \
			"$(sample_result "$(jq -r .lease <<<"$job")" 100000 5)" >/dev/null
		expect_status 201 "result $i"
	done
}
# baseline_exp N: the id of the Nth baseline experiment, once queued.
baseline_exp() {
	local e
	for _ in $(seq 100); do
		e=$(sql "SELECT id FROM experiments WHERE kind = 'baseline' ORDER BY id LIMIT 1 OFFSET $(($1 - 1))")
		[ -n "$e" ] && { echo "$e"; return; }
		sleep 0.1
	done
	fail "baseline experiment $1 was not queued"
}

api POST /api/v1/baselines "$ADM" "{\"name\":\"nightly\",\"label\":\"lab\",\"runs\":$RUNS,\"schedule_seconds\":86400}" >/dev/null
expect_status 201 "baseline"
E1=$(baseline_exp 1)
run_jobs $RUNS
wait_analysed "$E1" "$ADM" >/dev/null
SID=$(sql "SELECT series_id FROM series_points WHERE experiment_id = $E1")
[ -n "$SID" ] || fail "the baseline's first point"
# The history before it: 40 nightly points, the last 10 9 % lower.
now=$(date +%s)
{
echo "BEGIN;"
for i in $(seq 0 39); do
	v=$((i < 30 ? 110000 : 100000))
	echo "INSERT INTO series_points (series_id, t, value, label, created_at) VALUES ($SID, $((now - 86400 * (41 - i))), $((v + (i % 3) * 40)), 'n$i', $now);"
done
echo "COMMIT;"
} | sql || fail "the history"
check "$(sql "SELECT count(*) FROM series_points WHERE series_id = $SID")" -eq 41 "the history stored"
check "$(sql "SELECT count(*) FROM alerts")" -eq 0 "no alert yet"
# The next run of the baseline, queued by the daemon, is the one to crash.
sql "UPDATE baselines SET next_run_at = 0"
E2=$(baseline_exp 2)
stop_daemon
cp "$DB" "$TMP/snapshot.db"

# check_once WHAT: the analysis of E2 stored exactly once.
check_once() {
	check "$(sql "SELECT analysis_pending || state FROM experiments WHERE id = $E2")" = 0done "$1: analysed"
	check "$(sql "SELECT count(*) FROM series_points WHERE experiment_id = $E2")" -eq 1 "$1: one point of the experiment"
	check "$(sql "SELECT count(*) FROM series_points WHERE series_id = $SID")" -eq 42 "$1: the series' points"
	check "$(sql "SELECT count(*) FROM change_points WHERE series_id = $SID")" -eq 1 "$1: one change point"
	check "$(sql "SELECT count(*) FROM alerts")" -eq 1 "$1: one alert"
	check "$(sql "SELECT count(*) FROM alert_history")" -eq 1 "$1: one alert history row"
	check "$(sql "SELECT count(*) FROM deliveries WHERE attempt = 1")" -eq 2 "$1: one delivery per channel"
	check "$(sql 'PRAGMA integrity_check')" = ok "$1: integrity_check"
}

# (1) The store fails at its last step until the trigger is dropped.
cp "$TMP/snapshot.db" "$DB"
rm -f "$DB-wal" "$DB-shm"
sql "CREATE TRIGGER test_keep_mark BEFORE UPDATE OF analysis_pending ON experiments
	WHEN OLD.analysis_pending != 0 AND NEW.analysis_pending = 0
	BEGIN SELECT RAISE(ABORT, 'test: the mark stays'); END;"
start_daemon
run_jobs $RUNS
for _ in $(seq 100); do
	[ "$(grep -c 'cannot store the analysis' "$TMP/daemon.log")" -ge 2 ] && break
	sleep 0.1
done
echo "failed stores: $(grep -c 'cannot store the analysis' "$TMP/daemon.log"), points of the experiment meanwhile: $(sql "SELECT count(*) FROM series_points WHERE experiment_id = $E2")"
sql "DROP TRIGGER test_keep_mark" || fail "drop the trigger"
wait_analysed "$E2" "$ADM" 30 >/dev/null
check_once "after failed stores"
stop_daemon

# (2) kill -9 at each step of the store.
for step in $STEPS; do
	cp "$TMP/snapshot.db" "$DB"
	rm -f "$DB-wal" "$DB-shm"
	export PERFLABD_TEST_ANALYSIS_STORE_STOP=$step
	start_daemon
	unset PERFLABD_TEST_ANALYSIS_STORE_STOP
	run_jobs $RUNS
	for _ in $(seq 100); do
		grep -q "analysis store stopped after step '$step'" "$TMP/daemon.log" && break
		sleep 0.1
	done
	grep -q "analysis store stopped after step '$step'" "$TMP/daemon.log" ||
		fail "the store did not stop after step '$step' (PERFLABD_TEST_ANALYSIS_STORE_STOP)"
	kill -9 "$DAEMON_PID"
	wait "$DAEMON_PID" 2>/dev/null
	DAEMON_PID=
	points=$(sql "SELECT count(*) FROM series_points WHERE experiment_id = $E2")
	start_daemon
	wait_analysed "$E2" "$ADM" 30 >/dev/null
	echo "killed after '$step' (points of the experiment then: $points): stored once"
	check_once "killed after '$step'"
	stop_daemon
done
echo "ok"
