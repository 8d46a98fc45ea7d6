#!/usr/bin/env bash
# Description: toggle experiments through the API. Refused: a
# toggle whose variants differ by patches or cmdline (400), settings
# without "toggle" (400), a path outside /proc/sys and /sys or with ".."
# (400), a submit key's setting not in the admins' allowlist (403; an
# admin adds it, then 201). A toggle with runs_per_boot 2 over 3 rounds
# is handed out as boots: one claim gives the first boot's 4 jobs in
# A B B A order, each with its own lease; one heartbeat on the last keeps
# them all past the lease time; results carry boot id and position and
# the experiment shows them per run; uploading the same run twice stores
# it once. A "setting" failure fails that variant with the reason and puts
# the boot's other leased jobs back in the queue (not failed). The
# comparison of a toggle is decided by the paired test and says so; of
# one boot, it says "this boot only" and raises no alert, and it shows
# the carry-over estimate of the ABBA order.
. "$(dirname "$0")/lib.sh"
start_daemon --lease-seconds 4
SUB=$(make_key submit alice)
ADM=$(make_key admin root)
R1=$(make_key runner r1)
register_host "$R1" host1 lab
P=/sys/module/perflab/parameters/canary

mk() { # mk SETTINGS_B [EXTRA_B] [TOP]: a toggle body
	jq -n --argjson sb "$1" --argjson xb "${2:-{\}}" --argjson top "${3:-{\}}" \
		'{title:"tog", label:"lab", runs:3, max_runs:3, toggle:true,
		  bench:{runtime:5, warmup:1},
		  variants:[{name:"A", settings:{"/sys/module/perflab/parameters/canary":"0"}},
			    ({name:"B", settings:$sb} + $xb)]} + $top'
}

api POST /api/v1/experiments "$SUB" "$(mk '{"/sys/module/perflab/parameters/canary":"8"}' '{"cmdline":"perflab_canary=1"}')" >/dev/null
expect_status 400 "variants that differ by cmdline"
grep -q "differ only by 'settings'" "$TMP/body" || fail "reason: $(cat "$TMP/body")"
api POST /api/v1/experiments "$SUB" '{"variants":[{"name":"A","settings":{"/proc/sys/kernel/x":"1"}}]}' >/dev/null
expect_status 400 "settings without toggle"
for bad in '/etc/passwd' '/sys/../etc/shadow' '/proc/sys/kernel//x' '/sys/a b'; do
	api POST /api/v1/experiments "$ADM" "$(mk "{\"$bad\":\"1\"}")" >/dev/null
	expect_status 400 "path $bad"
done
api POST /api/v1/experiments "$ADM" "$(mk "{\"$P\":\"1;reboot\"}")" >/dev/null
expect_status 400 "a value with a shell character"
api POST /api/v1/experiments "$SUB" "$(mk '{"/proc/sys/vm/drop_caches":"3"}')" >/dev/null
expect_status 403 "a setting not in the allowlist"
grep -q "allowlist" "$TMP/body" || fail "403 reason: $(cat "$TMP/body")"
api POST /api/v1/allowlist/settings "$ADM" '{"pattern":"/proc/sys/vm/*","note":"test"}' >/dev/null
expect_status 201 "admin allows /proc/sys/vm/*"
api POST /api/v1/allowlist/settings "$SUB" '{"pattern":"/proc/sys/*"}' >/dev/null
expect_status 403 "a submit key cannot add patterns"
api POST /api/v1/allowlist/settings "$ADM" '{"pattern":"/etc/*"}' >/dev/null
expect_status 422 "a pattern outside /proc/sys and /sys"
api POST /api/v1/experiments "$SUB" "$(mk '{"/proc/sys/vm/drop_caches":"3"}')" >/dev/null
expect_status 201 "allowed now"
sql "UPDATE experiments SET state = 'cancelled'; UPDATE jobs SET state = 'cancelled'"

body=$(api POST /api/v1/experiments "$SUB" "$(mk "{\"$P\":\"8\"}" '{}' '{"runs_per_boot":2}')")
expect_status 201 "toggle experiment"
id=$(jq -r .id <<<"$body")
exp=$(api GET "/api/v1/experiments/$id" "$SUB")
check "$(jq -r .toggle <<<"$exp")" = true "toggle shown"
check "$(jq -r .runs_per_boot <<<"$exp")" -eq 2 "runs_per_boot shown"
check "$(jq -r ".variants[1].settings[\"$P\"]" <<<"$exp")" = 8 "settings shown"

job=$(claim "$R1" host1 0)
expect_status 200 "claim the first boot"
check "$(jq '.toggle.runs | length' <<<"$job")" -eq 4 "one claim, the boot's 4 runs"
check "$(jq -r '[.toggle.runs[].variant.name] | join("")' <<<"$job")" = ABBA "A B B A"
check "$(jq '[.toggle.runs[].lease] | unique | length' <<<"$job")" -eq 4 "a lease each"
check "$(jq -r ".toggle.runs[1].variant.settings[\"$P\"]" <<<"$job")" = 8 "settings in the claim"
last_job=$(jq -r '.toggle.runs[3].job_id' <<<"$job")
last_lease=$(jq -r '.toggle.runs[3].lease' <<<"$job")
# Past the 4 s lease, kept alive by heartbeats on the last job only.
for i in 1 2 3; do
	sleep 2
	api POST "/api/v1/jobs/$last_job/heartbeat" "$R1" "{\"lease\":\"$last_lease\",\"phase\":\"run\"}" >/dev/null
	expect_status 200 "heartbeat $i"
done
check "$(sql "SELECT count(*) FROM jobs WHERE experiment_id = $id AND state = 'running'")" -eq 4 "the boot's 4 jobs still leased"

up() { # up INDEX POS: upload the boot's run INDEX
	local j l b
	j=$(jq -r ".toggle.runs[$1].job_id" <<<"$job")
	l=$(jq -r ".toggle.runs[$1].lease" <<<"$job")
	b=$(sample_result "$l" "$((100000 + $1))" | jq --argjson p "$2" '. + {boot: {id: "boot-one", pos: $p}}')
	api POST "/api/v1/jobs/$j/result" "$R1" "$b" >/dev/null
}
up 0 0; expect_status 201 "run 1"
up 0 0; expect_status 200 "run 1 again: the same stored run"
check "$(sql "SELECT count(*) FROM runs WHERE experiment_id = $id")" -eq 1 "run 1 stored once"
# Run 2 (B): the kernel refused its setting. Run 3 is B too, run 4 A.
j2=$(jq -r '.toggle.runs[1].job_id' <<<"$job")
l2=$(jq -r '.toggle.runs[1].lease' <<<"$job")
j3=$(jq -r '.toggle.runs[2].job_id' <<<"$job")
api POST "/api/v1/jobs/$j2/fail" "$R1" "{\"lease\":\"$l2\",\"reason\":\"setting\",\"log\":\"variant 'B': the kernel refused a setting: $P: writing '8' failed: Invalid argument\"}" >/dev/null
expect_status 200 "fail with reason setting"
exp=$(api GET "/api/v1/experiments/$id" "$SUB")
check "$(jq -r '.variants[1].state' <<<"$exp")" = failed "variant B failed"
grep -q "Invalid argument" <<<"$(jq -r '.variants[1].failure_log' <<<"$exp")" || fail "the kernel's words in the variant"
check "$(sql "SELECT state FROM jobs WHERE id = $last_job")" = queued "the boot's last run (A) back in the queue"
check "$(sql "SELECT state FROM jobs WHERE id = $j3")" = cancelled "the boot's other B run cancelled with its variant, not requeued"
check "$(sql "SELECT count(*) FROM jobs j JOIN variants v ON v.id = j.variant_id WHERE j.experiment_id = $id AND v.name = 'B' AND j.state = 'queued'")" -eq 0 \
	"no job of the failed variant left to hand out"
check "$(jq '[.runs[] | select(.boot_id == "boot-one")] | length' <<<"$exp")" -eq 1 "boot id per run"
check "$(jq -r '.runs[0].boot_pos' <<<"$exp")" -eq 0 "position per run"
api POST "/api/v1/jobs/$last_job/heartbeat" "$R1" "{\"lease\":\"$last_lease\"}" >/dev/null
expect_status 409 "the released lease is gone"

# The paired verdict: a second experiment, one boot, A/B differ by 1 %.
body=$(api POST /api/v1/experiments "$SUB" "$(mk "{\"$P\":\"8\"}" '{}' '{"runs":5,"max_runs":5}')")
expect_status 201 "second toggle"
id2=$(jq -r .id <<<"$body")
sql "UPDATE jobs SET state = 'cancelled' WHERE experiment_id = $id"
job=$(claim "$R1" host1 0)
check "$(jq -r .experiment_id <<<"$job")" -eq "$id2" "the second experiment"
check "$(jq '.toggle.runs | length' <<<"$job")" -eq 10 "all 10 runs in one boot"
hb_job=$(jq -r '.toggle.runs[9].job_id' <<<"$job")
hb_lease=$(jq -r '.toggle.runs[9].lease' <<<"$job")
for k in $(seq 0 9); do
	# the 4 s lease of this test: keep the boot's leases alive
	[ "$k" -lt 9 ] && api POST "/api/v1/jobs/$hb_job/heartbeat" "$R1" "{\"lease\":\"$hb_lease\"}" >/dev/null
	j=$(jq -r ".toggle.runs[$k].job_id" <<<"$job")
	l=$(jq -r ".toggle.runs[$k].lease" <<<"$job")
	v=$(jq -r ".toggle.runs[$k].variant.name" <<<"$job")
	iops=$([ "$v" = A ] && echo $((100000 + k * 7)) || echo $((99000 + k * 7)))
	api POST "/api/v1/jobs/$j/result" "$R1" "$(sample_result "$l" "$iops" | jq --argjson p "$k" '. + {boot: {id: "b2", pos: $p}}')" >/dev/null
	expect_status 201 "toggle run $k"
done
exp=$(wait_analysed "$id2" "$SUB")
check "$(jq -r .state <<<"$exp")" = done "second toggle done"
c=$(jq '.comparison[] | select(.variant == "B" and .metric == "iops")' <<<"$exp")
check "$(jq -r .verdict <<<"$c")" = regression "paired verdict"
grep -q "toggle design, paired: 5 pairs by round in 1 boot; paired t test" <<<"$(jq -r .result.text <<<"$c")" ||
	fail "verdict text does not name the paired test: $(jq -r .result.text <<<"$c")"
# One boot speaks for that boot only: said, and no alert.
grep -q "this boot only" <<<"$(jq -r .result.text <<<"$c")" ||
	fail "a one-boot verdict does not say 'this boot only': $(jq -r .result.text <<<"$c")"
check "$(sql "SELECT count(*) FROM alerts a JOIN comparisons c ON c.id = a.comparison_id WHERE c.experiment_id = $id2")" -eq 0 \
	"no alert for a one-boot regression"
grep -q "carry-over (order effect)" <<<"$(jq -r .result.text <<<"$c")" ||
	fail "no carry-over estimate: $(jq -r .result.text <<<"$c")"
echo "PASS"
