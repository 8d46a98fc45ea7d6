#!/usr/bin/env bash
# Description: only admin keys change the cmdline allowlist and the
# setup scripts (submit and runner keys get 403, no key 401); submit keys
# may read both; patterns that would allow everything ("*", "=x") or more
# than one parameter are refused with 422, a repeated one with 409.
. "$(dirname "$0")/../api/lib.sh"
start_daemon
SUB=$(make_key submit alice)
ADM=$(make_key admin root)
RUN=$(make_key runner r1)

for k in "$SUB" "$RUN"; do
	api POST /api/v1/allowlist/cmdline "$k" '{"pattern":"init="}' >/dev/null
	expect_status 403 "non-admin adds a pattern"
	api PUT /api/v1/setup-scripts/x "$k" '{"script":"id"}' >/dev/null
	expect_status 403 "non-admin stores a script"
	api DELETE /api/v1/allowlist/cmdline/1 "$k" >/dev/null
	expect_status 403 "non-admin deletes a pattern"
	api DELETE /api/v1/setup-scripts/x "$k" >/dev/null
	expect_status 403 "non-admin deletes a script"
done
api POST /api/v1/allowlist/cmdline "" '{"pattern":"init="}' >/dev/null
expect_status 401 "no key"
check "$(sql 'SELECT group_concat(pattern) FROM cmdline_allowlist')" = "perflab_canary=" "only the seeded pattern"
check "$(sql 'SELECT count(*) FROM setup_scripts')" -eq 0 "no script stored"

api GET /api/v1/allowlist/cmdline "$SUB" >/dev/null
expect_status 200 "submit key reads the allowlist"
for p in '*' '=x' 'a b' 'a*b' 'x=\"y'; do
	api POST /api/v1/allowlist/cmdline "$ADM" "{\"pattern\":\"$p\"}" >/dev/null
	expect_status 422 "pattern '$p'"
done
api POST /api/v1/allowlist/cmdline "$ADM" '{"pattern":"perflab_canary="}' >/dev/null
expect_status 409 "repeated pattern"
api PUT /api/v1/setup-scripts/x "$ADM" '{"script":"echo 1"}' >/dev/null
expect_status 201 "new script"
api PUT /api/v1/setup-scripts/x "$ADM" '{"script":"echo 2"}' >/dev/null
expect_status 200 "replaced script"
check "$(api GET /api/v1/setup-scripts/x "$SUB" | jq -r .script)" = "echo 2" "submit key reads the script"
check "$(api GET /api/v1/setup-scripts "$SUB" | jq -r '.scripts | length')" -eq 1 "one script listed"
api DELETE /api/v1/setup-scripts/x "$ADM" >/dev/null
expect_status 200 "admin deletes the script"
api GET /api/v1/setup-scripts/x "$SUB" >/dev/null
expect_status 404 "deleted script"
echo ok
