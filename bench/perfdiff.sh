#!/usr/bin/env bash
# perf-diff speed (figures, not assertions):
#  1. perfdiff_compute on two 50K-symbol profiles (goal < 50 ms), the text
#     layout, and the same with 5 runs per side (stddev/noise columns);
#  2. the HTTP endpoint on a real perflabd: two 50K-symbol profiles
#     uploaded through the runner protocol, then GET .../perf-diff (SQLite
#     load + diff + answer), text and JSON. Skipped without perflabd/jq/curl.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
out=build/bench
mkdir -p "$out"
# the perf-diff core and what it uses, as perflabd links it (make)
${CC:-cc} -std=gnu11 -O2 -D_GNU_SOURCE -Wall -Wextra -Werror -I. -Icommon \
	-o "$out/perfdiff-bench" bench/perfdiff-bench.c build/libdaemon.a -ljansson -lm
"$out/perfdiff-bench" 50000 1 21
"$out/perfdiff-bench" 50000 5 11

for t in jq curl; do
	command -v $t >/dev/null || { echo "endpoint: skipped ($t missing)"; exit 0; }
done
[ -x build/perflabd ] || { echo "endpoint: skipped (build/perflabd missing)"; exit 0; }
tmp=$(mktemp -d /tmp/perflab-bench.XXXXXX)
pid=
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; rm -rf "$tmp"' EXIT
build/perflabd --listen 127.0.0.1:0 --db "$tmp/db" --port-file "$tmp/port" >"$tmp/log" 2>&1 &
pid=$!
for _ in $(seq 100); do [ -s "$tmp/port" ] && break; sleep 0.05; done
url=http://127.0.0.1:$(cat "$tmp/port")
sub=$(build/perflabd key create --db "$tmp/db" --role submit bench)
run=$(build/perflabd key create --db "$tmp/db" --role runner bench-runner)
req() { # METHOD PATH KEY [BODY-FILE]
	curl -sf -X "$1" -H "Authorization: Bearer $3" ${4:+-H 'Content-Type: application/json' --data-binary "@$4"} "$url$2"
}
echo '{"name":"h","labels":["x"],"backend":"local","facts":{}}' >"$tmp/h.json"
req POST /api/v1/hosts/register "$run" "$tmp/h.json" >/dev/null
echo '{"runs":1,"max_runs":1,"variants":[{"name":"base"},{"name":"tag"}]}' >"$tmp/e.json"
exp=$(req POST /api/v1/experiments "$sub" "$tmp/e.json" | jq -r .id)
echo '{"host":"h","wait":1}' >"$tmp/c.json"
while job=$(req POST /api/v1/jobs/claim "$run" "$tmp/c.json") && [ -n "$job" ]; do
	off=0
	[ "$(jq -r .variant.name <<<"$job")" = tag ] && off=2500
	jq -n --arg lease "$(jq -r .lease <<<"$job")" --argjson off $off '{lease: $lease,
	  bench: {version: 1, tool: "perflab-bench", params: {}, samples: [{t: 1, iops: 1000}],
	    summary: {warmup: 0, seconds: 1, mean: 1000, median: 1000, stddev: 0, total_ios: 1000},
	    profile: {event: "cpu-clock", total: 60000000, lost: 0,
	      symbols: [range(0; 50000) | {dso: (if . % 4 == 0 then "[kernel.kallsyms]" else "perflab-bench" end),
	                sym: ("blk_mq_symbol_\(. + $off)"), samples: (1 + ((. * 7919 + $off) % 1000))}],
	      stacks: []}},
	  build: {cache_key: "k", cached: true, seconds: 0, log: ""}, boot_log: "",
	  timings: {build_s: 0, boot_s: 0, run_s: 1}}' >"$tmp/r.json"
	req POST "/api/v1/jobs/$(jq -r .job_id <<<"$job")/result" "$run" "$tmp/r.json" >/dev/null
done
for q in "format=text&limit=20" "format=text" "format=json"; do
	best=
	for _ in 1 2 3 4 5; do
		t=$(curl -sf -o "$tmp/o" -w '%{time_total}' -H "Authorization: Bearer $sub" \
			"$url/api/v1/experiments/$exp/perf-diff?$q")
		best=$(awk -v a="$t" -v b="${best:-1e9}" 'BEGIN { print (a < b) ? a : b }')
	done
	printf 'endpoint GET perf-diff?%-20s best %7.1f ms (%d bytes; includes HTTP + key check)\n' \
		"$q" "$(awk -v t="$best" 'BEGIN { print t * 1000 }')" "$(wc -c <"$tmp/o")"
done
t=$(curl -sf -o /dev/null -w '%{time_total}' -H "Authorization: Bearer $sub" "$url/api/v1/bases")
printf 'endpoint floor GET /api/v1/bases        %7.1f ms\n' "$(awk -v t="$t" 'BEGIN { print t * 1000 }')"
