#!/usr/bin/env bash
# make soak: load and faults for a while. Each round runs bench/load-api.sh
# (wrk + simulated hosts, books checked) for up to 120 s, then every fault
# test once; rounds repeat until SECONDS have passed (at least one round).
# CI runs it briefly: make soak SOAK_SECONDS=30.
#
# Usage: scripts/soak.sh [SECONDS]
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
total=${1:-600}
case $total in ''|*[!0-9]*) echo "usage: scripts/soak.sh SECONDS"; exit 2 ;; esac
start=$(date +%s)
round=0 fails=0
while :; do
	round=$((round + 1))
	left=$((total - ($(date +%s) - start)))
	chunk=$((left > 120 ? 120 : left))
	[ $chunk -lt 10 ] && chunk=10
	echo "== soak round $round: load for $chunk s"
	bench/load-api.sh "$chunk" 200 50 || fails=$((fails + 1))
	echo "== soak round $round: faults"
	tests/run.sh tests/faults/ || fails=$((fails + 1))
	[ $(($(date +%s) - start)) -ge "$total" ] && break
done
echo "soak: $round rounds in $(($(date +%s) - start)) s, $fails failed steps"
[ $fails -eq 0 ]
