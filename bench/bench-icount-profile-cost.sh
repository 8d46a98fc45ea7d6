#!/usr/bin/env bash
# Exact cost of perflab-bench -P, measured where time is deterministic: the
# qemu-icount tier (guest time = instructions; null_blk with a poll queue,
# 512 B QD128 polled). Alternates plain / -P runs (PAIRS pairs), each timing
# --ios IOS IOs after a 1 s warm-up, and prints every run's ns/IO, the A/A
# spread of each side and the -P cost in % of ns/IO.
# Needs build/perflab-runner and a kernel cache (KCACHE, default
# build/kcache, shared with the runner's tests). Figures, not assertions.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
R=$top/build/perflab-runner
S=${BENCH_STATIC:-$top/build/perflab-bench-static}
PAIRS=${PAIRS:-2}
IOS=${IOS:-300000}
KCACHE=${KCACHE:-$("$top/scripts/kcache-dir.sh")}
for f in "$R" "$S"; do
	[ -x "$f" ] || { echo "$f not built (make; make static-bench)" >&2; exit 1; }
done
command -v qemu-system-x86_64 >/dev/null || { echo "no qemu-system-x86_64" >&2; exit 1; }
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT

run() { # profile(true|false) -> prints ns/IO
	local d
	d=$(mktemp -d "$w/run.XXXX")
	"$R" try --backend qemu-icount --insn-plugin none --bench-static "$S" --workdir "$d" \
		--kcache "$KCACHE" --runs 1 --bench-params \
		"{\"runtime\":30,\"warmup\":1,\"target\":\"nullb\",\"ios\":$IOS,\"profile\":$1}" \
		>"$d/out" 2>"$d/err" || { tail -5 "$d/out" "$d/err" >&2; exit 1; }
	jq -r '.summary.ns_per_io' "$d/try-1.json"
}

echo "qemu-icount, null_blk poll_queues=1, 512 B QD128 polled, --ios $IOS, $PAIRS pairs"
for ((i = 1; i <= PAIRS; i++)); do
	a=$(run false)
	p=$(run true)
	echo "pair $i: plain ns/IO=$a  -P ns/IO=$p"
	echo "$a $p" >>"$w/figs"
done
awk '
	{ a[NR] = $1; p[NR] = $2; sa += $1; sp += $2 }
	END {
		n = NR; ma = sa / n; mp = sp / n
		lo = hi = a[1]; for (i = 1; i <= n; i++) { if (a[i] < lo) lo = a[i]; if (a[i] > hi) hi = a[i] }
		plo = phi = p[1]; for (i = 1; i <= n; i++) { if (p[i] < plo) plo = p[i]; if (p[i] > phi) phi = p[i] }
		printf "plain: mean %.4f ns/IO, A/A spread %.4f %%\n", ma, 100 * (hi - lo) / ma
		printf "-P:    mean %.4f ns/IO, A/A spread %.4f %%\n", mp, 100 * (phi - plo) / mp
		printf "cost of -P: %+.3f %% ns/IO (goal <= 1 %%)\n", 100 * (mp / ma - 1)
	}' "$w/figs"
