#!/usr/bin/env bash
# Description: a runner's last result is answered before the experiment is
# analysed: the upload marks it (state stays running, analysis_pending
# true) and the analysis worker stores the verdict afterwards, publishing
# the experiment's "done" event; a daemon stopped while a mark is pending
# completes that analysis when it starts again; /metrics counts the
# experiments waiting for their analysis. The worker is slowed with
# PERFLABD_TEST_ANALYSIS_DELAY_MS so the order is observable.
. "$(dirname "$0")/lib.sh"

# One experiment with two variants and one run each, run to its last upload.
# Prints the experiment id; the upload's wall time (ms) goes to $TMP/ms.
run_to_last_upload() {
	local exp job i t0 t1
	api POST /api/v1/experiments "$SUB" \
		'{"runs":1,"max_runs":1,"variants":[{"name":"A"},{"name":"B"}]}' >"$TMP/exp.json"
	expect_status 201 "create"
	exp=$(jq -r .id "$TMP/exp.json")
	for i in 1 2; do
		job=$(claim "$RUN" host1 1)
		[ "$(last_status)" = 200 ] || fail "claim $i: $(last_status)"
		sample_result "$(jq -r .lease <<<"$job")" $((100000 * i)) 5 >"$TMP/r.json"
		t0=$(date +%s%N)
		api POST "/api/v1/jobs/$(jq -r .job_id <<<"$job")/result" "$RUN" "@$TMP/r.json" >/dev/null
		t1=$(date +%s%N)
		expect_status 201 "upload $i"
	done
	echo $(((t1 - t0) / 1000000)) >"$TMP/ms"
	echo "$exp"
}

PERFLABD_TEST_ANALYSIS_DELAY_MS=1500 start_daemon
SUB=$(make_key submit alice)
RUN=$(make_key runner r1)
register_host "$RUN" host1

# Watch the experiment events from the start.
curl -sN --max-time 20 -H "Authorization: Bearer $SUB" \
	"$BASE/api/v1/events?since=0" >"$TMP/events" 2>/dev/null &
SSE=$!

exp=$(run_to_last_upload)
ms=$(cat "$TMP/ms")
check "$ms" -lt 1500 "the last upload answered before the analysis (${ms} ms)"
body=$(api GET "/api/v1/experiments/$exp" "$SUB")
check "$(jq -r .state <<<"$body")" = running "state right after the last upload"
check "$(jq -r .analysis_pending <<<"$body")" = true "marked for analysis"
check "$(jq '.comparison | length' <<<"$body")" -eq 0 "no verdict yet"
grep -q '^perflab_analysis_pending 1$' <<<"$(api GET /metrics "")" ||
	fail "metrics: $(api GET /metrics "" | grep analysis)"

body=$(wait_analysed "$exp" "$SUB")
check "$(jq -r .state <<<"$body")" = done "state after the analysis"
check "$(jq '.comparison | length' <<<"$body")" -eq 1 "verdict stored"
check "$(jq -r '.finished_at != null' <<<"$body")" = true "finished_at set"
for _ in $(seq 100); do
	grep -q "\"experiment_id\": *$exp, *\"state\": *\"done\"" "$TMP/events" && break
	sleep 0.05
done
kill "$SSE" 2>/dev/null
wait "$SSE" 2>/dev/null
grep -q "\"experiment_id\": *$exp, *\"state\": *\"done\"" "$TMP/events" ||
	fail "no experiment done event: $(grep experiment "$TMP/events")"

# A mark left by a daemon that stopped: the next start analyses it.
stop_daemon
PERFLABD_TEST_ANALYSIS_DELAY_MS=600000 start_daemon
exp=$(run_to_last_upload)
check "$(sql "SELECT analysis_pending FROM experiments WHERE id = $exp")" -eq 1 "marked"
t0=$(date +%s)
stop_daemon
check $(($(date +%s) - t0)) -lt 10 "stop does not wait for the pending analysis"
check "$(sql "SELECT state || '/' || analysis_pending FROM experiments WHERE id = $exp")" \
	= running/1 "the mark outlived the daemon"
check "$(sql "SELECT count(*) FROM comparisons WHERE experiment_id = $exp")" -eq 0 \
	"not analysed before the restart"
start_daemon
body=$(wait_analysed "$exp" "$SUB")
check "$(jq -r .state <<<"$body")" = done "analysed after the restart"
check "$(jq '.comparison | length' <<<"$body")" -eq 1 "verdict stored after the restart"
echo "ok"
