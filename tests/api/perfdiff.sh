#!/usr/bin/env bash
# Description: GET /api/v1/experiments/{id}/perf-diff and flamegraph.svg
# on a real perflabd with profiles uploaded through the runner protocol
# (2 runs per variant): aggregated baseline %, delta, ratio, wdiff, stddev
# and noise marks in JSON; the perf diff text layout; symbols on one side
# only; sort and limit; the differential flame graph; and the errors.
. "$(dirname "$0")/lib.sh"
start_daemon
SUB=$(make_key submit alice)
RUN=$(make_key runner r1)
register_host "$RUN" host1

api POST /api/v1/experiments "$SUB" '{"runs":2,"max_runs":2,"variants":[{"name":"base"},{"name":"tag"}]}' >"$TMP/exp.json"
expect_status 201 "create experiment"
EXP=$(jq -r .id "$TMP/exp.json")

# Profiles (hand-made): per variant and run index.
#   base (total 1000 per run): get_tag 200 | 220, sqes 400 | 400, put_tag 50 | 50
#   tag  (total 2000 per run): get_tag 200 | 180, sqes 800 | 840, free 40 | 40
profile() {
	local v=$1 i=$2
	if [ "$v" = base ]; then
		jq -n --argjson g "$([ "$i" = 0 ] && echo 200 || echo 220)" '{event: "cpu-clock", total: 1000, lost: 0,
		  symbols: [{dso: "[kernel.kallsyms]", sym: "blk_mq_get_tag", samples: $g},
		            {dso: "[kernel.kallsyms]", sym: "io_submit_sqes", samples: 400},
		            {dso: "[kernel.kallsyms]", sym: "blk_mq_put_tag", samples: 50}],
		  stacks: [{stack: "entry_SYSCALL_64;io_submit_sqes;blk_mq_get_tag", samples: 200}]}'
	else
		jq -n --argjson g "$([ "$i" = 0 ] && echo 200 || echo 180)" \
		      --argjson s "$([ "$i" = 0 ] && echo 800 || echo 840)" '{event: "cpu-clock", total: 2000, lost: 1,
		  symbols: [{dso: "[kernel.kallsyms]", sym: "blk_mq_get_tag", samples: $g},
		            {dso: "[kernel.kallsyms]", sym: "io_submit_sqes", samples: $s},
		            {dso: "[kernel.kallsyms]", sym: "__blk_mq_free_request", samples: 40}],
		  stacks: [{stack: "entry_SYSCALL_64;io_submit_sqes;blk_mq_get_tag", samples: 100},
		           {stack: "entry_SYSCALL_64;io_submit_sqes;__blk_mq_free_request<x>", samples: 40}]}'
	fi
}

n=0
while :; do
	job=$(claim "$RUN" host1 1)
	[ "$(last_status)" = 204 ] && break
	expect_status 200 "claim"
	v=$(jq -r .variant.name <<<"$job")
	i=$(jq -r .run_index <<<"$job")
	profile "$v" "$i" >"$TMP/p.json"
	sample_result "$(jq -r .lease <<<"$job")" | jq --slurpfile p "$TMP/p.json" '.bench.profile = $p[0]' >"$TMP/r.json"
	api POST "/api/v1/jobs/$(jq -r .job_id <<<"$job")/result" "$RUN" "@$TMP/r.json" >/dev/null
	expect_status 201 "upload $v run $i"
	n=$((n + 1))
	[ $n -le 8 ] || fail "more jobs than planned"
done
check "$n" -eq 4 "four runs uploaded"

pd=$(api GET "/api/v1/experiments/$EXP/perf-diff" "$SUB")
expect_status 200 "perf-diff"
row() { jq -c --arg s "$1" '.rows[] | select(.symbol == $s)' <<<"$pd"; }
near() { # near VALUE WANT WHAT
	awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; exit !(d < 1e-6 && d > -1e-6) }' ||
		fail "$3: got $1, want $2"
}
check "$(jq -r '.sides[0].variant + "/" + (.sides[0].runs|tostring) + "/" + (.sides[0].total|tostring)' <<<"$pd")" = base/2/2000 "control side"
check "$(jq -r '.sides[1].variant + "/" + (.sides[1].total|tostring) + "/" + (.sides[1].lost|tostring)' <<<"$pd")" = tag/4000/2 "variant side"
check "$(jq -r .symbols <<<"$pd")" -eq 4 "four symbols"
# get_tag: 420/2000 = 21%, 380/4000 = 9.5%; run shares 20,22 (sd 1.414) and 10,9
g=$(row blk_mq_get_tag)
near "$(jq .baseline <<<"$g")" 21 "get_tag baseline"
near "$(jq .new <<<"$g")" 9.5 "get_tag new"
near "$(jq .delta <<<"$g")" -11.5 "get_tag delta"
near "$(jq .ratio <<<"$g")" "$(awk 'BEGIN { printf "%.12f", 380 / 420 }')" "get_tag ratio"
near "$(jq .baseline_stddev <<<"$g")" "$(awk 'BEGIN { printf "%.12f", sqrt(2) }')" "get_tag stddev"
check "$(jq .noise <<<"$g")" = false "get_tag delta is not noise"
# sqes: 40% -> 41%, new shares 40, 42: band 2*sqrt(0 + 2/2) = 2 > 1
s=$(row io_submit_sqes)
near "$(jq .delta <<<"$s")" 1 "sqes delta"
check "$(jq .noise <<<"$s")" = true "sqes delta within noise"
check "$(jq .wdiff <<<"$s")" -eq $((1640 - 800)) "sqes wdiff:1,1"
# one side only
f=$(row __blk_mq_free_request)
check "$(jq .baseline <<<"$f")" = null "new-only: no baseline"
near "$(jq .delta <<<"$f")" 2 "new-only delta"
check "$(jq .ratio <<<"$f")" = null "new-only: no ratio"
p=$(row blk_mq_put_tag)
near "$(jq .baseline <<<"$p")" 5 "baseline-only percent"
check "$(jq .delta <<<"$p")" = null "baseline-only: no delta"
# default order: |delta| (11.5, 2, 1), rows without a delta last
check "$(jq -r '[.rows[].symbol] | join(",")' <<<"$pd")" = \
	"blk_mq_get_tag,__blk_mq_free_request,io_submit_sqes,blk_mq_put_tag" "default order"

pd=$(api GET "/api/v1/experiments/$EXP/perf-diff?variant=tag&compute=wdiff:1,2&limit=2" "$SUB")
expect_status 200 "wdiff"
check "$(jq -r '.compute + " " + (.rows | length | tostring)' <<<"$pd")" = "wdiff:1,2 2" "wdiff, limit 2"
check "$(jq -r '.rows[0].symbol + " " + (.rows[0].wdiff|tostring)' <<<"$pd")" = "io_submit_sqes 2480" "wdiff = 1640*2 - 800*1 first"
pd=$(api GET "/api/v1/experiments/$EXP/perf-diff?sort=baseline" "$SUB")
check "$(jq -r '[.rows[].symbol] | join(",")' <<<"$pd")" = \
	"io_submit_sqes,blk_mq_get_tag,blk_mq_put_tag,__blk_mq_free_request" "sort=baseline"

# The text form: perf diff layout, checked line by line. Blank cells are
# spaces: new-only row 2+8+2+7+2+1 before the delta, baseline-only row
# 2+7+2+7+2+5+2 after the baseline stddev.
txt=$(api GET "/api/v1/experiments/$EXP/perf-diff?format=text" "$SUB")
expect_status 200 "text"
grep -qxF '#  [0] base: 2 runs, 2000 samples, 0 lost (Baseline)' <<<"$txt" || fail "data file line: $txt"
grep -qF '# Baseline   Stddev    Delta   Stddev  Noise  Shared Object      Symbol' <<<"$txt" || fail "header: $txt"
grep -qxF '    21.00%    1.41%  -11.50%    0.71%         [kernel.kallsyms]  [k] blk_mq_get_tag' <<<"$txt" || fail "get_tag row: $txt"
grep -qxF "$(printf '%22s+2.00%%    0.00%%%9s[kernel.kallsyms]  [k] __blk_mq_free_request' '' '')" <<<"$txt" || fail "new-only row: $txt"
grep -qxF '    40.00%    0.00%   +1.00%    1.41%  noise  [kernel.kallsyms]  [k] io_submit_sqes' <<<"$txt" || fail "noise row: $txt"
grep -qxF "$(printf '     5.00%%    0.00%%%27s[kernel.kallsyms]  [k] blk_mq_put_tag' '')" <<<"$txt" || fail "baseline-only row: $txt"

# Differential flame graph: tag vs base, control scaled to the new total
# (400 -> 280): get_tag 200 new vs 280 = less (blue), free +80 (red).
svg=$(api GET "/api/v1/experiments/$EXP/flamegraph.svg?variant=tag" "$SUB")
expect_status 200 "flame graph"
grep -q '</svg>' <<<"$svg" || fail "svg not complete"
grep -q '<title>blk_mq_get_tag (200 samples,[^<]*</title><rect[^>]*fill="rgb([0-9]*,[0-9]*,255)"' <<<"$svg" || fail "get_tag not blue"
grep -q '<title>__blk_mq_free_request&lt;x&gt; (80 samples,[^<]*</title><rect[^>]*fill="rgb(255,' <<<"$svg" || fail "free not red / not escaped"
curl -s -o /dev/null -w '%{content_type}' -H "Authorization: Bearer $SUB" \
	"$BASE/api/v1/experiments/$EXP/flamegraph.svg" | grep -q '^image/svg+xml' || fail "svg content type"

# Errors
api GET "/api/v1/experiments/999/perf-diff" "$SUB" >/dev/null
expect_status 404 "no such experiment"
api GET "/api/v1/experiments/$EXP/perf-diff?variant=nope" "$SUB" >/dev/null
expect_status 404 "no such variant"
api GET "/api/v1/experiments/$EXP/perf-diff?variant=base" "$SUB" >/dev/null
expect_status 400 "control as variant"
for q in compute=cycles compute=wdiff:0,1 sort=colour limit=-1 limit=x format=xml order=2; do
	body=$(api GET "/api/v1/experiments/$EXP/perf-diff?$q" "$SUB")
	expect_status 400 "$q"
	jq -e '.error | length > 0' <<<"$body" >/dev/null || fail "$q: no error message"
done
api GET "/api/v1/experiments/$EXP/perf-diff" "" >/dev/null
expect_status 401 "no key"
api POST /api/v1/experiments "$SUB" '{"runs":1,"max_runs":1,"variants":[{"name":"a"},{"name":"b"}]}' >"$TMP/exp2.json"
EXP2=$(jq -r .id "$TMP/exp2.json")
api GET "/api/v1/experiments/$EXP2/perf-diff" "$SUB" >/dev/null
expect_status 409 "no profiles yet"
api GET "/api/v1/experiments/$EXP2/flamegraph.svg" "$SUB" >/dev/null
expect_status 409 "no stacks yet"
echo "ok"
