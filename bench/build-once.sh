#!/usr/bin/env bash
# Build once, test on many hosts: three runners on this machine (separate
# work dirs and kernel caches, one label, role any) each run one copy of
# the seed experiment (kernel-patches/series/seed-experiment.json,
# qemu-icount). Prints the total CPU seconds of kernel builds, images
# built per key, bytes downloaded from the image store, and the time from
# submission to the last verdict. ROLE=none: the runners use no image
# store and build everything they run, as before the store (the
# "before" column); BIN=DIR runs other binaries.
#
# Usage: flock /work/wt/heavy.lock bench/build-once.sh [RUNS]
#   RUNS: runs per variant (default 2; the seed experiment asks 10)
# Cold caches: every runner's kcache starts empty, as on fresh hosts; the
# runners share a Redis ccache (started here) unless ROLE=none.
# Takes about an hour on 2 cores. Prints figures; never fails on them.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-2}
BIN=${BIN:-$top/build}
[ "$(id -u)" = 0 ] || { echo "build-once: needs root (sandboxed builds)"; exit 0; }
parent=$(dirname "$("$top/scripts/kcache-dir.sh")")
tmp=$(mktemp -d "$parent/bench-build-once.XXXXXX")
chmod 755 "$tmp"
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$tmp"' EXIT

# The shared ccache (after): Redis as dist/redis configures it.
redis_args=()
if [ "${ROLE:-any}" != none ] && command -v redis-server >/dev/null; then
	sed -e "s/CHANGE-ME-rw/rw$$/" -e "s/CHANGE-ME-ro/ro$$/" \
		"$top/dist/redis/redis-users.acl.example" >"$tmp/users.acl"
	echo "user bench on >bench$$ ~* &* +@all" >>"$tmp/users.acl"
	printf 'rw perflab-rw rw%s\nro perflab-ro ro%s\n' $$ $$ >"$tmp/auth"
	sed -e "s|/run/perflab/redis.sock|$tmp/redis.sock|" \
		-e "s|/etc/perflab/redis-users.acl|$tmp/users.acl|" \
		-e 's/^maxmemory .*/maxmemory 2gb/' "$top/dist/redis/perflab-redis.conf" >"$tmp/redis.conf"
	redis-server "$tmp/redis.conf" >"$tmp/redis.log" 2>&1 &
	pids+=($!)
	for _ in $(seq 50); do [ -S "$tmp/redis.sock" ] && break; sleep 0.1; done
	redis_args=(--ccache-redis "$tmp/redis.sock" --ccache-redis-auth "$tmp/auth")
fi

db=$tmp/perflab.db
SUB=$("$BIN/perflabd" key create --db "$db" --role submit bench)
"$BIN/perflabd" --listen 127.0.0.1:0 --db "$db" --port-file "$tmp/port" \
	--max-queued-runs 0 2>"$tmp/daemon.log" &
pids+=($!)
for _ in $(seq 100); do [ -s "$tmp/port" ] && break; sleep 0.05; done
base=http://127.0.0.1:$(cat "$tmp/port")
for i in 1 2 3; do
	key=$("$BIN/perflabd" key create --db "$db" --role runner "r$i")
	mkdir -p "$tmp/r$i"
	"$BIN/perflab-runner" --server "$base" --key "$key" --backend qemu-icount \
		--name "bench-$i" --label qemu-icount --workdir "$tmp/r$i" \
		--kcache "$tmp/r$i/kcache" --tree "$top/build/linux-source-6.1" \
		--configs "$top/kernel-patches/configs" --jobs 2 \
		--bench "$top/build/perflab-bench" --bench-static "$top/build/perflab-bench-static" \
		--claim-wait 5 --role "${ROLE:-any}" "${redis_args[@]}" >"$tmp/r$i.log" 2>&1 &
	pids+=($!)
done
for _ in $(seq 100); do
	n=$(curl -s -H "Authorization: Bearer $SUB" "$base/api/v1/hosts" | jq '.hosts | length')
	[ "$n" = 3 ] && break
	sleep 0.2
done

# The seed experiment, its patches inline, RUNS runs a variant.
exp=$(jq --argjson r "$runs" '.runs = $r | .max_runs = $r' \
	"$top/kernel-patches/series/seed-experiment.json")
for p in $(jq -r '.variants[].patches[]' <<<"$exp" | sort -u); do
	exp=$(jq --arg p "$p" --rawfile t "$top/$p" \
		'.variants[].patches |= map(if . == $p then $t else . end)' <<<"$exp")
done
start=$(date +%s)
ids=()
for i in 1 2 3; do
	ids+=("$(curl -s -H "Authorization: Bearer $SUB" -H 'Content-Type: application/json' \
		--data-binary "$exp" "$base/api/v1/experiments" | jq -r .id)")
done
echo "build-once: 3 experiments (${ids[*]}), $runs runs x 4 variants each, 3 runners, role ${ROLE:-any} ($BIN)"
last=0
while :; do
	done_n=0
	for id in "${ids[@]}"; do
		st=$(curl -s -H "Authorization: Bearer $SUB" "$base/api/v1/experiments/$id" | jq -r .state)
		case $st in done|failed|cancelled) done_n=$((done_n + 1)) ;; esac
	done
	[ "$done_n" = 3 ] && break
	sleep 5
done
end=$(date +%s)
for id in "${ids[@]}"; do
	curl -s -H "Authorization: Bearer $SUB" "$base/api/v1/experiments/$id" |
		jq -r '"experiment \(.id): \(.state) on \(.host // "?"): " + ([.comparison[]? | "\(.variant) \(.verdict)"] | join(", "))' 2>/dev/null || true
done
cat "$tmp"/r*.log >"$tmp/all.log"
cpu=$(sed -n 's/.*built image .*(CPU \([0-9.]*\) s).*/\1/p' "$tmp/all.log" | awk '{ c += $1 } END { printf "%.0f", c }')
builds=$(grep -c 'built image ' "$tmp/all.log" || true)
keys=$(grep -o 'built image [0-9a-f]*' "$tmp/all.log" | sort | uniq -c | awk '{print $1}' | sort -n | uniq -c | awk '{printf "%s key(s) built %s time(s); ", $1, $2}')
dl=$(curl -s "$base/metrics" | awk '/^perflab_image_download_bytes_total/ {print $2}')
echo "build CPU seconds (sum over runners): ${cpu:-n/a}"
echo "kernel builds: $builds; per key: ${keys:-n/a}"
echo "bytes downloaded from the image store: ${dl:-0}"
echo "submission to the last verdict: $((end - start)) s"
[ ${#redis_args[@]} -gt 0 ] && echo "Redis keys: $(redis-cli -s "$tmp/redis.sock" --user bench --pass "bench$$" --no-auth-warning dbsize)"
grep -h "downloaded (" "$tmp"/r*.log | sed 's/^/  /' | head -20 || true
