#!/usr/bin/env bash
# Description: a bisection step that is neither like good nor like bad
# is not guessed. c0..c4, IOPS 10 % lower from c3 on, and c2's runs
# alternate between the good and the bad value, so its CI always spans
# half the step. The first step (c4 vs c0) reproduces the regression; the
# midpoint c2 is measured with fresh runs of c0 and c4 (three variants),
# is unknown, gets more runs up to 4x the bisection's (20 a side), and
# the bisection then fails with the reason "unknown: commit c2 ..." and
# no culprit, raising no alert.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/gitlib.sh"
git_lab 4
jq -n --arg c2 "${C[2]}" --arg c3 "${C[3]}" --arg c4 "${C[4]}" \
	'{default: 100000, values: {($c3): 90000, ($c4): 90000},
	  alternate: {($c2): [90000, 100000]}}' >"$TMP/spec.json"
fake_runner

body=$(api POST /api/v1/bisections "$SUB" "$(jq -n --arg g "${C[0]}" --arg b "${C[4]}" \
	'{base:"g", good:$g, bad:$b, runs:5, bench:{runtime:6, warmup:1}}')")
expect_status 201 "bisection"
B=$(jq -r .id <<<"$body")
wait_bisection "$B" 600
body=$(api GET /api/v1/bisections/$B "$SUB")
echo "$body" | jq -c '.steps[] | [.commit[0:8], .state, .delta_pct, .ci_lo, .ci_hi, .verdict, .bad, .runs]'
jq -r .failure_reason <<<"$body"
check "$(jq -r .state <<<"$body")" = failed "bisection failed"
check "$(jq -r .culprit <<<"$body")" = null "no culprit"
jq -r .failure_reason <<<"$body" | grep -q "^unknown: commit ${C[2]:0:12}" ||
	fail "reason: $(jq -r .failure_reason <<<"$body")"
check "$(jq -r "[.steps[] | select(.commit == \"${C[2]}\")][0].runs" <<<"$body")" -eq 20 \
	"c2 measured up to 20 runs a side"
check "$(jq -r '.steps | length' <<<"$body")" -eq 2 "two steps: c4, then c2"
check "$(sql "SELECT count(DISTINCT v.name) FROM bisection_steps s JOIN variants v ON v.experiment_id = s.experiment_id WHERE s.bisection_id = $B AND s.commit_sha = '${C[2]}'")" -eq 3 \
	"the midpoint measures good, step and bad"
check "$(sql "SELECT count(*) FROM alerts WHERE kind = 'bisection'")" -eq 0 "no alert"
echo "bisect-unknown ok"
