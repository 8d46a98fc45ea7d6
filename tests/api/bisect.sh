#!/usr/bin/env bash
# Description: bisections started by hand over a synthetic git repository
# (c0 .. c10, IOPS 10 % lower from c7 on) with a simulated runner that
# answers by commit. With c5 failing to build, the bisection measures
# c10 against c0 first (the step), skips c5 and ends at exactly c7 with
# its verdict, delta, subject and author; every step is listed in order,
# the last one c7 confirmed against its parent c6 (the delta reported).
# With c5 and c6 broken it ends without culprit: the first bad commit is
# one of c5..c7 (skipped list and range). A good commit that does not
# build (here with the bad one: the step's experiment fails outright)
# fails the bisection with the reason. Hostile input: unknown base,
# a tarball base, unknown commits, bad before good, missing fields -> 4xx
# JSON; an unknown bisection is 404.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/gitlib.sh"
git_lab 10

spec() { # spec BROKEN_INDEX...: the simulated runner's answers
	local b=() i
	for i in "$@"; do b+=("${C[$i]}"); done
	jq -n --arg a "${C[7]}" --arg b "${C[8]}" --arg c "${C[9]}" --arg d "${C[10]}" \
		--args '{default: 100000, values: {($a): 90000, ($b): 90000, ($c): 90000,
		($d): 90000}, broken: $ARGS.positional}' "${b[@]}" >"$TMP/spec.json.new"
	mv "$TMP/spec.json.new" "$TMP/spec.json"
}
spec 5
fake_runner


bis() { jq -n --arg g "$1" --arg b "$2" --arg base "${3:-g}" \
	'{base:$base, good:$g, bad:$b, label:"by hand", runs:5, bench:{runtime:6, warmup:1}}'; }

# Hostile input first.
api POST /api/v1/bisections "$SUB" "$(bis "${C[0]}" "${C[10]}" nosuch)" >/dev/null
expect_status 422 "unknown base"
api POST /api/v1/bisections "$SUB" "$(bis "${C[0]}" "${C[10]}" linux-6.1)" >/dev/null
expect_status 422 "tarball base"
api POST /api/v1/bisections "$SUB" "$(bis 0123456789abcdef "${C[10]}")" >/dev/null
expect_status 422 "unknown good commit"
api POST /api/v1/bisections "$SUB" "$(bis "${C[0]}" -x)" >/dev/null
expect_status 422 "bad commit name with a dash"
api POST /api/v1/bisections "$SUB" "$(bis "${C[10]}" "${C[0]}")" >/dev/null
expect_status 422 "bad before good"
jq -e .error "$TMP/body" >/dev/null || fail "no JSON error"
api POST /api/v1/bisections "$SUB" '{"base":"g","good":"x"}' >/dev/null
expect_status 400 "missing bad"
api POST /api/v1/bisections "$SUB" "$(bis "${C[0]}" "${C[10]}" | jq '.runs = 0')" >/dev/null
expect_status 400 "runs 0"
api GET /api/v1/bisections/999 "$SUB" >/dev/null
expect_status 404 "unknown bisection"

# c7 is the culprit, c5 does not build.
body=$(api POST /api/v1/bisections "$SUB" "$(bis "${C[0]:0:10}" master)")
expect_status 201 "bisection"
B=$(jq -r .id <<<"$body")
check "$(jq -r .good <<<"$body")" = "${C[0]}" "good resolved"
check "$(jq -r .bad <<<"$body")" = "${C[10]}" "bad resolved"
# The first-parent list is read by the bisect worker, off the request.
for _ in $(seq 100); do
	[ "$(api GET /api/v1/bisections/$B "$SUB" | jq -r '.commits | length')" = 11 ] && break
	sleep 0.1
done
check "$(api GET /api/v1/bisections/$B "$SUB" | jq -r '.commits | length')" -eq 11 "first-parent list"
check "$(api GET /api/v1/bisections/$B "$SUB" | jq -r '.commits[0] + " " + .commits[10]')" = "${C[0]} ${C[10]}" "the list runs from good to bad"
wait_bisection $B
body=$(api GET /api/v1/bisections/$B "$SUB")
echo "$body" | jq -c '.steps[] | [.commit[0:8], .state, .delta_pct, .verdict, .bad]'
check "$(jq -r .state <<<"$body")" = done "bisection done"
check "$(jq -r .culprit.commit <<<"$body")" = "${C[7]}" "culprit is c7"
check "$(jq -r .culprit.subject <<<"$body")" = "c7: change 7" "culprit subject"
check "$(jq -r .culprit.author <<<"$body")" = Dev "culprit author"
check "$(jq -r .culprit.email <<<"$body")" = dev@example.org "culprit email"
check "$(jq -r .culprit.verdict <<<"$body")" = regression "culprit verdict"
check "$(jq -r '.culprit.patch_id | length' <<<"$body")" -eq 40 "culprit patch-id"
check "$(jq -r '.steps[0].commit' <<<"$body")" = "${C[10]}" "first step: the bad commit"
check "$(jq -r '.step_pct < -8 and .step_pct > -12' <<<"$body")" = true "step about -10 %"
check "$(jq -r "[.steps[] | select(.commit == \"${C[5]}\")][0].state" <<<"$body")" = skipped "c5 skipped"
check "$(jq -r "[.steps[] | select(.state == \"skipped\")] | length" <<<"$body")" -eq 1 "one skip"
# The last step is the culprit again, against its own parent (c6).
check "$(jq -r '.steps[-1].commit' <<<"$body")" = "${C[7]}" "confirmation of c7 last"
check "$(jq -r '([.steps[:-1][].commit] | unique | length) == (.steps | length) - 1' <<<"$body")" = true "no commit twice"
check "$(sql "SELECT v.base_commit FROM bisection_steps s JOIN variants v ON v.experiment_id = s.experiment_id AND v.name = 'parent' WHERE s.bisection_id = $B ORDER BY s.id DESC LIMIT 1")" = "${C[6]}" "confirmed against its parent c6"
check "$(jq -r '.culprit.delta_pct < -8 and .culprit.delta_pct > -12' <<<"$body")" = true "culprit delta vs its parent about -10 %"
for s in $(jq -r '.steps[] | select(.state == "done") | .commit' <<<"$body"); do
	i=$(for k in $(seq 0 10); do [ "${C[$k]}" = "$s" ] && echo $k; done)
	want=false; [ "$i" -ge 7 ] && want=true
	check "$(jq -r "[.steps[] | select(.commit == \"$s\") | .bad] | unique | join(\" \")" <<<"$body")" = $want "c$i bad=$want"
done
check "$(api GET /api/v1/bisections "$SUB" | jq -r ".bisections[0].culprit")" = "${C[7]}" "listed"
check "$(sql "SELECT count(DISTINCT coalesce(e.submitter_key_id, 0)) FROM bisection_steps s JOIN experiments e ON e.id = s.experiment_id WHERE s.bisection_id = $B")" -eq 1 "one submitter"
check "$(sql "SELECT count(*) FROM bisection_steps s JOIN experiments e ON e.id = s.experiment_id WHERE s.bisection_id = $B AND e.submitter_key_id IS NULL")" -eq 0 "steps are the submitter's"

# c5 and c6 broken: the first bad commit is one of c5, c6, c7.
spec 5 6
body=$(api POST /api/v1/bisections "$SUB" "$(bis "${C[0]}" "${C[10]}")")
expect_status 201 "second bisection"
B2=$(jq -r .id <<<"$body")
wait_bisection $B2
body=$(api GET /api/v1/bisections/$B2 "$SUB")
check "$(jq -r .state <<<"$body")" = done "range bisection done"
check "$(jq -r .culprit <<<"$body")" = null "no culprit"
check "$(jq -r '.skipped | join(" ")' <<<"$body")" = "${C[5]} ${C[6]}" "skipped c5 c6"
check "$(jq -r .range.good <<<"$body")" = "${C[4]}" "range from c4"
check "$(jq -r .range.bad <<<"$body")" = "${C[7]}" "range to c7"

# Neither the good nor the bad commit builds: the first step's
# experiment fails outright (no analysis); the timer ends the bisection.
spec 0 10
body=$(api POST /api/v1/bisections "$SUB" "$(bis "${C[0]}" "${C[10]}")")
expect_status 201 "third bisection"
B3=$(jq -r .id <<<"$body")
wait_bisection $B3
body=$(api GET /api/v1/bisections/$B3 "$SUB")
check "$(jq -r .state <<<"$body")" = failed "failed bisection"
jq -r .failure_reason <<<"$body" | grep -q "good commit" || fail "reason: $(jq -r .failure_reason <<<"$body")"
echo "bisect ok"
