#!/usr/bin/env bash
# Precision of the qemu-icount tier, figures not assertions.
#
#   bench/icount-precision.sh [ROUNDS] [AA_ROUNDS]
#
# Collects perflab-bench runs with `perflab-runner try` (real qemu-icount
# boots, kernels from build/kcache), interleaved round by round:
#   base, base (A/A), tag (0001), and the ladder: one 0004 kernel with
#   perflab_canary=0,1,2,4,8,16,64,256 (ROUNDS rounds, default 5), then
#   AA_ROUNDS more rounds of base only (default 0), for more A/A samples.
# Then it prints:
#   - A/A: |delta| of ns/IO between every pair of base runs (goal <= 0.01 %);
#   - A/A experiments: disjoint K-vs-K splits of the base runs (K = AA_SIZE,
#     default 5, the fewest runs at which p < 0.01 is reachable) compared
#     by the real verdict code (perflab compare against a scratch
#     perflabd), plus 20 random K-vs-K splits (resampled, not independent);
#   - ladder: each N >= 1 vs N = 0 (5 runs per side): delta, CI, verdict;
#     least-squares fit of delta % against N: slope, R^2;
#   - tag vs base: delta, CI, verdict, MDE;
#   - wall time per run (build excluded; goal <= 15 s).
# Runs already collected in OUT (default build/icount-precision) are kept
# and reused: rerun with ANALYZE_ONLY=1 to print the figures again.
#   IOS=n (100000)  RUNTIME=s (2)  WARMUP=s (1)  AA_SIZE=k (5)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
R=$top/build/perflab-runner
rounds=${1:-5}
aa_rounds=${2:-0}
out=${OUT:-$top/build/icount-precision}
ios=${IOS:-100000}
params="{\"runtime\":${RUNTIME:-2},\"warmup\":${WARMUP:-1},\"ios\":$ios,\"target\":\"nullb\",\"profile\":false}"
kp=$top/kernel-patches
ladder="0 1 2 4 8 16 64 256"
for f in "$R" build/perflab-bench-static build/perflabd build/perflab; do
	[ -x "$f" ] || { echo "$f not built (make; make static-bench)"; exit 1; }
done
# Results accumulate across invocations, but only for the same runner and
# bench binaries: figures from another build are moved aside, not mixed in.
fp=$(cat "$R" build/perflab-bench-static | sha256sum | cut -c1-16)
if [ -d "$out" ] && [ "$(cat "$out/binaries" 2>/dev/null)" != "$fp" ]; then
	echo "$out holds results of other binaries: moved to $out.$(date +%s)"
	mv "$out" "$out.$(date +%s)"
fi
mkdir -p "$out"
echo "$fp" >"$out/binaries"

# one NAME [try args]: one boot, result as $out/NAME-K.json, wall in $out/wall
one() {
	local name=$1 k w
	shift
	k=$(($(ls "$out" | grep -c "^$name-[0-9]*\.json$") + 1))
	w=$(mktemp -d /tmp/icount-prec.XXXXXX)
	"$R" try --backend qemu-icount --workdir "$w" --kcache "$(scripts/kcache-dir.sh)" \
		--runs 1 --bench-params "$params" "$@" >"$w/out" 2>"$w/err"
	if [ -s "$w/try-1.json" ]; then
		cp "$w/try-1.json" "$out/$name-$k.json"
		awk -v n="$name" '/^run/ { for (i = 1; i <= NF; i++) {
			if ($i == "build") b = $(i + 1); if ($i == "boot") o = $(i + 1)
			if ($i == "run" && i > 2) r = $(i + 1) }
			print n, b + 0, o + 0, r + 0 }' "$w/out" >>"$out/wall"
		echo "$name-$k: $(jq -r .summary.ns_per_io "$w/try-1.json") ns/IO ($(cat "$w/out" | tr -d '\n' | sed 's/ -> .*//'))"
	else
		echo "$name: run failed: $(tail -3 "$w/err")"
	fi
	rm -rf "$w"
}

if [ -z "${ANALYZE_ONLY:-}" ]; then
	for r in $(seq "$rounds"); do
		one base
		one base
		one tag --patch "$kp/0001-blk-mq-clear-rqs-on-tag-free.patch"
		for n in $ladder; do
			one "canary-$n" --patch "$kp/0004-block-perflab_canary-calibration-parameter.patch" \
				--cmdline "perflab_canary=$n"
		done
	done
	for r in $(seq "$aa_rounds"); do
		one base
		one base
	done
fi

nsio() { for f in "$@"; do jq -r .summary.ns_per_io "$f"; done; }
files() { ls "$out"/"$1"-[0-9]*.json 2>/dev/null | sort -V; }

echo
echo "== qemu-icount precision, bench $params"
mapfile -t base < <(files base)
echo "A/A: ${#base[@]} base runs"
nsio "${base[@]}" | awk '{ v[NR] = $1 } END {
	m = 0; c = 0; over = 0
	for (i = 1; i <= NR; i++) for (j = i + 1; j <= NR; j++) {
		d = 100 * (v[i] - v[j]) / v[j]; if (d < 0) d = -d
		if (d > m) m = d; c++; if (d > 0.01) over++ }
	printf "A/A pairwise |delta| ns/IO: %d pairs, max %.6f %%, %d above 0.01 %%\n", c, m, over }'

# Scratch daemon for the verdict code (perflab compare).
tmp=$(mktemp -d /tmp/icount-prec-d.XXXXXX)
build/perflabd --listen 127.0.0.1:0 --db "$tmp/db" --port-file "$tmp/port" >"$tmp/log" 2>&1 &
dpid=$!
trap 'kill $dpid 2>/dev/null; wait $dpid 2>/dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 100); do [ -s "$tmp/port" ] && break; sleep 0.05; done
key=$(build/perflabd key create --db "$tmp/db" --role submit prec)
url=http://127.0.0.1:$(cat "$tmp/port")
# cmp CTRLFILES... -- VARFILES...: prints "verdict delta ci_lo ci_hi mde"
cmp() {
	local args=() side=base f
	for f in "$@"; do
		if [ "$f" = -- ]; then side=new; continue; fi
		args+=("$side=$f")
	done
	build/perflab --server "$url" --key "$key" compare "${args[@]}" --json 2>/dev/null |
		jq -r '(.comparisons // .variants // [.])[0] | (.comparison // .) |
			"\(.verdict) \(.delta_pct) \(.ci_low // .ci_lo) \(.ci_high // .ci_hi) \(.mde_pct) \(.metric)"'
}

n=${#base[@]}
k=${AA_SIZE:-5}
fa=0; ex=0
for ((i = 0; i + 2 * k <= n; i += 2 * k)); do
	v=$(cmp "${base[@]:i:k}" -- "${base[@]:i+k:k}")
	ex=$((ex + 1))
	case $v in regression* | improvement*) fa=$((fa + 1)) ;; esac
	echo "A/A experiment $ex (runs $((i + 1))-$((i + 2 * k)), disjoint): $v"
done
echo "A/A independent $k-vs-$k experiments: $fa false alarms in $ex"
if [ "$n" -ge $((2 * k)) ]; then
	fa=0
	for s in $(seq 20); do
		mapfile -t p < <(printf '%s\n' "${base[@]}" | shuf --random-source=<(yes "$s"))
		case $(cmp "${p[@]:0:k}" -- "${p[@]:k:k}") in
		regression* | improvement*) fa=$((fa + 1)) ;;
		esac
	done
	echo "A/A resampled $k-vs-$k splits of the same runs: $fa false alarms in 20 (not independent)"
fi

mapfile -t tag < <(files tag)
if [ ${#tag[@]} -ge 2 ] && [ "$n" -ge 2 ]; then
	# The base runs of the same rounds (interleaved with the tag runs).
	nb=$((2 * ${#tag[@]} < n ? 2 * ${#tag[@]} : n))
	echo "tag (0001) vs base, $nb/${#tag[@]} runs: $(cmp "${base[@]:0:nb}" -- "${tag[@]}")"
	echo "  (verdict delta% ci_low ci_high mde% metric; ns/IO: + is slower)"
fi

mapfile -t c0 < <(files canary-0)
echo "ladder (0004, perflab_canary=N) vs N = 0, ${#c0[@]} runs per side:"
for k in $ladder; do
	[ "$k" = 0 ] && continue
	mapfile -t cn < <(files "canary-$k")
	[ ${#cn[@]} -ge 2 ] || continue
	echo "  N=$k: $(cmp "${c0[@]}" -- "${cn[@]}")"
done
for k in $ladder; do
	for f in $(files "canary-$k"); do echo "$k $(jq -r .summary.ns_per_io "$f")"; done
done | awk '{ x[NR] = $1; y[NR] = $2; if ($1 == 0) { c += $2; nc++ } }
END {
	if (!nc || NR < 3) exit
	c /= nc
	for (i = 1; i <= NR; i++) { d = 100 * (y[i] - c) / c; sx += x[i]; sy += d; sxx += x[i] ^ 2; sxy += x[i] * d; syy += d ^ 2 }
	b = (NR * sxy - sx * sy) / (NR * sxx - sx ^ 2); a = (sy - b * sx) / NR
	for (i = 1; i <= NR; i++) { d = 100 * (y[i] - c) / c; e = d - a - b * x[i]; sse += e ^ 2; sst += (d - sy / NR) ^ 2 }
	printf "ladder fit over %d runs: %.6f %% (%.3f ns) of ns/IO per canary unit, R^2 %.6f\n",
		NR, b, b * c / 100, 1 - sse / sst }'

awk '{ n++; b += $3; r += $4; if ($3 + $4 > m) m = $3 + $4 }
END { if (n) printf "wall per run (boot + run, build excluded): mean %.1f s, max %.1f s over %d runs\n", (b + r) / n, m, n }' "$out/wall"
