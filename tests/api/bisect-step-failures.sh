#!/usr/bin/env bash
# Description: a bisection step that fails for a reason other than "build"
# is never skipped. Over c0 .. c10 (IOPS 10 % lower from c7 on), c5 fails
# with "boot" on every attempt (retryable: retried up to the attempt cap),
# then with "setting" (not retryable: the variant fails at once), then
# with "internal": each bisection ends failed naming the reason, with no
# culprit and no skipped step, and c5's step is not "skipped". With c5
# failing "build" instead, it is skipped and c7 is still the culprit (the
# one reason the failure reason table marks "skip", like git bisect skip).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/gitlib.sh"
git_lab 10 --max-attempts 2

# The table says so: only build skips (docs/api.md, failure reasons).
check "$(api GET /api/v1/failure-reasons "$SUB" | jq -r '[.reasons[] | select(.bisect == "skip") | .name] | join(" ")')" = build "only build skips"

spec() { # spec REASON: c5 fails with REASON ("build": in the broken list)
	jq -n --arg a "${C[7]}" --arg b "${C[8]}" --arg c "${C[9]}" --arg d "${C[10]}" \
		--arg f "${C[5]}" --arg why "$1" \
		'{default: 100000, values: {($a): 90000, ($b): 90000, ($c): 90000,
		($d): 90000}} + (if $why == "build" then {broken: [$f]}
		else {failing: {($f): $why}} end)' >"$TMP/spec.json.new"
	mv "$TMP/spec.json.new" "$TMP/spec.json"
}
spec boot
fake_runner


bisect() { # bisect: start c0..c10, wait, the bisection's JSON on stdout
	local body id
	body=$(api POST /api/v1/bisections "$SUB" "$(jq -n --arg g "${C[0]}" --arg b "${C[10]}" \
		'{base:"g", good:$g, bad:$b, label:"by hand", runs:3, bench:{runtime:6, warmup:1}}')")
	expect_status 201 "bisection"
	id=$(jq -r .id <<<"$body")
	wait_bisection "$id"
	api GET /api/v1/bisections/$id "$SUB"
}

for why in boot setting internal; do
	spec $why
	body=$(bisect)
	echo "$why: $(jq -c '{state, failure_reason, steps: [.steps[] | [.commit[0:8], .state]]}' <<<"$body")"
	check "$(jq -r .state <<<"$body")" = failed "c5 failing $why: the bisection fails"
	jq -r .failure_reason <<<"$body" | grep -q "step failed ($why" ||
		fail "c5 failing $why: reason $(jq -r .failure_reason <<<"$body")"
	check "$(jq -r .culprit <<<"$body")" = null "c5 failing $why: no culprit"
	check "$(jq -r '[.steps[] | select(.state == "skipped")] | length' <<<"$body")" -eq 0 "c5 failing $why: nothing skipped"
	check "$(jq -r "[.steps[] | select(.commit == \"${C[5]}\")][0].state" <<<"$body")" != skipped "c5 failing $why: not skipped"
done
grep -q "${C[5]:0:12} boot failed" "$TMP/runner.log" || fail "the runner never failed c5 with boot"
# boot was retried: c5's step jobs were claimed more than once.
check "$(sql "SELECT max(attempt) FROM jobs j JOIN variants v ON v.id = j.variant_id WHERE j.failure_reason = 'boot'")" -eq 2 "boot retried up to the attempt cap"

spec build
body=$(bisect)
check "$(jq -r .state <<<"$body")" = done "c5 failing build: the bisection goes on"
check "$(jq -r "[.steps[] | select(.commit == \"${C[5]}\")][0].state" <<<"$body")" = skipped "c5 failing build: skipped"
check "$(jq -r .culprit.commit <<<"$body")" = "${C[7]}" "c5 failing build: culprit c7"
echo "ok"
