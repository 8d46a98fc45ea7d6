#!/usr/bin/env bash
# Description: malformed JSON, unknown fields, wrong types and out-of-range
# values get 400 with a reason; bodies over the limit 413; unknown
# endpoints 404, wrong methods 405; nothing is stored by refused requests.
. "$(dirname "$0")/lib.sh"
start_daemon
SUB=$(make_key submit alice)
RUN=$(make_key runner r1)
register_host "$RUN" h1

post() { # post PATH KEY BODY EXPECTED WHAT
	local b
	b=$(api POST "$1" "$2" "$3")
	expect_status "$4" "$5"
	jq -e '.error | length > 0' <<<"$b" >/dev/null || fail "$5: no error message: $b"
}
E=/api/v1/experiments
post $E "$SUB" '{"variants":[' 400 "truncated JSON"
post $E "$SUB" '[1,2]' 400 "not an object"
post $E "$SUB" '{"variants":[{"name":"A"}],"bogus":1}' 400 "unknown field"
post $E "$SUB" '{"variants":[{"name":"A"}],"runs":"5"}' 400 "runs as a string"
post $E "$SUB" '{"variants":[{"name":"A"}],"runs":0}' 400 "runs 0"
post $E "$SUB" '{"variants":[{"name":"A"}],"runs":101}' 400 "runs too many"
post $E "$SUB" '{"variants":[]}' 400 "no variants"
post $E "$SUB" '{"variants":[{"name":"A"},{"name":"A"}]}' 400 "duplicate variant"
post $E "$SUB" '{"variants":[{"name":"a b"}]}' 400 "bad variant name"
post $E "$SUB" '{"variants":[{"name":"A","patches":[999]}]}' 422 "unknown patch id"
post $E "$SUB" '{"variants":[{"name":"A","patches":["not a diff"]}]}' 400 "patch text that is not a patch"
post $E "$SUB" '{"variants":[{"name":"A"}],"bench":{"depth":"x"}}' 400 "bench type"
post $E "$SUB" '{"variants":[{"name":"A"}],"bench":{"foo":1}}' 400 "unknown bench parameter"
post $E "$SUB" '{"variants":[{"name":"A"}],"bench":{"runtime":2,"warmup":2}}' 400 "warmup >= runtime"
post $E "$SUB" "{\"variants\":[{\"name\":\"A\"}],\"title\":\"$(printf 'x%.0s' $(seq 300))\"}" 400 "title too long"
post $E "$SUB" '{"variants":[{"name":"A"}],"a":1,"a":2}' 400 "duplicate keys"
post $E "$SUB" '{"variants":[{"name":"A","control":true},{"name":"B","control":true}]}' 400 "two controls"
post $E "$SUB" '{"variants":[{"name":"A"}],"base":"nope"}' 422 "unknown base"
check "$(sql 'SELECT count(*) FROM experiments')" -eq 0 "nothing stored"

post /api/v1/hosts/register "$RUN" '{"name":"h1"}' 400 "register without backend"
post /api/v1/hosts/register "$RUN" '{"name":"h1","backend":"local","facts":{"cpus":"two"}}' 400 "facts type"
post /api/v1/jobs/claim "$RUN" '{}' 400 "claim without host"
post /api/v1/jobs/claim "$RUN" '{"host":"h1","wait":-1}' 400 "negative wait"
post /api/v1/jobs/claim "$RUN" '{"host":"nope"}' 404 "unknown host"
post /api/v1/jobs/1/heartbeat "$RUN" '{}' 400 "heartbeat without lease"
post /api/v1/jobs/1/fail "$RUN" '{"lease":"x","reason":"flaky"}' 400 "unknown failure reason"

# Result validation happens before the lease is looked at.
api POST $E "$SUB" '{"runs":1,"variants":[{"name":"A"}]}' >/dev/null
job=$(claim "$RUN" h1 0)
id=$(jq -r .job_id <<<"$job")
lease=$(jq -r .lease <<<"$job")
post /api/v1/jobs/$id/result "$RUN" "$(sample_result "$lease" | jq '.bench.version = 2')" 400 "bench version"
post /api/v1/jobs/$id/result "$RUN" "$(sample_result "$lease" | jq '.bench.samples[1].t = 1')" 400 "sample t not increasing"
post /api/v1/jobs/$id/result "$RUN" "$(sample_result "$lease" | jq '.bench.samples[0].iops = "many"')" 400 "sample type"
post /api/v1/jobs/$id/result "$RUN" "$(sample_result "$lease" | jq 'del(.bench.summary)')" 400 "no summary"
post /api/v1/jobs/$id/result "$RUN" "$(sample_result "$lease" | jq '.extra = 1')" 400 "unknown result field"
check "$(sql 'SELECT count(*) FROM runs')" -eq 0 "no run stored"

# 413: over the 1 MiB limit of small endpoints, and announced lengths.
head -c $((1200 * 1024)) /dev/zero | tr '\0' ' ' >"$TMP/big"
api POST /api/v1/jobs/claim "$RUN" "@$TMP/big" >/dev/null
expect_status 413 "claim body over 1 MiB"
head -c $((9 * 1024 * 1024)) /dev/zero | tr '\0' 'a' >"$TMP/huge"
api POST /api/v1/patches "$SUB" "@$TMP/huge" >/dev/null
expect_status 413 "patch over 8 MiB"
code=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $SUB" \
	-H 'Transfer-Encoding: chunked' --data-binary "@$TMP/huge" "$BASE/api/v1/patches")
check "$code" = 413 "chunked body over the limit"

api GET /api/v1/nothing "$SUB" >/dev/null
expect_status 404 "unknown endpoint"
api DELETE /api/v1/experiments "$SUB" >/dev/null
expect_status 405 "wrong method"
api GET /api/v1/experiments/999 "$SUB" >/dev/null
expect_status 404 "unknown experiment"
api GET /api/v1/experiments/abc "$SUB" >/dev/null
expect_status 404 "non-numeric id"
api GET "/api/v1/experiments?state=bogus" "$SUB" >/dev/null
expect_status 400 "bad state filter"
curl -s "$BASE/healthz" >/dev/null || fail "daemon died"
echo "ok"
