#!/usr/bin/env bash
# perflab-runner on the qemu-icount tier: wall time per phase and the A/A
# spread of N boots of the same kernel (perflab-bench, null_blk polled).
# Figures, not assertions. Usage: bench/runner-qemu-icount.sh [RUNS] [SECONDS]
#   KCACHE=dir  kernel cache (default build/kcache, shared with the tests)
#   IOS=n       also time exactly n IOs after warm-up (ns/IO), default 1000000
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
R=$top/build/perflab-runner
runs=${1:-10}
secs=${2:-4}
ios=${IOS:-1000000}
kcache=${KCACHE:-$top/build/kcache}
for f in "$R" "$top/build/perflab-bench-static"; do
	[ -x "$f" ] || { echo "$f not built (make; make static-bench)"; exit 1; }
done
command -v qemu-system-x86_64 >/dev/null || { echo "no qemu"; exit 1; }
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
params="{\"runtime\":$secs,\"warmup\":1,\"ios\":$ios,\"target\":\"nullb\"}"
start=$(date +%s.%N)
"$R" try --backend qemu-icount --workdir "$w" --kcache "$kcache" \
	--runs "$runs" --bench-params "$params" 2>"$w/err" | tee "$w/out"
end=$(date +%s.%N)
n=$(grep -c '^run [0-9]*: build' "$w/out")
[ "$n" -gt 0 ] || { tail -20 "$w/err"; exit 1; }
echo
echo "qemu-icount A/A: $n runs, ${secs}s runtime, 1s warm-up, --ios $ios"
for i in $(seq "$n"); do
	jq -r '[.summary.mean, .summary.ns_per_io] | @tsv' "$w/try-$i.json"
done | awk -v wall="$(echo "$end - $start" | bc)" '
function stats(a, n, name, unit,   i, s, m, sd, lo, hi) {
	s = 0; lo = a[1]; hi = a[1]
	for (i = 1; i <= n; i++) { s += a[i]; if (a[i] < lo) lo = a[i]; if (a[i] > hi) hi = a[i] }
	m = s / n; sd = 0
	for (i = 1; i <= n; i++) sd += (a[i] - m) ^ 2
	sd = n > 1 ? sqrt(sd / (n - 1)) : 0
	if (m == 0) { printf "%-10s n/a\n", name; return }
	printf "%-10s mean %.4f %s  sd %.4f (%.6f %%)  min %.4f max %.4f  spread %.6f %%\n",
		name, m, unit, sd, 100 * sd / m, lo, hi, 100 * (hi - lo) / m
}
{ iops[NR] = $1; ns[NR] = $2 }
END {
	stats(iops, NR, "IOPS", "")
	stats(ns, NR, "ns/IO", "ns")
	printf "wall       %.1f s for %d runs = %.1f s/run -> %.0f runs/hour/host\n",
		wall, NR, wall / NR, 3600 * NR / wall
}'
awk '/^run/ { for (i = 1; i <= NF; i++) { if ($i == "boot") b += $(i + 1); if ($i == "run" && i > 2) r += $(i + 1) } n++ }
END { printf "phases     boot %.1f s  run %.1f s (means; TCG, host load affects wall time only)\n", b / n, r / n }' "$w/out"
