#!/usr/bin/env bash
# Description: an experiment run through the real runner protocol (5 runs
# per variant, results uploaded by a scripted runner) ends with a stored
# comparison per variant: B with 2 % fewer IOPS is a regression with an
# alert, C with the control's IOPS is "no change"; both show the MDE and
# the LKP table with IOPS, CPU per IO and profile symbol rows.
. "$(dirname "$0")/../api/lib.sh"
start_daemon
SUB=$(make_key submit alice)
R1=$(make_key runner r1)
register_host "$R1" host1 lab
ADM=$(make_key admin root)
api POST /api/v1/allowlist/cmdline "$ADM" '{"pattern":"x="}' >/dev/null
expect_status 201 "allow x="

body=$(api POST /api/v1/experiments "$SUB" '{"title":"v","label":"lab","runs":5,"max_runs":5,
  "bench":{"runtime":5,"warmup":1},
  "variants":[{"name":"A"},{"name":"B","cmdline":"x=1"},{"name":"C","cmdline":"x=2"}]}')
expect_status 201 "create experiment"
id=$(jq -r .id <<<"$body")
i=0
while job=$(claim "$R1" host1 1) && [ "$(last_status)" = 200 ]; do
	i=$((i + 1))
	v=$(jq -r .variant.name <<<"$job")
	# Run-to-run noise: a few IOPS per run index; B is 2 % slower.
	iops=$((100000 + (i % 5) * 7))
	[ "$v" = B ] && iops=$((iops * 98 / 100))
	api POST "/api/v1/jobs/$(jq -r .job_id <<<"$job")/result" "$R1" \
		"$(sample_result "$(jq -r .lease <<<"$job")" "$iops")" >/dev/null
	expect_status 201 "result $i"
done
check "$i" -eq 15 "15 jobs run"
exp=$(wait_analysed "$id" "$SUB")
check "$(jq -r .state <<<"$exp")" = done "experiment done"
vb=$(jq -r '.comparison[] | select(.variant == "B") | .verdict' <<<"$exp")
vc=$(jq -r '.comparison[] | select(.variant == "C") | .verdict' <<<"$exp")
check "$vb" = regression "B verdict"
check "$vc" = "no change" "C verdict"
text=$(jq -r '.comparison[] | select(.variant == "B") | .result.text' <<<"$exp")
echo "$text"
grep -q 'MDE' <<<"$text" || fail "no MDE in the text"
grep -Eq -- '-(1\.99|2\.00)[0-9]*% .* iops$' <<<"$text" || fail "iops row"
grep -q 'cpu_ns_per_io' <<<"$text" || fail "CPU row"
grep -q 'perf-profile.self.io_submit_sqes' <<<"$text" || fail "symbol row"
check "$(api GET '/api/v1/alerts?kind=verdict' "$SUB" | jq '.alerts | length')" -eq 1 "one verdict alert"
echo "experiment verdicts ok"
