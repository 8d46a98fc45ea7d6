#!/usr/bin/env bash
# Description: GET /api/v1/failure-reasons serves exactly the table of
# docs/api.md (name, retryable, reported by, bisect, meaning; the docs
# are the reference), and POST /api/v1/jobs/{id}/fail behaves as that
# table says for every reason: a runner reason that is retryable puts
# the job back in the queue, one that is not fails its variant with the
# reason; a reason only the daemon sets (infrastructure) and an unknown
# one are refused 400 with the allowed names, nothing changed.
. "$(dirname "$0")/lib.sh"
start_daemon --max-attempts 3
SUB=$(make_key submit alice)
RUN=$(make_key runner r1)
register_host "$RUN" h1

# The docs' table, as JSON rows.
docs=$(awk '/<!-- failure-reasons/ {on = 1; next} /<!-- \/failure-reasons/ {on = 0} on && /^\| `/' \
	"$TOP/docs/api.md" | jq -R -s '[split("\n")[] | select(length > 0) |
	split("|") | map(gsub("^ +| +$"; "")) | {name: (.[1] | gsub("`"; "")),
	retryable: (.[2] == "yes"), reported_by: (.[3] | split(", ")), bisect: .[4],
	meaning: .[5]}]')
check "$(jq length <<<"$docs")" -ge 7 "docs table read"
served=$(api GET /api/v1/failure-reasons "$SUB")
expect_status 200 "failure reasons"
check "$(jq -c '[.reasons[] | {name, retryable, reported_by, bisect, meaning}]' <<<"$served")" = \
	"$(jq -c . <<<"$docs")" "served table = docs/api.md"
jq -e '.reasons | all(.advice | length > 0)' <<<"$served" >/dev/null || fail "a reason without advice"

sample_patch >"$TMP/p.patch"
# claimed REASON: submit an experiment, claim its first job (JOB, LEASE, EXP)
claimed() {
	EXP=$(api POST "/api/v1/patches?runs=1&max_runs=1" "$SUB" "@$TMP/p.patch" | jq -r .id)
	expect_status 201 "submit for $1"
	local job
	job=$(claim "$RUN" h1 1)
	expect_status 200 "claim for $1"
	JOB=$(jq -r .job_id <<<"$job")
	LEASE=$(jq -r .lease <<<"$job")
	VARIANT=$(jq -r .variant.id <<<"$job")
}
fail_job() { # fail_job REASON: body on stdout
	api POST "/api/v1/jobs/$JOB/fail" "$RUN" "$(jq -n --arg l "$LEASE" --arg r "$1" \
		'{lease: $l, reason: $r, log: "simulated"}')"
}

n=$(jq length <<<"$docs")
for i in $(seq 0 $((n - 1))); do
	row=$(jq -c ".[$i]" <<<"$docs")
	name=$(jq -r .name <<<"$row")
	claimed "$name"
	if ! jq -e '.reported_by | index("runner")' <<<"$row" >/dev/null; then
		body=$(fail_job "$name")
		expect_status 400 "$name from a runner"
		grep -q "patch_apply" <<<"$body" || fail "the refusal lists the reasons: $body"
		check "$(sql "SELECT state FROM jobs WHERE id = $JOB")" = claimed "$name: job unchanged"
	else
		fail_job "$name" >/dev/null
		expect_status 200 "fail $name"
		if [ "$(jq -r .retryable <<<"$row")" = true ]; then
			check "$(sql "SELECT state || '/' || failure_reason FROM jobs WHERE id = $JOB")" = "queued/$name" "$name: requeued"
			check "$(sql "SELECT state FROM variants WHERE id = $VARIANT")" != failed "$name: variant goes on"
		else
			check "$(sql "SELECT state || '/' || failure_reason FROM jobs WHERE id = $JOB")" = "failed/$name" "$name: job failed"
			check "$(sql "SELECT state || '/' || failure_reason FROM variants WHERE id = $VARIANT")" = "failed/$name" "$name: variant failed"
		fi
	fi
	api POST "/api/v1/experiments/$EXP/cancel" "$SUB" "" >/dev/null
done

claimed unknown
body=$(fail_job nosuch)
expect_status 400 "unknown reason"
jq -e '.error | test("boot") and test("setting")' <<<"$body" >/dev/null || fail "refusal names the reasons: $body"
check "$(sql "SELECT state FROM jobs WHERE id = $JOB")" = claimed "unknown reason: job unchanged"
echo "ok"
