#!/usr/bin/env bash
# Description: POST /api/v1/compare against a real perflabd: the seed 001
# logs (two named logs, and the raw mail text with its "Old behavior:" /
# "Turning it on:" labels) come back "no change" with the MDE and the LKP
# table; bad input gets 4xx with {"error"}; no key gets 401.
. "$(dirname "$0")/../api/lib.sh"

start_daemon
KEY=$(make_key submit tester)
F=$TOP/tests/fixtures

body=$(jq -n --rawfile a "$F/seed001-old.log" --rawfile b "$F/seed001-new.log" \
	'{logs: [{name: "old", text: $a}, {name: "new", text: $b}]}')
out=$(api POST /api/v1/compare "$KEY" "$body")
expect_status 200 "compare two logs"
check "$(jq -r '.comparisons[0].verdict' <<<"$out")" = "no change" "seed 001 verdict"
summary=$(jq -r '.comparisons[0].summary' <<<"$out")
case $summary in *"MDE "*"at 12/10 seconds"*) ;; *) fail "summary without MDE: $summary" ;; esac
jq -r .text <<<"$out" | grep -q '%stddev' || fail "no LKP table in text"
jq -r .text <<<"$out" | grep -Eq '^ +3529869 .* iops$' || fail "iops row: $(jq -r .text <<<"$out")"
echo "$summary"

# The raw mail text, as pasted.
printf 'Old behavior:\n\n%s\nTurning it on:\n\n%s' "$(cat "$F/seed001-old.log")" \
	"$(cat "$F/seed001-new.log")" >"$TMP/mail.txt"
out=$(curl -s -w '\n%{http_code}' -H "Authorization: Bearer $KEY" \
	--data-binary @"$TMP/mail.txt" "$BASE/api/v1/compare")
check "$(tail -n1 <<<"$out")" = 200 "raw body status"
check "$(head -n -1 <<<"$out" | jq -r '.comparisons[0].control')" = "Old behavior" "label from mail"
check "$(head -n -1 <<<"$out" | jq -r '.comparisons[0].verdict')" = "no change" "raw verdict"

# Bad input.
api POST /api/v1/compare "$KEY" '{"logs": [{"name": "a", "text": "nothing here"}, {"name": "b", "text": "IOPS=1"}]}' >/dev/null
expect_status 422 "log without IOPS lines"
jq -e '.error | test("no IOPS")' "$TMP/body" >/dev/null || fail "error text: $(cat "$TMP/body")"
api POST /api/v1/compare "$KEY" '{"logs": "x"}' >/dev/null
expect_status 400 "logs not an array"
api POST /api/v1/compare "$KEY" '{"logs": [], "bogus": 1}' >/dev/null
expect_status 400 "unknown field"
api POST /api/v1/compare "$KEY" "$(jq -n --rawfile a "$F/seed001-old.log" '{logs: [{name: "only", text: $a}]}')" >/dev/null
expect_status 422 "one variant only"
api POST /api/v1/compare "" "$body" >/dev/null
expect_status 401 "no key"
echo "compare API ok"
