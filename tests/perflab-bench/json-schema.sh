#!/usr/bin/env bash
# Description: -j writes the version 1 JSON of docs/contracts.md: every
# field present with the right type, one sample per second, and a summary
# whose mean/median/stddev and totals agree with the samples.
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || skip "jq not installed"
shm_file 64
j=$tmpd/out.json
"$BENCH" -p0 -r 4 -w 1 --seed 7 -j "$j" "$img" >"$tmpd/stdout" ||
	fail "bench failed: $(cat "$tmpd/stdout")"
cat "$tmpd/stdout"
jq -e . "$j" >/dev/null || fail "not valid JSON"
q() { jq -e "$1" "$j" >/dev/null || fail "check failed: $1"; }
q '.version == 1 and .tool == "perflab-bench"'
q '.params | (.target|type) == "string" and .depth == 128 and .submit_batch == 32
   and .complete_batch == 32 and .bs == 512 and .polled == false
   and .fixedbufs == true and .regfiles == true and .random == true
   and .threads == 1 and .runtime == 4 and .warmup == 1 and .seed == 7
   and .ios == 0'
q '(.ring_flags | type) == "array" and all(.ring_flags[]; type == "string")'
q '(.kernel | type) == "string" and (.kernel | length) > 0'
q '.device | (.name|type) == "string" and (.model|type) == "string"
   and (.firmware|type) == "string" and (.logical_block_size|type) == "number"
   and (.io_poll|type) == "number" and (.scheduler|type) == "string"
   and .size_bytes == 67108864'
q '(.samples | length) == 4'
q '[.samples[].t] == [1,2,3,4]'
q 'all(.samples[]; (.iops > 0) and (.ios_per_submit|type) == "number"
   and (.ios_per_reap|type) == "number" and (.inflight|type) == "number")'
q '.summary.warmup == 1 and .summary.seconds == 3'
# mean/median/stddev recomputed from the samples after warm-up
q '[.samples[1:][].iops] as $v | ($v | add / length) as $m
   | ((.summary.mean - $m) | fabs) < 0.06
   and ((.summary.median - ($v | sort | .[1])) | fabs) < 0.06
   and ((.summary.stddev - (($v | map((. - $m) * (. - $m)) | add) / 2 | sqrt)) | fabs) < 0.06'
q '.summary.total_ios >= ([.samples[].iops] | add)'
q '.summary.ns_per_io == 0 and .summary.ios_measured == 0'
# time-bound: the window still counts its IOs (exact profiles divide by it)
q '.summary.window_ios > 0 and .summary.window_ios <= .summary.total_ios'
q '.cpu.user_ns_per_io >= 0 and .cpu.sys_ns_per_io > 0'
q 'has("profile") | not'
# the per-second lines and the samples are the same numbers
[ "$(grep '^IOPS=' "$tmpd/stdout" | sed 's/^IOPS=\([0-9]*\),.*/\1/' | paste -sd,)" = \
  "$(jq -r '[.samples[].iops | tostring] | join(",")' "$j")" ] ||
	fail "printed IOPS differ from JSON samples"
echo "json-schema: ok"
