#!/usr/bin/env bash
# Description: uploading the same result twice stores one run (the second
# answer is 200 duplicate with the same run_id); samples, profile symbols
# (deduplicated across runs), stacks, build and boot logs are stored.
. "$(dirname "$0")/lib.sh"
start_daemon
SUB=$(make_key submit alice)
RUN=$(make_key runner r1)
register_host "$RUN" host1

api POST /api/v1/experiments "$SUB" '{"runs":1,"max_runs":1,"variants":[{"name":"A"},{"name":"B"}]}' >/dev/null
expect_status 201 "create"
job=$(claim "$RUN" host1 1)
id=$(jq -r .job_id <<<"$job")
sample_result "$(jq -r .lease <<<"$job")" 200000 7 >"$TMP/r.json"
r1=$(api POST "/api/v1/jobs/$id/result" "$RUN" "@$TMP/r.json")
expect_status 201 "first upload"
r2=$(api POST "/api/v1/jobs/$id/result" "$RUN" "@$TMP/r.json")
expect_status 200 "second upload"
check "$(jq -r .duplicate <<<"$r2")" = true "marked duplicate"
check "$(jq -r .run_id <<<"$r2")" = "$(jq -r .run_id <<<"$r1")" "same run id"
run=$(jq -r .run_id <<<"$r1")
check "$(sql 'SELECT count(*) FROM runs')" -eq 1 "one run stored"
check "$(sql "SELECT count(*) FROM samples WHERE run_id = $run")" -eq 7 "7 samples"
check "$(sql "SELECT sum(iops) FROM samples WHERE run_id = $run")" -eq $((7 * 200000 + 280)) "sample values"
check "$(sql "SELECT event || '/' || total FROM profiles WHERE run_id = $run")" = "cpu-clock/1000" "profile header"
check "$(sql "SELECT samples FROM profile_symbols ps JOIN symbols s ON s.id = ps.symbol_id WHERE run_id = $run AND s.name = 'blk_mq_get_tag'")" -eq 123 "symbol count"
check "$(sql "SELECT count(*) FROM profile_stacks WHERE run_id = $run")" -eq 1 "stack stored"
check "$(api GET "/api/v1/runs/$run/logs/build" "$SUB")" = "build log text" "build log"
check "$(api GET "/api/v1/runs/$run/logs/boot" "$SUB")" = "boot log text" "boot log"

# A second run with the same symbols reuses them.
job=$(claim "$RUN" host1 1)
api POST "/api/v1/jobs/$(jq -r .job_id <<<"$job")/result" "$RUN" "$(sample_result "$(jq -r .lease <<<"$job")")" >/dev/null
expect_status 201 "second run"
check "$(sql 'SELECT count(*) FROM symbols')" -eq 2 "symbols deduplicated"
check "$(sql 'SELECT count(*) FROM profile_symbols')" -eq 4 "per-run counts kept"
check "$(sql 'SELECT count(*) FROM stacks')" -eq 1 "stacks deduplicated"

exp=$(api GET /api/v1/experiments/1 "$SUB")
check "$(jq '.runs | length' <<<"$exp")" -eq 2 "two runs in the experiment"
check "$(jq -r '.runs[0].samples[2].iops' <<<"$exp")" -eq 200030 "per-second samples in the API"
check "$(jq -r '.runs[0].ring_flags[0]' <<<"$exp")" = SINGLE_ISSUER "ring flags"
check "$(jq -r '.runs[0].device.name' <<<"$exp")" = nullb0 "device facts"
check "$(jq -r '.runs[0].cpu.sys_ns_per_io' <<<"$exp")" = 3900.2 "cpu per io"
check "$(jq -r '.runs[0].build.cached' <<<"$exp")" = false "build info"

# A result for a job that was not claimed with this lease.
api POST "/api/v1/jobs/$id/result" "$RUN" "$(sample_result 0123456789abcdef0123456789abcdef)" >/dev/null
expect_status 409 "unknown lease on a finished job"
api POST "/api/v1/jobs/999/result" "$RUN" "$(sample_result 0123456789abcdef0123456789abcdef)" >/dev/null
expect_status 404 "no such job"
echo "ok"
