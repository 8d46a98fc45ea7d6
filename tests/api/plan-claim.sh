#!/usr/bin/env bash
# Description: an experiment's jobs are handed out interleaved (A B C C B A ...)
# one at a time to the host the experiment is pinned to; other hosts wait.
. "$(dirname "$0")/lib.sh"
start_daemon
SUB=$(make_key submit alice)
R1=$(make_key runner r1)
R2=$(make_key runner r2)
register_host "$R1" host1 lab
register_host "$R2" host2 lab
R3=$(make_key runner r3)
register_host "$R3" host3 other
# B's parameter and C's setup script are an admin's to allow (docs/security.md).
ADM=$(make_key admin root)
api POST /api/v1/allowlist/cmdline "$ADM" '{"pattern":"x="}' >/dev/null
expect_status 201 "allow x="
api PUT /api/v1/setup-scripts/c "$ADM" '{"script":"echo c"}' >/dev/null
expect_status 201 "store script c"

body=$(api POST /api/v1/experiments "$SUB" '{"title":"three","label":"lab","runs":3,"max_runs":3,
  "bench":{"runtime":5,"warmup":1},
  "variants":[{"name":"A"},{"name":"B","cmdline":"x=1"},{"name":"C","setup_script":"c"}]}')
expect_status 201 "create experiment"
id=$(jq -r .id <<<"$body")
check "$(jq -r .jobs <<<"$body")" -eq 9 "9 jobs planned"

# host3 has another label: nothing for it.
claim "$R3" host3 0 >/dev/null
expect_status 204 "host with another label gets nothing"

order=
for i in $(seq 9); do
	job=$(claim "$R1" host1 1)
	expect_status 200 "claim $i"
	order="$order$(jq -r .variant.name <<<"$job")"
	check "$(jq -r .seq <<<"$job")" -eq $((i - 1)) "seq order"
	check "$(jq -r .experiment_id <<<"$job")" -eq "$id" "experiment id"
	check "$(jq -r .label <<<"$job")" = lab "label in the job"
	check "$(jq -r .bench.runtime <<<"$job")" -eq 5 "bench params in the job"
	if [ "$i" -eq 1 ]; then
		# Pinned: host2 (same label) gets nothing while host1 works.
		claim "$R2" host2 1 >/dev/null
		expect_status 204 "host2 must not get a job of a pinned experiment"
	fi
	api POST "/api/v1/jobs/$(jq -r .job_id <<<"$job")/result" "$R1" \
		"$(sample_result "$(jq -r .lease <<<"$job")")" >/dev/null
	expect_status 201 "result $i"
done
check "$order" = "ABCCBAABC" "interleaved hand-out order"
claim "$R1" host1 0 >/dev/null
expect_status 204 "nothing left"
exp=$(wait_analysed "$id" "$SUB")
check "$(jq -r .state <<<"$exp")" = done "experiment done"
check "$(jq -r .host.name <<<"$exp")" = host1 "pinned host"
check "$(jq '.runs | length' <<<"$exp")" -eq 9 "9 runs"
check "$(jq '[.runs[].samples | length] | add' <<<"$exp")" -eq 45 "per-second samples"
check "$(jq -r '.runs[0].summary.mean' <<<"$exp")" = 100030 "run summary"
check "$(jq '[.runs[] | select(.host != "host1")] | length' <<<"$exp")" -eq 0 "all runs on one host"

# A host holds one job at a time: a second claim requeues the first lease.
body=$(api POST /api/v1/experiments "$SUB" '{"label":"lab","runs":1,"variants":[{"name":"A"},{"name":"B"}]}')
j1=$(claim "$R2" host2 0)
expect_status 200 "claim on host2"
j2=$(claim "$R2" host2 0)
expect_status 200 "second claim on host2"
check "$(jq -r .job_id <<<"$j2")" = "$(jq -r .job_id <<<"$j1")" "the same job again (first lease abandoned)"
check "$(jq -r .attempt <<<"$j2")" -eq 2 "attempt counted"
check "$(sql "SELECT count(*) FROM jobs WHERE state IN ('claimed','running') AND lease_host_id = (SELECT id FROM hosts WHERE name = 'host2')")" -eq 1 "one job per host"
api POST "/api/v1/jobs/$(jq -r .job_id <<<"$j1")/heartbeat" "$R2" "{\"lease\":\"$(jq -r .lease <<<"$j1")\"}" >/dev/null
expect_status 409 "abandoned lease is stale"
echo "ok"
