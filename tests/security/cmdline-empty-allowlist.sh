#!/usr/bin/env bash
# Description: an empty kernel-parameter allowlist allows nothing. With
# every pattern deleted (the migration's perflab_canary= too), a submit
# key's variant with any cmdline (init=/bin/sh, quiet, perflab_canary=1)
# is refused 403 and nothing is stored; an empty cmdline still passes;
# adding one pattern allows exactly that parameter again. The runner's
# own parameters (perflab_job=, perflab_target=, perflab_bench=) are
# refused even from an admin key, also after other parameters.
. "$(dirname "$0")/../api/lib.sh"
start_daemon
SUB=$(make_key submit alice)
ADM=$(make_key admin root)
RUN=$(make_key runner r1)
register_host "$RUN" h1 lab local

exp() { # exp KEY VARIANT-JSON: POST an experiment with one more variant
	api POST /api/v1/experiments "$1" "{\"label\":\"lab\",\"runs\":1,
	  \"variants\":[{\"name\":\"A\"},$2]}"
}

# Empty the allowlist.
for id in $(api GET /api/v1/allowlist/cmdline "$SUB" | jq -r '.patterns[].id'); do
	api DELETE "/api/v1/allowlist/cmdline/$id" "$ADM" >/dev/null
	expect_status 200 "delete pattern $id"
done
check "$(api GET /api/v1/allowlist/cmdline "$SUB" | jq '.patterns | length')" -eq 0 "allowlist empty"
check "$(sql 'SELECT count(*) FROM cmdline_allowlist')" -eq 0 "no pattern stored"

for c in "init=/bin/sh" "quiet" "perflab_canary=1" "quiet init=/bin/sh"; do
	body=$(exp "$SUB" "{\"name\":\"B\",\"cmdline\":\"$c\"}")
	expect_status 403 "cmdline '$c' from a submit key, empty allowlist"
	grep -q "allowlist" <<<"$body" || fail "reason for '$c': $body"
done
check "$(sql 'SELECT count(*) FROM experiments')" -eq 0 "nothing stored from refused requests"

exp "$SUB" '{"name":"B","cmdline":""}' >/dev/null
expect_status 201 "an empty cmdline needs no pattern"

api POST /api/v1/allowlist/cmdline "$ADM" '{"pattern":"quiet"}' >/dev/null
expect_status 201 "admin adds one pattern"
exp "$SUB" '{"name":"B","cmdline":"quiet"}' >/dev/null
expect_status 201 "the one allowed parameter"
exp "$SUB" '{"name":"B","cmdline":"quiet init=/bin/sh"}' >/dev/null
expect_status 403 "one allowed parameter does not open the others"

# Reserved parameters anywhere in the line, even from an admin (which
# skips the allowlist): only kcmdline_check stands in the way.
for c in "perflab_job=1" "quiet perflab_job=1" "mitigations=off perflab_target=/dev/sda" \
	 "quiet perflab_bench=-d1"; do
	body=$(exp "$ADM" "{\"name\":\"B\",\"cmdline\":\"$c\"}")
	expect_status 422 "reserved parameter in '$c' from an admin key"
	grep -q "the runner sets it" <<<"$body" || fail "reason for '$c': $body"
done
check "$(sql "SELECT count(*) FROM variants WHERE cmdline LIKE '%perflab_job%' OR cmdline LIKE '%perflab_target%' OR cmdline LIKE '%perflab_bench%'")" -eq 0 "no reserved parameter stored"
echo "ok"
