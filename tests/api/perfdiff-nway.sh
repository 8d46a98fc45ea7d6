#!/usr/bin/env bash
# Description: perf-diff of an experiment with four variants: without
# ?variant every variant is compared with the control like `perf diff A B
# C` (JSON "diffs", text columns Delta/1 Delta/2, order=2 sorts by the
# second); ?variant=NAME gives one pair; a variant without profiles is
# left out; the flame graph needs ?variant when there is a choice.
. "$(dirname "$0")/lib.sh"
start_daemon
SUB=$(make_key submit alice)
RUN=$(make_key runner r1)
register_host "$RUN" host1

api POST /api/v1/experiments "$SUB" '{"runs":1,"max_runs":1,"variants":[{"name":"base"},{"name":"tag"},{"name":"iov"},{"name":"both"}]}' >"$TMP/exp.json"
expect_status 201 "create experiment"
EXP=$(jq -r .id "$TMP/exp.json")

# get_tag samples out of 1000: base 200, tag 100, iov 300; "both" uploads
# no profile at all.
while :; do
	job=$(claim "$RUN" host1 1)
	[ "$(last_status)" = 204 ] && break
	expect_status 200 "claim"
	v=$(jq -r .variant.name <<<"$job")
	case $v in base) g=200 ;; tag) g=100 ;; iov) g=300 ;; both) g=0 ;; esac
	sample_result "$(jq -r .lease <<<"$job")" | jq --argjson g $g '
	  if $g == 0 then del(.bench.profile) else
	  .bench.profile.symbols = [{dso: "[kernel.kallsyms]", sym: "blk_mq_get_tag", samples: $g},
	                            {dso: "[kernel.kallsyms]", sym: "io_submit_sqes", samples: 400}] end' >"$TMP/r.json"
	api POST "/api/v1/jobs/$(jq -r .job_id <<<"$job")/result" "$RUN" "@$TMP/r.json" >/dev/null
	expect_status 201 "upload $v"
done

pd=$(api GET "/api/v1/experiments/$EXP/perf-diff" "$SUB")
expect_status 200 "perf-diff, all variants"
check "$(jq -r '[.sides[].variant] | join(",")' <<<"$pd")" = "base,tag,iov" "sides: control first, both left out"
g=$(jq -c '.rows[] | select(.symbol == "blk_mq_get_tag")' <<<"$pd")
check "$(jq -r '[.diffs[] | .variant + "=" + (.delta | tostring)] | join(",")' <<<"$g")" = "tag=-10,iov=10" "per-variant deltas"
check "$(jq -r .delta <<<"$g")" = -10 "flat fields are the first compared variant"
txt=$(api GET "/api/v1/experiments/$EXP/perf-diff?format=text" "$SUB")
grep -qF '# Baseline/0  Delta/1  Delta/2  Shared Object' <<<"$txt" || fail "N-way header: $txt"
grep -qxF '      20.00%  -10.00%  +10.00%  [kernel.kallsyms]  [k] blk_mq_get_tag' <<<"$txt" || fail "N-way row: $txt"
# sort by delta of variant 2 (iov): get_tag +10 first; of variant 1: sqes 0 first
check "$(api GET "/api/v1/experiments/$EXP/perf-diff?sort=delta&order=2" "$SUB" | jq -r '.rows[0].symbol')" = blk_mq_get_tag "order=2"
check "$(api GET "/api/v1/experiments/$EXP/perf-diff?sort=delta&order=1" "$SUB" | jq -r '.rows[0].symbol')" = io_submit_sqes "order=1"
api GET "/api/v1/experiments/$EXP/perf-diff?order=3" "$SUB" >/dev/null
expect_status 400 "order beyond the compared variants"

pd=$(api GET "/api/v1/experiments/$EXP/perf-diff?variant=iov" "$SUB")
check "$(jq -r '[.sides[].variant] | join(",")' <<<"$pd")" = "base,iov" "one pair"
check "$(jq -r '.rows[0].diffs' <<<"$pd")" = null "no diffs array for a pair"
api GET "/api/v1/experiments/$EXP/perf-diff?variant=both" "$SUB" >/dev/null
expect_status 409 "variant without profiles"

api GET "/api/v1/experiments/$EXP/flamegraph.svg" "$SUB" >/dev/null
expect_status 400 "flame graph needs a variant"
api GET "/api/v1/experiments/$EXP/flamegraph.svg?variant=tag" "$SUB" >/dev/null
expect_status 200 "flame graph of tag"
echo "ok"
