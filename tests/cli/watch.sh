#!/usr/bin/env bash
# Description: perflab watch follows an experiment to the end and prints
# the verdict table; with --fail-on-regression it exits 1 when a variant
# is 3 % slower and 0 when it is not, also when the daemon has to add runs
# to an inconclusive experiment or perflabd restarts meanwhile; the
# regression is listed by perflab alerts and perf-diff prints its
# profile; a variant whose patch does not apply shows the tool's output
# (watch exits 2). watch follows /api/v1/events and falls back to
# polling when the stream breaks. Runs are uploaded through the real runner protocol of
# a real perflabd (tests/lib/fake_runner.py).
. "$(dirname "$0")/lib.sh"
. "$top/tests/cli/patch.sh"
cli_need_daemon
command -v python3 >/dev/null || skip "python3 is not installed"
cli_start_daemon
key=$(cli_key submit cli-watch)
rkey=$(cli_key runner cli-watch-runner)
[ -n "$key" ] && [ -n "$rkey" ] || fail "no keys"
pl() { "$PERFLAB" --server "$URL" --key "$key" "$@"; }
label=sim-$$

write_patch "$TMP/a.patch" "cli watch test"

sim() {
	python3 tests/lib/fake_runner.py "$URL" "$rkey" "sim-host-$$" "$label" \
		--slowdown "$1" --iops 234500 --profile --strict \
		>"$TMP/sim$1" 2>&1 &
	SIM_PID=$!
}
stop_sim() {
	kill "$SIM_PID" 2>/dev/null
	wait "$SIM_PID" 2>/dev/null
	SIM_PID=
}
trap 'stop_sim; cli_cleanup' EXIT

# 1: a 3 % slowdown must read as a regression. --interval 3600: only the
# event stream (/api/v1/events) can bring the updates in time.
expect_rc 0 pl submit "$TMP/a.patch" --runs 6 --label "$label" -q
id=$(cat "$TMP/out")
sim 3
timeout 120 "$PERFLAB" --server "$URL" --key "$key" watch "$id" \
	--fail-on-regression --interval 3600 >"$TMP/watch1" 2>&1
rc=$?
stop_sim
cat "$TMP/watch1"
[ $rc = 1 ] || { cat "$TMP/sim3"; fail "watch --fail-on-regression exited $rc, expected 1"; }
grep -q "runs 100%" "$TMP/watch1" || fail "no finished progress line"
grep -q "regression" "$TMP/watch1" || fail "no regression in the table"
grep -q "iops" "$TMP/watch1" || fail "no iops row"
curl -s "$URL/metrics" | grep -q 'route="/api/v1/events",code="2xx"} [1-9]' ||
	fail "watch did not use the event stream"

# show of the finished experiment has the same verdict; exit 0 (not gating)
expect_rc 0 pl show "$id"
grep -q "regression" "$TMP/out" || fail "show: no verdict"
grep -q "^state *done" "$TMP/out" || fail "show: not done"
# without --fail-on-regression watch of a finished experiment exits 0
expect_rc 0 pl watch "$id"

# the regression raised an alert that `perflab alerts` lists
expect_rc 0 pl alerts
cat "$TMP/out"
grep -q "verdict" "$TMP/out" || fail "alerts: $(cat "$TMP/out")"
expect_rc 0 pl alerts --state new --json
[ "$(jq '.alerts | length' "$TMP/out")" -ge 1 ] || fail "alerts --state new: $(cat "$TMP/out")"
expect_rc 0 pl alerts --state fixed --json
[ "$(jq '.alerts | length' "$TMP/out")" = 0 ] || fail "alerts --state fixed: $(cat "$TMP/out")"

# perf-diff prints the text form; an unknown variant is the server's 404
expect_rc 0 pl perf-diff "$id"
grep -q "Baseline" "$TMP/out" || fail "perf-diff: no header: $(cat "$TMP/out")"
grep -q "blk_mq_get_tag" "$TMP/out" || fail "perf-diff: no symbol"
expect_rc 0 pl perf-diff "$id" --variant patched
grep -q "__blk_mq_free_request" "$TMP/out" || fail "perf-diff: one-sided symbol missing"
expect_rc 2 pl perf-diff "$id" --variant nosuch
grep -q "HTTP 404" "$TMP/err" || fail "perf-diff unknown variant: $(cat "$TMP/err")"

# 2: the same kernel on both sides: no regression, exit 0
expect_rc 0 pl submit "$TMP/a.patch" --runs 6 --label "$label" -q
id=$(cat "$TMP/out")
sim 0
expect_rc 0 timeout 120 "$PERFLAB" --server "$URL" --key "$key" watch "$id" \
	--fail-on-regression --interval 1
stop_sim
grep -q "regression" "$TMP/out" && fail "A/A read as a regression: $(cat "$TMP/out")"

# 3: 3 vs 3 runs cannot decide; the daemon adds runs up to --max-runs and
# watch must wait for them instead of stopping at the first "done"
expect_rc 0 pl submit "$TMP/a.patch" --runs 3 --max-runs 6 --label "$label" -q
id=$(cat "$TMP/out")
sim 3
expect_rc 1 timeout 120 "$PERFLAB" --server "$URL" --key "$key" watch "$id" \
	--fail-on-regression --interval 1
stop_sim
expect_rc 0 pl show "$id" --json
[ "$(jq '.runs | length' "$TMP/out")" = 12 ] || fail "expected 12 runs, got $(jq '.runs | length' "$TMP/out")"

# 4: perflabd restarts while watch is polling: watch carries on
expect_rc 0 pl submit "$TMP/a.patch" --runs 6 --label "$label" -q
id=$(cat "$TMP/out")
"$PERFLAB" --server "$URL" --key "$key" watch "$id" --fail-on-regression \
	--interval 1 >"$TMP/watch4" 2>&1 &
wpid=$!
sleep 1.5
kill -TERM "$DAEMON_PID"
wait "$DAEMON_PID"
build/perflabd --listen "127.0.0.1:$PORT" --db "$DB" >>"$TMP/daemon.log" 2>&1 &
DAEMON_PID=$!
sim 3
timeout 120 tail --pid=$wpid -f /dev/null
wait $wpid
rc=$?
stop_sim
[ $rc = 1 ] || { cat "$TMP/watch4"; fail "watch across a restart exited $rc, expected 1"; }

# 5: a patch that does not apply: the variant fails and show prints why
expect_rc 0 pl submit "$TMP/a.patch" --runs 3 --label "$label" -q
id=$(cat "$TMP/out")
sim fail
timeout 120 "$PERFLAB" --server "$URL" --key "$key" watch "$id" --interval 1 \
	>"$TMP/watch3" 2>&1
rc=$?
stop_sim
cat "$TMP/watch3"
[ $rc = 2 ] || fail "watch of a failed variant exited $rc, expected 2"
grep -q "variant patched failed: patch_apply" "$TMP/watch3" || fail "watch: no failure message"
expect_rc 0 pl show "$id"
grep -q "failed: " "$TMP/out" || fail "show: no failure reason"
grep -q "| error: block/blk-mq-tag.c: patch does not apply" "$TMP/out" ||
	fail "show: no git apply output: $(cat "$TMP/out")"
echo "ok"
