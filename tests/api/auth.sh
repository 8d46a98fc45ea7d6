#!/usr/bin/env bash
# Description: missing or invalid keys get 401, a key of the wrong role 403;
# a runner key is bound to the first host it registers and cannot act for
# another host; admin keys may do everything.
. "$(dirname "$0")/lib.sh"
start_daemon
SUB=$(make_key submit alice)
ADM=$(make_key admin root)
R1=$(make_key runner r1)
R2=$(make_key runner r2)

api GET /api/v1/experiments "" >/dev/null
expect_status 401 "no key"
api GET /api/v1/experiments "plk_000000000000_$(printf '0%.0s' $(seq 64))" >/dev/null
expect_status 401 "unknown key"
bad=${SUB%?}x
api GET /api/v1/experiments "$bad" >/dev/null
expect_status 401 "wrong secret with a valid prefix"
api GET /api/v1/experiments "garbage" >/dev/null
expect_status 401 "malformed key"
curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Basic $SUB" "$BASE/api/v1/experiments" >"$TMP/status"
expect_status 401 "not a bearer token"

api GET /api/v1/experiments "$SUB" >/dev/null
expect_status 200 "submit key reads"
api GET /api/v1/experiments "$R1" >/dev/null
expect_status 403 "runner key may not read experiments"
api POST /api/v1/experiments "$R1" '{"variants":[{"name":"A"}]}' >/dev/null
expect_status 403 "runner key may not submit"
api POST /api/v1/jobs/claim "$SUB" '{"host":"h1"}' >/dev/null
expect_status 403 "submit key may not claim"
api POST /api/v1/hosts/register "$SUB" '{"name":"h1","backend":"local"}' >/dev/null
expect_status 403 "submit key may not register"
api POST /api/v1/bases "$SUB" '{"name":"b2","tree":"git://x"}' >/dev/null
expect_status 403 "submit key may not add bases"
api POST /api/v1/bases "$ADM" '{"name":"b2","tree":"git://x"}' >/dev/null
expect_status 201 "admin adds a base"

# Runner keys act for their own host only.
api POST /api/v1/jobs/claim "$R1" '{"host":"h1"}' >/dev/null
expect_status 403 "claim before registering"
register_host "$R1" h1
register_host "$R1" h1
api POST /api/v1/hosts/register "$R1" '{"name":"h-other","backend":"local"}' >/dev/null
expect_status 403 "runner key registering a second host"
api POST /api/v1/hosts/register "$R2" '{"name":"h1","backend":"local"}' >/dev/null
expect_status 409 "another key taking over h1 (the name is registered by r1)"
register_host "$R2" h2
api POST /api/v1/jobs/claim "$R2" '{"host":"h1"}' >/dev/null
expect_status 403 "claim for another host"
api POST /api/v1/experiments "$SUB" '{"runs":1,"variants":[{"name":"A"}]}' >/dev/null
job=$(claim "$R1" h1 0)
expect_status 200 "own claim"
api POST "/api/v1/jobs/$(jq -r .job_id <<<"$job")/heartbeat" "$R2" "{\"lease\":\"$(jq -r .lease <<<"$job")\"}" >/dev/null
expect_status 409 "another host's runner key cannot heartbeat the lease"
api POST "/api/v1/jobs/$(jq -r .job_id <<<"$job")/heartbeat" "$ADM" "{\"lease\":\"$(jq -r .lease <<<"$job")\"}" >/dev/null
expect_status 200 "admin may act for any host"
check "$(sql "SELECT count(*) FROM api_keys WHERE hash LIKE '%' || substr('$SUB', 18) || '%'")" -eq 0 "key not stored in clear"

# A revoked key (never cached) is refused.
OLD=$(make_key submit old)
"$PERFLABD" key revoke old --db "$DB" >/dev/null || fail "key revoke"
api GET /api/v1/experiments "$OLD" >/dev/null
expect_status 401 "revoked key"
"$PERFLABD" key list --db "$DB" | grep -q '^old .* revoked$' || fail "key list does not show the revocation"

# Public endpoints.
api GET /healthz "" >/dev/null
expect_status 200 "healthz needs no key"
api GET /metrics "" >/dev/null
expect_status 200 "metrics needs no key"
echo "ok"
