#!/usr/bin/env bash
# Description: from a submit key, a variant's raw 'setup' (shell run as
# root on local/kexec hosts) and kernel parameters off the admins'
# allowlist (init=, systemd.run=) are refused with the reason; a stored
# setup script named by 'setup_script' and allowlisted parameters
# (perflab_canary= from the migration, null_blk.* added by an admin) are
# accepted, and the runner gets the script's text. Admin keys may use raw
# setup and any parameter.
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

# Raw setup from a submit key: refused, nothing stored.
body=$(exp "$SUB" '{"name":"B","setup":"cat /etc/shadow"}')
expect_status 403 "raw setup from a submit key"
grep -q "setup_script" <<<"$body" || fail "the refusal names the way out: $body"
for c in "init=/bin/sh" "systemd.run=/tmp/x" "quiet init=/bin/sh" "perflab_canary=1 rdinit=/x"; do
	body=$(exp "$SUB" "{\"name\":\"B\",\"cmdline\":\"$c\"}")
	expect_status 403 "cmdline '$c' from a submit key"
	grep -q "allowlist" <<<"$body" || fail "reason for '$c': $body"
done
# Quotes would let the kernel see parameters other than the ones checked.
exp "$SUB" '{"name":"B","cmdline":"perflab_canary=\"1 init=/bin/sh\""}' >/dev/null
expect_status 422 "quoted cmdline"
exp "$SUB" '{"name":"B","setup_script":"nope"}' >/dev/null
expect_status 422 "unknown setup script"
check "$(sql 'SELECT count(*) FROM experiments')" -eq 0 "no experiment stored from refused requests"

# The canary is allowlisted by the migration.
exp "$SUB" '{"name":"B","cmdline":"perflab_canary=16"}' >/dev/null
expect_status 201 "perflab_canary from a submit key"

# An admin allows null_blk.* and stores a script.
api POST /api/v1/allowlist/cmdline "$ADM" '{"pattern":"null_blk.*","note":"null_blk tuning"}' >/dev/null
expect_status 201 "admin adds a pattern"
api PUT /api/v1/setup-scripts/nullb-deep "$ADM" '{"script":"echo deep-queue","description":"deeper null_blk"}' >/dev/null
expect_status 201 "admin stores a script"
body=$(exp "$SUB" '{"name":"B","cmdline":"null_blk.hw_queue_depth=2048 perflab_canary=1","setup_script":"nullb-deep"}')
expect_status 201 "allowlisted cmdline and stored script from a submit key"
id=$(jq -r .id <<<"$body")
check "$(sql "SELECT setup FROM variants WHERE experiment_id = $id AND name = 'B'")" = "echo deep-queue" "script text copied into the variant"
check "$(sql "SELECT setup_script FROM variants WHERE experiment_id = $id AND name = 'B'")" = "nullb-deep" "script name recorded"
exp "$SUB" '{"name":"B","setup_script":"nullb-deep","setup":"id"}' >/dev/null
expect_status 422 "setup and setup_script together"

# Admin keys: raw setup and any parameter.
exp "$ADM" '{"name":"B","setup":"echo admin","cmdline":"mitigations=off"}' >/dev/null
expect_status 201 "raw setup and cmdline from an admin key"

# Removing the pattern refuses it again.
pid=$(api GET /api/v1/allowlist/cmdline "$SUB" | jq -r '.patterns[] | select(.pattern == "null_blk.*") | .id')
api DELETE "/api/v1/allowlist/cmdline/$pid" "$ADM" >/dev/null
expect_status 200 "admin deletes the pattern"
exp "$SUB" '{"name":"B","cmdline":"null_blk.hw_queue_depth=2048"}' >/dev/null
expect_status 403 "deleted pattern no longer allowed"
echo "ok"
