#!/usr/bin/env bash
# A/A precision of perflab-bench builds across qemu-icount boots, several
# builds interleaved boot by boot (the smaller sibling of
# bench/icount-precision.sh, for comparing hot-loop variants):
#
#   bench/icount-aa.sh BOOTS [NAME=STATIC_BINARY]...
#
# Every boot is a `perflab-runner try` of the base kernel (build/kcache)
# with the runner's own bench parameters (--ios IOS timed IOs). Prints
# ns/IO per boot (= instructions per IO under icount) and, per build,
# mean, min..max and the spread (max - min) / mean. Default build:
# A=build/perflab-bench-static. IOS (100000), RUNTIME (2), WARMUP (1).
# Figures, never assertions.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
R=$top/build/perflab-runner
boots=${1:-5}
shift
[ $# -gt 0 ] || set -- A=build/perflab-bench-static
params="{\"runtime\":${RUNTIME:-2},\"warmup\":${WARMUP:-1},\"ios\":${IOS:-100000},\"target\":\"nullb\",\"profile\":false}"
out=$(mktemp -d /tmp/icount-aa.XXXXXX)
trap 'rm -rf "$out"' EXIT
for b in $(seq "$boots"); do
	for spec in "$@"; do
		name=${spec%%=*}
		w=$out/w
		rm -rf "$w"
		"$R" try --backend qemu-icount --workdir "$w" --kcache "$(scripts/kcache-dir.sh)" \
			--bench-static "${spec#*=}" --runs 1 \
			--bench-params "$params" >"$w.out" 2>"$w.err"
		v=$(jq -r .summary.ns_per_io "$w/try-1.json" 2>/dev/null)
		if [ -z "$v" ] || [ "$v" = null ]; then
			echo "$name boot $b: failed: $(tail -n 3 "$w.err")"
			continue
		fi
		echo "$name boot $b: $v ns/IO"
		echo "$name $v" >>"$out/figs"
	done
done
echo "== per build, $params"
awk '{ s[$1] += $2; n[$1]++
	if (!($1 in lo) || $2 < lo[$1]) lo[$1] = $2; if ($2 > hi[$1]) hi[$1] = $2 }
	END { for (k in s) { m = s[k] / n[k]
		printf "%-10s boots %2d  mean %.3f ns/IO  %.3f .. %.3f  spread %.4f %%\n",
			k, n[k], m, lo[k], hi[k], 100 * (hi[k] - lo[k]) / m } }' "$out/figs" | sort
