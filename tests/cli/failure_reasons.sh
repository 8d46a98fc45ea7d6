#!/usr/bin/env bash
# Description: the CLI reads the failure reasons from the daemon:
# `perflab failure-reasons` lists every reason of GET
# /api/v1/failure-reasons with retryable / bisect / who reports it (the
# API's answer is the reference), --json prints the answer itself, and
# `perflab show` explains a failed variant's reason with the table's
# meaning and advice.
. "$(dirname "$0")/lib.sh"
. "$top/tests/cli/patch.sh"
cli_need_daemon
cli_start_daemon
key=$(cli_key submit cli-test)
run=$(cli_key runner r1)
pl() { "$PERFLAB" --server "$URL" --key "$key" "$@"; }

ref=$(api GET /api/v1/failure-reasons "$key")
expect_status 200 "failure reasons"
expect_rc 0 pl failure-reasons
n=$(jq '.reasons | length' <<<"$ref")
check "$(grep -c . "$TMP/out")" -eq $((n + 1)) "one line per reason and a header"
for i in $(seq 0 $((n - 1))); do
	name=$(jq -r ".reasons[$i].name" <<<"$ref")
	retry=$(jq -r "if .reasons[$i].retryable then \"yes\" else \"no\" end" <<<"$ref")
	bis=$(jq -r ".reasons[$i].bisect" <<<"$ref")
	by=$(jq -r ".reasons[$i].reported_by | join(\",\")" <<<"$ref")
	line=$(grep "^$name " "$TMP/out") || fail "no line for $name"
	read -r n1 r1 b1 w1 _ <<<"$line"
	check "$n1 $r1 $b1 $w1" = "$name $retry $bis $by" "line of $name"
	grep -qF "$(jq -r ".reasons[$i].meaning" <<<"$ref")" <<<"$line" || fail "meaning of $name: $line"
done
expect_rc 0 pl failure-reasons --json
check "$(jq -cS . "$TMP/out")" = "$(jq -cS . <<<"$ref")" "--json is the API's answer"
expect_rc 2 pl failure-reasons extra

# A variant that failed with build: show explains it from the table.
register_host "$run" h1
write_patch "$TMP/a.patch" "cli test: a comment"
expect_rc 0 pl submit "$TMP/a.patch" --runs 1 -q
id=$(cat "$TMP/out")
for _ in 1 2; do
	job=$(claim "$run" h1 1)
	if [ "$(jq -r .variant.name <<<"$job")" = base ]; then
		api POST "/api/v1/jobs/$(jq -r .job_id <<<"$job")/result" "$run" \
			"$(sample_result "$(jq -r .lease <<<"$job")")" >/dev/null
		expect_status 201 "base result"
		continue
	fi
	api POST "/api/v1/jobs/$(jq -r .job_id <<<"$job")/fail" "$run" \
		"$(jq -n --arg l "$(jq -r .lease <<<"$job")" '{lease: $l, reason: "build", log: "cc: error"}')" >/dev/null
	expect_status 200 "fail build"
done
expect_rc 0 pl show "$id"
meaning=$(jq -r '.reasons[] | select(.name == "build") | .meaning' <<<"$ref")
grep "failed: build" "$TMP/out" | grep -qF "$meaning" || fail "show does not explain build: $(cat "$TMP/out")"
echo "ok"
