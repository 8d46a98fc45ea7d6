#!/usr/bin/env bash
# Load: wrk with 200 connections on read endpoints (experiment detail and
# list, hosts, healthz, metrics: a Lua script rotates the paths) for 30 s
# while 50 simulated hosts (bench/load-hosts.c, one runner key each)
# claim, heartbeat and upload results against the same perflabd. Prints
# wrk req/s, p50/p99 and errors, the hosts' call rates and latencies, and
# checks the books: every acknowledged upload is stored once, no job has
# two runs, runs = uploads answered 201. Exit 1 on errors or a mismatch
# (never on performance).
#
# Usage: bench/load-api.sh [SECONDS] [CONNECTIONS] [HOSTS]
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-30}
conns=${2:-200}
nhosts=${3:-50}
PERFLABD=${PERFLABD:-$top/build/perflabd}
for t in wrk curl jq sqlite3 cc pkg-config; do
	command -v $t >/dev/null || { echo "load-api: $t not installed, skipped"; exit 0; }
done
[ -x "$PERFLABD" ] || { echo "load-api: $PERFLABD not built"; exit 1; }
tmp=$(mktemp -d /tmp/perflab-load.XXXXXX)
pid=
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"' EXIT
die() { echo "load-api: FAIL: $*"; exit 1; }

client=$top/build/bench/load-hosts
if [ ! -x "$client" ] || [ "$top/bench/load-hosts.c" -nt "$client" ]; then
	mkdir -p "$(dirname "$client")"
	cc -O2 -g -std=gnu11 -Wall -Wextra -o "$client" "$top/bench/load-hosts.c" \
		$(pkg-config --cflags --libs libcurl) -lpthread || die "cannot build load-hosts"
fi

# A private copy: others may relink build/perflabd meanwhile.
cp "$PERFLABD" "$tmp/perflabd" || die "cannot copy $PERFLABD"
PERFLABD=$tmp/perflabd
db=$tmp/perflab.db
SUB=$("$PERFLABD" key create --db "$db" --role submit load)
ADM=$("$PERFLABD" key create --db "$db" --role admin load-admin)
for i in $(seq -w 1 "$nhosts"); do
	echo "load-$i $("$PERFLABD" key create --db "$db" --role runner "load-r$i")"
done >"$tmp/keys"
# One submit key queues every host's work: no per-key quota here.
"$PERFLABD" --listen 127.0.0.1:0 --db "$db" --port-file "$tmp/port" \
	--max-queued-runs 0 2>"$tmp/log" &
pid=$!
for _ in $(seq 100); do [ -s "$tmp/port" ] && break; sleep 0.05; done
base=http://127.0.0.1:$(cat "$tmp/port")
post() { curl -sf -H "Authorization: Bearer $2" -H 'Content-Type: application/json' --data-binary "$3" "$base$1"; }

# Each host its own label and 2 experiments of 2 variants x 20 runs (80
# jobs: more than it can run in the time), so claims never run dry.
while read -r name key; do
	# Twice: binding the key drops its cached verification, and the
	# second call caches it again, so the run measures steady state,
	# not 50 PBKDF2 verifications (see the note in the report).
	for _ in 1 2; do
		post /api/v1/hosts/register "$key" "{\"name\":\"$name\",\"backend\":\"qemu-icount\",\"labels\":[\"$name\"]}" >/dev/null ||
			die "register $name"
	done
	for e in 1 2; do
		post /api/v1/experiments "$SUB" "{\"title\":\"load $name $e\",\"label\":\"$name\",\"runs\":20,\"max_runs\":20,\"variants\":[{\"name\":\"A\"},{\"name\":\"B\"}]}" >/dev/null ||
			die "experiment for $name"
	done
done <"$tmp/keys"
cat >"$tmp/paths.lua" <<'LUA'
local paths = {"/api/v1/experiments/1", "/api/v1/experiments?limit=20",
	"/api/v1/experiments/2", "/api/v1/hosts", "/healthz", "/metrics"}
local i = 0
request = function()
	i = i % #paths + 1
	return wrk.format("GET", paths[i])
end
LUA

echo "load-api: perflabd + wrk ($conns connections, 2 threads) + $nhosts hosts for $secs s on $(nproc) cores"
"$client" "$base" "$tmp/keys" "$secs" "$tmp/acks" >"$tmp/hosts.out" 2>&1 &
cpid=$!
wrk -t2 -c"$conns" -d"${secs}s" --timeout 10s --latency -s "$tmp/paths.lua" \
	-H "Authorization: Bearer $SUB" "$base" >"$tmp/wrk" 2>&1
wait $cpid
crc=$?
rps=$(awk '/Requests\/sec/ {print $2}' "$tmp/wrk")
p50=$(awk '$1 == "50%" {print $2}' "$tmp/wrk")
p99=$(awk '$1 == "99%" {print $2}' "$tmp/wrk")
total=$(awk '/requests in/ {print $1}' "$tmp/wrk")
non2xx=$(awk '/Non-2xx/ {print $NF}' "$tmp/wrk")
sockerr=$(grep 'Socket errors' "$tmp/wrk" || true)
echo "wrk reads:  $rps req/s, $total requests, p50 $p50, p99 $p99, non-2xx ${non2xx:-0}${sockerr:+, $sockerr}"
cat "$tmp/hosts.out"

# The books.
sql() { sqlite3 "$db" "$@"; }
runs=$(sql 'SELECT count(*) FROM runs')
acked=$(awk '$3 == 201' "$tmp/acks" | wc -l)
dup=$(sql 'SELECT count(*) FROM (SELECT job_id FROM runs GROUP BY job_id HAVING count(*) > 1)')
awk '$3 ~ /^20[01]$/ {print $2}' "$tmp/acks" | sort -u >"$tmp/acked-leases"
sql 'SELECT lease_token FROM runs' | sort >"$tmp/stored-leases"
missing=$(comm -23 "$tmp/acked-leases" "$tmp/stored-leases" | wc -l)
unacked=$(comm -13 "$tmp/acked-leases" "$tmp/stored-leases" | wc -l)
done_jobs=$(sql "SELECT count(*) FROM jobs WHERE state = 'done'")
echo "books: $runs runs stored, $acked uploads answered 201, $done_jobs jobs done," \
	"$missing acknowledged but missing, $unacked stored but never acknowledged, $dup jobs with two runs"
fail=0
[ "${non2xx:-0}" = 0 ] && [ -z "$sockerr" ] || { echo "load-api: FAIL: wrk errors"; fail=1; }
[ $crc -eq 0 ] || { echo "load-api: FAIL: simulated hosts saw errors"; fail=1; }
[ "$runs" -eq "$acked" ] && [ "$missing" -eq 0 ] && [ "$unacked" -eq 0 ] && [ "$dup" -eq 0 ] &&
	[ "$done_jobs" -eq "$runs" ] || { echo "load-api: FAIL: lost or doubled results"; fail=1; }
[ "$(sql 'PRAGMA integrity_check')" = ok ] || { echo "load-api: FAIL: integrity_check"; fail=1; }
exit $fail
