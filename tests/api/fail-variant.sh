#!/usr/bin/env bash
# Description: a patch_apply failure fails that variant (its other jobs are
# cancelled, the log is shown by GET experiment) while the control still
# runs; boot failures are retried; cancel stops an experiment.
. "$(dirname "$0")/lib.sh"
start_daemon
SUB=$(make_key submit alice)
RUN=$(make_key runner r1)
register_host "$RUN" h1
sample_patch >"$TMP/p.patch"
id=$(api POST "/api/v1/patches?runs=2&max_runs=2" "$SUB" "@$TMP/p.patch" | jq -r .id)
expect_status 201 "submit"

step() { # step ACTION [REASON]: claim the next job and finish it
	local job
	job=$(claim "$RUN" h1 1)
	expect_status 200 "claim ($1)"
	JOB=$(jq -r .job_id <<<"$job")
	VAR=$(jq -r .variant.name <<<"$job")
	local lease
	lease=$(jq -r .lease <<<"$job")
	if [ "$1" = result ]; then
		api POST "/api/v1/jobs/$JOB/result" "$RUN" "$(sample_result "$lease")" >/dev/null
		expect_status 201 "result"
	else
		api POST "/api/v1/jobs/$JOB/fail" "$RUN" "$(jq -n --arg l "$lease" --arg r "$2" \
			'{lease: $l, reason: $r, log: "error: patch failed: block/blk-mq-tag.c:10\nerror: block/blk-mq-tag.c: patch does not apply"}')" >/dev/null
		expect_status 200 "fail $2"
	fi
}
step result                     # seq 0: base
check "$VAR" = base "seq 0 is the control"
step fail boot                  # seq 1: patched, boot failure -> retried
check "$VAR" = patched "seq 1 is the treatment"
check "$(sql "SELECT state || '/' || attempt FROM jobs WHERE id = $JOB")" = "queued/1" "boot failure requeued"
step fail patch_apply           # seq 1 again: the patch does not apply
check "$(sql "SELECT attempt FROM jobs WHERE id = $JOB")" -eq 2 "second attempt"
exp=$(api GET "/api/v1/experiments/$id" "$SUB")
check "$(jq -r '.variants[1].state' <<<"$exp")" = failed "variant failed"
check "$(jq -r '.variants[1].failure_reason' <<<"$exp")" = patch_apply "failure reason"
jq -e '.variants[1].failure_log | test("patch does not apply")' <<<"$exp" >/dev/null || fail "patch tool output not shown"
jq -e ".jobs[] | select(.id == $JOB) | .failure_log | test(\"patch does not apply\")" <<<"$exp" >/dev/null || fail "job log not shown"
check "$(jq '[.jobs[] | select(.variant == "patched" and .state == "cancelled")] | length' <<<"$exp")" -eq 1 "other patched job cancelled"
api GET "/api/v1/jobs/$JOB/log" "$SUB" | grep -q "patch does not apply" || fail "full failure log"
expect_status 200 "job log"
check "$(jq -r .state <<<"$exp")" = running "experiment still running"
step result                     # seq 3: base again
check "$VAR" = base "control continues"
claim "$RUN" h1 0 >/dev/null
expect_status 204 "nothing left"
check "$(wait_analysed "$id" "$SUB" | jq -r .state)" = done "done with the control runs"

# Cancel.
id2=$(api POST "/api/v1/patches?runs=2" "$SUB" "@$TMP/p.patch" | jq -r .id)
job=$(claim "$RUN" h1 0)
api POST "/api/v1/experiments/$id2/cancel" "$SUB" "" >/dev/null
expect_status 200 "cancel"
check "$(sql "SELECT count(*) FROM jobs WHERE experiment_id = $id2 AND state != 'cancelled'")" -eq 0 "all jobs cancelled"
api POST "/api/v1/jobs/$(jq -r .job_id <<<"$job")/heartbeat" "$RUN" "{\"lease\":\"$(jq -r .lease <<<"$job")\"}" >/dev/null
expect_status 409 "lease of a cancelled job"
api POST "/api/v1/experiments/$id2/cancel" "$SUB" "" >/dev/null
expect_status 409 "cancel twice"
check "$(api GET "/api/v1/hosts" "$SUB" | jq -r '.hosts[0].state')" = idle "host freed"
echo "ok"
