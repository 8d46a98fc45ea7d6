#!/usr/bin/env bash
# Description: heartbeats extend a lease; a lease that expires puts the job
# back in the queue with the next attempt, the old lease gets 409 for
# heartbeat and result, and at the attempt cap the job fails "lease expired".
. "$(dirname "$0")/lib.sh"
start_daemon --lease-seconds 3 --max-attempts 2
SUB=$(make_key submit alice)
RUN=$(make_key runner r1)
register_host "$RUN" host1

api POST /api/v1/experiments "$SUB" '{"runs":1,"max_runs":1,"variants":[{"name":"A"},{"name":"B"}]}' >/dev/null
expect_status 201 "create"
job=$(claim "$RUN" host1 1)
expect_status 200 "claim"
id=$(jq -r .job_id <<<"$job")
lease=$(jq -r .lease <<<"$job")
check "$(jq -r .lease_seconds <<<"$job")" -eq 3 "lease seconds"
check "$(jq -r .attempt <<<"$job")" -eq 1 "first attempt"

# Heartbeats keep it alive past the lease length.
for _ in 1 2 3 4; do
	sleep 1
	hb=$(api POST "/api/v1/jobs/$id/heartbeat" "$RUN" "{\"lease\":\"$lease\",\"phase\":\"build\",\"message\":\"compiling\"}")
	expect_status 200 "heartbeat"
	check "$(jq -r .lease_expires <<<"$hb")" -ge "$(($(date +%s) + 1))" "lease extended"
done
check "$(sql "SELECT state || '/' || phase FROM jobs WHERE id = $id")" = "running/build" "running in phase build"

# Stop heartbeating: the reaper (every second) requeues it.
sleep 5.5
check "$(sql "SELECT state || '/' || attempt FROM jobs WHERE id = $id")" = "queued/1" "requeued after expiry"
check "$(sql "SELECT count(*) FROM job_events WHERE job_id = $id AND event = 'expired'")" -eq 1 "expiry recorded"
api POST "/api/v1/jobs/$id/heartbeat" "$RUN" "{\"lease\":\"$lease\"}" >/dev/null
expect_status 409 "heartbeat on an expired lease"
api POST "/api/v1/jobs/$id/result" "$RUN" "$(sample_result "$lease")" >/dev/null
expect_status 409 "result on an expired lease"
check "$(sql 'SELECT count(*) FROM runs')" -eq 0 "late result not stored"

# Second attempt (the cap), left to expire: the job fails.
job=$(claim "$RUN" host1 1)
expect_status 200 "reclaim"
check "$(jq -r .job_id <<<"$job")" -eq "$id" "same job handed out again"
check "$(jq -r .attempt <<<"$job")" -eq 2 "second attempt"
lease2=$(jq -r .lease <<<"$job")
[ "$lease2" != "$lease" ] || fail "the lease token was reused"
sleep 5.5
check "$(sql "SELECT state || '/' || failure_reason FROM jobs WHERE id = $id")" = "failed/lease expired" "failed at the attempt cap"
exp=$(api GET /api/v1/experiments/1 "$SUB")
check "$(jq -r ".jobs[] | select(.id == $id) | .failure_reason" <<<"$exp")" = "lease expired" "reason visible in the API"

# The other job still runs; finishing it settles the experiment.
job=$(claim "$RUN" host1 1)
expect_status 200 "claim the other job"
api POST "/api/v1/jobs/$(jq -r .job_id <<<"$job")/result" "$RUN" "$(sample_result "$(jq -r .lease <<<"$job")")" >/dev/null
expect_status 201 "result"
check "$(wait_analysed 1 "$SUB" | jq -r .state)" = done "experiment settled"
echo "ok"
