#!/usr/bin/env bash
# Description: POST/GET /api/v1/calibrations without QEMU:
# bad bodies are refused (400/422); a ladder pinned to a host (steps
# 0,4,16, 2 runs) creates a kind 'calibration' experiment with one
# perflab_canary=N variant per step and the ns/IO bench defaults; hand-made
# results (ns/IO = 2400 + 3 N) give a fit with cost 3 ns per unit and
# R^2 >= 0.99, per-step comparisons, the noise/MDE, and GET /api/v1/hosts
# shows that calibration and the ladder for the host; a second ladder
# reuses the stored patch; an A/A by label has two identical variants.
. "$(dirname "$0")/lib.sh"
patch=$TOP/kernel-patches/0004-block-perflab_canary-calibration-parameter.patch
[ -f "$patch" ] || skip "$patch missing"
start_daemon
SUB=$(make_key submit cal)
RUN=$(make_key runner cal-runner)
register_host "$RUN" host1

post() { api POST /api/v1/calibrations "$SUB" "$1" >/dev/null; }
post '{"label":"qemu-icount","kind":"bb"}'
expect_status 400 "bad kind"
post '{"kind":"aa"}'
expect_status 400 "no label or host"
post '{"label":"qemu-icount","kind":"ladder","steps":[1,2]}'
expect_status 400 "steps without 0"
post '{"label":"qemu-icount","kind":"ladder","steps":[0,0]}'
expect_status 400 "duplicate steps"
post '{"label":"qemu-icount","kind":"aa","steps":[0,1]}'
expect_status 400 "steps for an A/A"
post '{"label":"qemu-icount","kind":"aa","colour":1}'
expect_status 400 "unknown field"
post '{"label":"qemu-icount","kind":"aa","runs":1}'
expect_status 400 "one run"
post '{"host":"nohost","kind":"aa"}'
expect_status 422 "unknown host"
post '{"label":"qemu-icount","kind":"ladder"}'
expect_status 422 "ladder without a stored perflab_canary patch"

body=$(jq -n --rawfile p "$patch" '{host: "host1", kind: "ladder", steps: [0, 4, 16], runs: 2, patch: $p}')
r=$(api POST /api/v1/calibrations "$SUB" "$body")
expect_status 201 "ladder"
id=$(jq -r .id <<<"$r")
check "$(jq -r .jobs <<<"$r")" = 6 "6 jobs"
check "$(sql "SELECT kind || ' ' || host_id || ' ' || json_extract(bench, '$.ios') FROM experiments WHERE id = $id")" \
	= "calibration 1 100000" "kind, pinned host, ns/IO bench"
check "$(sql "SELECT group_concat(cmdline || ':' || is_control, ',') FROM (SELECT * FROM variants WHERE experiment_id = $id ORDER BY idx)")" \
	= "perflab_canary=0:1,perflab_canary=4:0,perflab_canary=16:0" "variants"

# Simulated runner: ns/IO 2400 + 3 N (+ 0.001 ns per run index).
for _ in $(seq 6); do
	job=$(claim "$RUN" host1 1)
	expect_status 200 "claim"
	n=$(jq -r '.variant.cmdline | sub("perflab_canary="; "")' <<<"$job")
	ns=$(awk -v n="$n" -v i="$(jq -r .run_index <<<"$job")" 'BEGIN { printf "%.4f", 2400 + 3 * n + 0.001 * i }')
	sample_result "$(jq -r .lease <<<"$job")" | jq --argjson ns "$ns" \
		'.bench.summary.ns_per_io = $ns | .bench.summary.ios_measured = 100000 |
		 .bench.params.ios = 100000' >"$TMP/r.json"
	api POST "/api/v1/jobs/$(jq -r .job_id <<<"$job")/result" "$RUN" "@$TMP/r.json" >/dev/null
	expect_status 201 "result"
done
for _ in $(seq 50); do
	[ "$(sql "SELECT state FROM experiments WHERE id = $id")" = done ] && break
	sleep 0.1
done
c=$(api GET "/api/v1/calibrations?host=host1" "$SUB")
expect_status 200 "list"
cal=$(jq -c --argjson id "$id" '.calibrations[] | select(.id == $id)' <<<"$c")
check "$(jq -r '.kind + " " + .state' <<<"$cal")" = "ladder done" "ladder done"
jq -e '.fit.metric == "ns_per_io" and (.fit.cost_per_unit - 3 | fabs) < 0.001 and
	.fit.r2 >= 0.99 and .fit.cost_unit == "ns/IO" and .fit.mde_pct > 0 and
	.fit.mde_units > 0 and (.fit.points | length) == 6' <<<"$cal" >/dev/null ||
	fail "bad fit: $(jq -c .fit <<<"$cal")"
jq -e '(.comparisons | map(.n) == [4, 16]) and (.comparisons[0].delta_pct > 0.49) and
	.noise.metric == "ns_per_io" and .noise.noise_pct > 0 and .noise.mde_pct > 0' \
	<<<"$cal" >/dev/null || fail "bad steps or noise: $cal"
h=$(api GET /api/v1/hosts "$SUB")
jq -e --argjson id "$id" '.hosts[] | select(.name == "host1") |
	(.calibration | map(select(.experiment_id == $id and .metric == "ns_per_io")) | length == 1)
	and .ladder.experiment_id == $id' <<<"$h" >/dev/null ||
	fail "hosts API lacks the calibration: $h"

# The patch is stored now: a ladder without 'patch' uses it.
post '{"label":"qemu-icount","kind":"ladder"}'
expect_status 201 "ladder with the stored patch"
r=$(api POST /api/v1/calibrations "$SUB" '{"label":"qemu-icount","kind":"aa","runs":3}')
expect_status 201 "A/A"
aa=$(jq -r .id <<<"$r")
check "$(sql "SELECT count(DISTINCT cmdline || '|' || (SELECT count(*) FROM variant_patches WHERE variant_id = v.id)) || ' ' || count(*) FROM variants v WHERE experiment_id = $aa")" \
	= "1 2" "A/A: two identical variants"
check "$(api GET '/api/v1/calibrations?label=qemu-icount' "$SUB" | jq -r '[.calibrations[].kind] | join(",")')" \
	= "aa,ladder" "label filter, newest first"
echo ok
