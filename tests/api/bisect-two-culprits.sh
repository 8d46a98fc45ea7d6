#!/usr/bin/env bash
# Description: several culprits in one range are each found and
# reported, and a range whose step does not reproduce ends as "did not
# reproduce" with no culprit and no alert. A simulated runner answers by
# commit with noise: c0..c8, IOPS 5 % lower from c3 on and 10 % lower
# from c6 on. The bisection c0..c8 reproduces the 10 % step; its midpoint
# c4 lies between both ends (its CI is more than a fifth of the step
# from good and from bad's CI, bisect_splits), so it ends "split" and two child bisections take over,
# c0..c4 and c4..c8, each measuring its own step first: they name c3 and
# c6, each confirmed against its parent (-5 % and -5.3 %), and each
# raises its own alert; the parent names none. A second range c8..c12
# holds an improvement (c10, +5 %) and a regression that cancels it
# (c11): bad vs good is no change, the bisection is done with outcome
# did_not_reproduce, no culprit, no alert (before: state failed).
# Cost: about 30 s.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/gitlib.sh"
command -v python3 >/dev/null || skip "python3 is not installed"
start_daemon
SUB=$(make_key submit alice)
ADM=$(make_key admin root)
R1=$(make_key runner r1)
REPO=$TMP/repo
make_repo "$REPO" 12
for i in $(seq 0 12); do C[$i]=$(commit_of "$REPO" $i); done
api POST /api/v1/bases "$ADM" "$(jq -n --arg u "$REPO" '{name:"g", git:$u}')" >/dev/null
expect_status 201 "git base"
jq -n --args '{default: 100000, values: ([$ARGS.positional[0:3][] | {(.): 95000}] +
	[$ARGS.positional[3:9][] | {(.): 90000}] + [{($ARGS.positional[9]): 94500}] | add)}' \
	"${C[3]}" "${C[4]}" "${C[5]}" "${C[6]}" "${C[7]}" "${C[8]}" "${C[9]}" "${C[11]}" "${C[12]}" "${C[10]}" \
	>"$TMP/spec.json"
python3 "$TOP/tests/lib/fake_runner.py" "$BASE" "$R1" sim lab --spec "$TMP/spec.json" \
	>"$TMP/runner.log" 2>&1 &
RUNNER=$!
trap 'kill $RUNNER 2>/dev/null; cleanup' EXIT

bisect() {
	api POST /api/v1/bisections "$SUB" "$(jq -n --arg g "$1" --arg b "$2" \
		'{base:"g", good:$g, bad:$b, runs:5, bench:{runtime:6, warmup:1}}')"
}
ended() {	# ID: wait until it and all its children have ended
	local b
	for _ in $(seq 600); do
		b=$(api GET /api/v1/bisections/$1 "$SUB")
		if [ "$(jq -r .state <<<"$b")" != running ]; then
			local kids=$(jq -r '.children[].id' <<<"$b") k ok=1
			for k in $kids; do ended "$k" >/dev/null || ok=0; done
			[ $ok = 1 ] && { echo "$b"; return 0; }
		fi
		kill -0 $RUNNER 2>/dev/null || fail "the simulated runner died: $(tail "$TMP/runner.log")"
		sleep 0.5
	done
	return 1
}
body=$(bisect "${C[0]}" "${C[8]}")
expect_status 201 "bisection c0..c8"
P=$(jq -r .id <<<"$body")
body=$(bisect "${C[8]}" "${C[12]}")
expect_status 201 "bisection c8..c12"
Q=$(jq -r .id <<<"$body")

par=$(ended "$P") || fail "c0..c8 did not end"
echo "$par" | jq -c '{state, outcome, failure_reason, children}'
echo "$par" | jq -c '.steps[] | [.commit[0:8], .call, .delta_pct, .ci_lo, .ci_hi]'
check "$(jq -r .outcome <<<"$par")" = split "c0..c8 split"
check "$(jq -r .state <<<"$par")" = done "a split is done"
check "$(jq -r .culprit <<<"$par")" = null "the parent names no commit"
check "$(jq -r '"\(.metric)/\(.direction)"' <<<"$par")" = iops/regression "metric and direction"
check "$(jq -r "[.steps[] | select(.commit == \"${C[4]}\")][0].call" <<<"$par")" = between "c4 between"
check "$(jq -r '.children | length' <<<"$par")" -eq 2 "two children"
L=$(jq -r '.children[0].id' <<<"$par")
R=$(jq -r '.children[1].id' <<<"$par")
left=$(api GET /api/v1/bisections/$L "$SUB")
right=$(api GET /api/v1/bisections/$R "$SUB")
for b in "$left" "$right"; do
	echo "$b" | jq -c '{id, good: .good[0:8], bad: .bad[0:8], outcome, culprit: .culprit.commit[0:8], delta: .culprit.delta_pct, parent_id}'
done
check "$(jq -r .good <<<"$left")/$(jq -r .bad <<<"$left")" = "${C[0]}/${C[4]}" "left child c0..c4"
check "$(jq -r .good <<<"$right")/$(jq -r .bad <<<"$right")" = "${C[4]}/${C[8]}" "right child c4..c8"
check "$(jq -r .parent_id <<<"$left")" = "$P" "child's parent"
check "$(jq -r .culprit.commit <<<"$left")" = "${C[3]}" "culprit c3"
check "$(jq -r .culprit.commit <<<"$right")" = "${C[6]}" "culprit c6"
check "$(jq -r '.culprit.delta_pct | . < -4.8 and . > -5.2' <<<"$left")" = true "c3 -5 % against c2"
check "$(jq -r '.culprit.delta_pct | . < -5.0 and . > -5.5' <<<"$right")" = true "c6 -5.3 % against c5"
check "$(sql "SELECT count(*) FROM alerts WHERE kind = 'bisection' AND bisection_id IN ($L, $R)")" -eq 2 \
	"each culprit reported"
check "$(sql "SELECT count(*) FROM alerts WHERE bisection_id = $P")" -eq 0 "no alert for the split"

q=$(ended "$Q") || fail "c8..c12 did not end"
echo "$q" | jq -c '{state, outcome, failure_reason}'
check "$(jq -r .outcome <<<"$q")" = did_not_reproduce "cancelling pair: did not reproduce"
check "$(jq -r .state <<<"$q")" = done "done, not failed"
check "$(jq -r .culprit <<<"$q")" = null "no culprit"
jq -r .failure_reason <<<"$q" | grep -q "did not reproduce" || fail "reason: $(jq -r .failure_reason <<<"$q")"
check "$(jq -r '.steps[0].call' <<<"$q")" = did_not_reproduce "its step's call"
check "$(sql "SELECT count(*) FROM alerts WHERE bisection_id = $Q")" -eq 0 "no alert"
list=$(api GET /api/v1/bisections "$SUB")
check "$(jq -r "[.bisections[] | select(.parent_id == $P)] | length" <<<"$list")" -eq 2 "children listed"
echo "bisect-two-culprits ok"
