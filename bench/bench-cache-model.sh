#!/usr/bin/env bash
# The perflab-insn cache model on the qemu-icount tier: its wall-time
# cost, its boot-to-boot determinism, and what it says about a seed patch.
# Figures, not assertions.
#
# 1. Cost: PAIRS pairs (default 2) of real boots of the cached base
#    kernel, A = the plugin counting instructions only, B = the plugin
#    with cache=on (bench "cache": true), --ios IOS (default 200000);
#    QEMU wall time (boot + run, as perflab-runner reports them) and the
#    ratio B/A (the issue's line: above 1.5x the model runs only in the
#    profile runs of an experiment).
# 2. A/A: the B boots' window totals of every event, and the largest
#    per-symbol difference in misses per IO between two B boots.
# 3. TAG=1: kernel-patches/0001 (tags->rqs[] cleared on tag free) against
#    the base with the cache model: per symbol instructions, L1 misses
#    and estimated cycles per IO, the rows that move most in cycles.
# Needs build/perflab-runner, build/perflab-insn.so, make static-bench
# and a kernel cache (KCACHE, default build/kcache); run it under the
# heavy lock.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
R=$top/build/perflab-runner
PAIRS=${PAIRS:-2}
IOS=${IOS:-200000}
KCACHE=${KCACHE:-$("$top/scripts/kcache-dir.sh")}
for f in "$R" "$top/build/perflab-bench-static" "$top/build/perflab-insn.so"; do
	[ -e "$f" ] || { echo "$f not built (make; make static-bench)" >&2; exit 1; }
done
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT

run() { # NAME CACHE(true|false) [try args] -> $w/NAME.json; prints wall s
	local name=$1 cache=$2
	shift 2
	"$R" try --backend qemu-icount --workdir "$w/$name" --kcache "$KCACHE" \
		--runs 1 --bench-params "{\"runtime\":30,\"warmup\":1,\"target\":\"nullb\",\"ios\":$IOS,\"profile\":false,\"cache\":$cache}" \
		"$@" >"$w/$name.out" 2>"$w/$name.err" ||
		{ tail -n 5 "$w/$name.out" "$w/$name.err" >&2; exit 1; }
	cp "$w/$name/try-1.json" "$w/$name.json"
	awk '/^run 1:/ { for (i = 1; i <= NF; i++) {
		if ($i == "boot") b = $(i + 1); if ($i == "run" && i > 2) r = $(i + 1) }
		sub("s", "", b); sub("s", "", r); printf "%.2f\n", b + r }' "$w/$name.out"
}

echo "qemu-icount base kernel, null_blk 512 B QD128 polled, --ios $IOS; A = instructions only, B = cache=on"
for ((i = 1; i <= PAIRS; i++)); do
	a=$(run "a$i" false)
	b=$(run "b$i" true)
	echo "pair $i: A ${a}s B ${b}s"
	echo "$a $b" >>"$w/figs"
done
awk '{ a += $1; b += $2 } END { printf "wall: A %.2f s, B %.2f s: %.3fx\n", a / NR, b / NR, b / a }' "$w/figs"

ev='["total","data_reads","data_writes","l1i_misses","l1d_read_misses","l1d_write_misses","ll_misses","est_cycles"]'
echo "window totals of the B boots (per IO):"
for ((i = 1; i <= PAIRS; i++)); do
	jq -r --argjson ev "$ev" '.exact_profile as $p | "  b'"$i"': " +
		([$ev[] | "\(.) \($p[.] / $p.ios | . * 1000 | round / 1000)"] | join(", "))' "$w/b$i.json"
done
if [ "$PAIRS" -ge 2 ]; then
	jq -rs --argjson ev "$ev" '
	  def per(p): [p.symbols[] | {key: (.dso + " " + .sym), value: .}] | from_entries;
	  (.[0].exact_profile) as $x | (.[1].exact_profile) as $y |
	  per($x) as $a | per($y) as $b |
	  "A/A b1 vs b2: " + ([$ev[] | . as $e | "\($e) \(($y[$e] - $x[$e]) / $x[$e] * 100 | . * 1e4 | round / 1e4) %"] | join(", ")),
	  ([($a | keys[]), ($b | keys[])] | unique | map(. as $k |
	    [("l1i_misses", "l1d_read_misses", "l1d_write_misses", "ll_misses") as $e |
	     ((($b[$k][$e] // 0) / $y.ios) - (($a[$k][$e] // 0) / $x.ios)) | fabs] | max) | max) as $m |
	  "  largest per-symbol |delta| of a miss count: \($m) per IO"' "$w/b1.json" "$w/b2.json"
fi

if [ "${TAG:-0}" = 1 ]; then
	run tag true --patch "$top/kernel-patches/0001-blk-mq-clear-rqs-on-tag-free.patch" >/dev/null
	echo "tag (kernel-patches/0001) vs base b1, per IO: the 10 rows that move most in estimated cycles"
	jq -rs '
	  def per(p): [p.symbols[] | {key: .sym, value: .}] | from_entries;
	  def r(x): x * 1000 | round / 1000;
	  (.[0].exact_profile) as $x | (.[1].exact_profile) as $y | per($x) as $a | per($y) as $b |
	  def d($k; $f): (($b[$k][$f] // 0) / $y.ios) - (($a[$k][$f] // 0) / $x.ios);
	  def l1(s): (s.l1i_misses // 0) + (s.l1d_read_misses // 0) + (s.l1d_write_misses // 0);
	  "  TOTAL: insns \(r(($y.total / $y.ios) - ($x.total / $x.ios))) (\(r((($y.total / $y.ios) / ($x.total / $x.ios) - 1) * 100)) %), est_cycles \(r(($y.est_cycles / $y.ios) - ($x.est_cycles / $x.ios))) (\(r((($y.est_cycles / $y.ios) / ($x.est_cycles / $x.ios) - 1) * 100)) %), L1 misses \(r(l1($y) / $y.ios - l1($x) / $x.ios)), LL misses \(r($y.ll_misses / $y.ios - $x.ll_misses / $x.ios))",
	  ([($a | keys[]), ($b | keys[])] | unique | map({k: ., c: d(.; "est_cycles"), i: d(.; "insns"),
	    m: ((l1($b[.] // {}) / $y.ios) - (l1($a[.] // {}) / $x.ios))}) |
	    sort_by(-(.c | fabs)) | .[:10][] | "  \(.k): insns \(r(.i)), L1 misses \(r(.m)), est_cycles \(r(.c))")' \
		"$w/b1.json" "$w/tag.json"
fi
