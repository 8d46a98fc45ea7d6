#!/usr/bin/env bash
# API throughput: wrk, 200 connections, 10 s, against GET
# /api/v1/experiments/{id} (an experiment with 2 variants x 5 runs of 10
# per-second samples and profiles) and GET /healthz; then a claim /
# heartbeat / result storm from 200 simulated hosts (bench/api-storm.py),
# checking that no job is handed out twice. Goal: >= 20K req/s, p99 < 5 ms.
# Prints figures; never fails on performance.
#
# Usage: bench/api-wrk.sh [SECONDS] [CONNECTIONS]   (STORM_ONLY=1: the storm alone)
# The storm also prints the latency of the uploads that complete an
# experiment (each sets off its analysis) and the analysis backlog.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-10}
conns=${2:-200}
for t in wrk curl jq python3; do
	command -v $t >/dev/null || { echo "api-wrk: $t not installed, skipped"; exit 0; }
done
PERFLABD=${PERFLABD:-$top/build/perflabd}	# PERFLABD=other/perflabd: compare builds
tmp=$(mktemp -d /tmp/perflab-bench.XXXXXX)
pid=
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"' EXIT

db=$tmp/perflab.db
SUB=$("$PERFLABD" key create --db "$db" --role submit bench)
RUN=$("$PERFLABD" key create --db "$db" --role runner bench-runner)
ADM=$("$PERFLABD" key create --db "$db" --role admin bench-admin)
"$PERFLABD" --listen 127.0.0.1:0 --db "$db" --port-file "$tmp/port" \
	--max-queued-runs 0 2>"$tmp/log" &
pid=$!
for _ in $(seq 100); do [ -s "$tmp/port" ] && break; sleep 0.05; done
base=http://127.0.0.1:$(cat "$tmp/port")

# Populate: one experiment run to completion by one host.
post() { curl -sf -H "Authorization: Bearer $2" -H 'Content-Type: application/json' --data-binary "$3" "$base$1"; }
post /api/v1/hosts/register "$RUN" '{"name":"bench-host","backend":"qemu-icount","labels":["bench"]}' >/dev/null
id=$(post /api/v1/experiments "$SUB" '{"title":"wrk","label":"bench","runs":5,"max_runs":5,"variants":[{"name":"base"},{"name":"tag"}]}' | jq -r .id)
for i in $(seq 10); do
	job=$(post /api/v1/jobs/claim "$RUN" '{"host":"bench-host","wait":1}')
	jq -n --arg l "$(jq -r .lease <<<"$job")" --argjson m $((3500000 + i * 1000)) '{lease: $l,
	  bench: {version: 1, kernel: "6.1.0", samples: [range(1; 11) | {t: ., iops: ($m + . * 7),
	  ios_per_submit: 32, ios_per_reap: 31, inflight: 75}], summary: {warmup: 1, seconds: 9,
	  mean: $m, median: $m, stddev: 100}, profile: {event: "cpu-clock", total: 1000, lost: 0,
	  symbols: [range(0; 50) | {dso: "[kernel.kallsyms]", sym: "sym\(.)", samples: (. + 1)}]}}}' >"$tmp/r.json"
	post "/api/v1/jobs/$(jq -r .job_id <<<"$job")/result" "$RUN" "@$tmp/r.json" >/dev/null
done
bytes=$(curl -s -H "Authorization: Bearer $SUB" "$base/api/v1/experiments/$id" | wc -c)
echo "experiment $id: $(curl -s -H "Authorization: Bearer $SUB" "$base/api/v1/experiments/$id" | jq -r .state), $bytes bytes of JSON"

run_wrk() { # run_wrk NAME PATH [CONNECTIONS]
	wrk -t2 -c"${3:-$conns}" -d"${secs}s" --latency -H "Authorization: Bearer $SUB" "$base$2" >"$tmp/wrk" 2>&1 || true
	local rps p50 p99 errs
	rps=$(awk '/Requests\/sec/ {print $2}' "$tmp/wrk")
	p50=$(awk '$1 == "50%" {print $2}' "$tmp/wrk")
	p99=$(awk '$1 == "99%" {print $2}' "$tmp/wrk")
	errs=$(grep -E 'Non-2xx|Socket errors' "$tmp/wrk" | tr '\n' ' ' || true)
	printf '%-36s %10s req/s   p50 %-9s p99 %-9s %s\n' "$1" "$rps" "$p50" "$p99" "${errs:-0 errors}"
}
if [ -z "${STORM_ONLY:-}" ]; then
echo "wrk: $conns connections, $secs s, 2 threads ($(nproc) cores shared by wrk and perflabd)"
run_wrk "GET /healthz" /healthz
run_wrk "GET /api/v1/experiments/$id" "/api/v1/experiments/$id"
run_wrk "GET /api/v1/experiments (list)" "/api/v1/experiments"
# With 200 closed-loop connections the mean latency is 200 / throughput
# (Little's law): p99 < 5 ms needs > 40K req/s. The same endpoint with
# fewer connections shows the latency of a request that does not queue.
run_wrk "GET /api/v1/experiments/$id (20 conns)" "/api/v1/experiments/$id" 20
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) (the machine is shared)"
fi

# Image downloads (build once: every test host fetches the builder's
# image): a 2.5 MB bzImage-sized file, 200 hosts at once.
mkdir "$tmp/img"
head -c 2600000 /dev/urandom >"$tmp/img/bzImage"
head -c 120000 /dev/urandom >"$tmp/img/System.map"
head -c 18000 /dev/urandom >"$tmp/img/config"
printf 'release=6.1.0\n' >"$tmp/img/meta"
key=$(printf 'bench-image\n' | sha256sum | cut -c1-64)
digest=$({ printf 'perflab-image-v1\nkey=%s\n' "$key"
	for f in bzImage System.map config meta; do
		printf '%s %s %s\n' "$f" "$(stat -c %s "$tmp/img/$f")" "$(sha256sum <"$tmp/img/$f" | cut -c1-64)"
	done; } | sha256sum | cut -c1-64)
up=$(curl -s -o /dev/null -w 'HTTP %{http_code} in %{time_total} s' -X PUT -H "Authorization: Bearer $ADM" \
	-F "bzImage=@$tmp/img/bzImage" -F "System.map=@$tmp/img/System.map" \
	-F "config=@$tmp/img/config" -F "meta=@$tmp/img/meta" \
	"$base/api/v1/images/$key?sha256=$digest")
echo "image upload (2.7 MB, multipart, hashed, renamed): $up"
run_wrk "GET image bzImage (2.6 MB)" "/api/v1/images/$key/bzImage"
mbs=$(awk '/Transfer\/sec/ {print $2}' "$tmp/wrk")
echo "  image bytes served: $mbs/s; $(curl -s "$base/metrics" | grep -E '^perflab_image_(downloads_total\{file="bzImage"\}|download_bytes_total)' | tr '\n' ' ')"

echo "claim/heartbeat storm: 200 simulated hosts"
python3 "$top/bench/api-storm.py" "$base" "$ADM" "$SUB" 200 "$db"
