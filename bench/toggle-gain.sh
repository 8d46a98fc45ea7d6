#!/usr/bin/env bash
# The toggle design's gain, figures not assertions: what a toggle design
# (variants alternating in one boot, runs paired within it) gains over the
# per-boot design (every run its own boot) in MDE at the same runs a side.
# A scratch perflabd and one perflab-runner on BACKEND run four
# experiments of one kernel (kernel-patches/0004 + 0007):
#   per-boot A/A        perflab_canary=0 vs perflab_canary=0 (command line)
#   toggle A/A          canary 0 vs 0 (/sys/module/perflab/parameters/canary)
#   per-boot effect     perflab_canary=0 vs 2 (~6 instructions/IO, a
#                       tag-sized effect: 0001 costs ~7)
#   toggle effect       canary 0 vs 2 in one boot
# and prints each verdict with its MDE.
#   bench/toggle-gain.sh [BACKEND] [RUNS]   (qemu-icount, 10)
# qemu-icount measures ns/IO over 100,000 IOs; qemu (TCG) measures IOPS
# over 3 s after 1 s of warm-up, since wall time there is load dependent.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
backend=${1:-qemu-icount}
runs=${2:-10}
. bench/lib/lab.sh
lab_start toggle-gain "$backend"

if [ "$backend" = qemu-icount ]; then
	bench='{"runtime":2,"warmup":1,"ios":100000}'
else
	bench='{"runtime":4,"warmup":1,"ios":0}'
fi
jq -n --arg bk "$backend" --argjson runs "$runs" --argjson b "$bench" \
	--rawfile p4 kernel-patches/0004-block-perflab_canary-calibration-parameter.patch \
	--rawfile p7 kernel-patches/0007-block-perflab_canary-runtime-sysfs-parameter.patch '
	def bench: {depth: 128, submit_batch: 32, complete_batch: 32, bs: 512,
		polled: true, fixedbufs: true, regfiles: true, random: true,
		threads: 1, profile: false, target: "nullb"} + $b;
	def perboot($t; $n): {title: ("gain per-boot " + $t), label: $bk,
		backend: $bk, runs: $runs, max_runs: $runs, bench: bench,
		variants: [{name: "c0", patches: [$p4, $p7], cmdline: "perflab_canary=0"},
			   {name: ("c" + $n + "-" + $t), patches: [$p4, $p7],
			    cmdline: ("perflab_canary=" + $n)}]};
	def toggle($t; $n): {title: ("gain toggle " + $t), label: $bk,
		backend: $bk, runs: $runs, max_runs: $runs, toggle: true, bench: bench,
		variants: [{name: "c0", patches: [$p4, $p7],
			    settings: {"/sys/module/perflab/parameters/canary": "0"}},
			   {name: ("c" + $n + "-" + $t), patches: [$p4, $p7],
			    settings: {"/sys/module/perflab/parameters/canary": $n}}]};
	{experiments: [perboot("aa"; "0"), toggle("aa"; "0"),
		       perboot("effect"; "2"), toggle("effect"; "2")]}' >"$tmp/gain.json"
start=$(date +%s)
ids=$(build/perflab --server "$url" --key "$adm" run -q "$tmp/gain.json") || exit 1
for id in $ids; do
	timeout 3600 build/perflab --server "$url" --key "$adm" watch "$id" \
		--interval 5 >/dev/null 2>&1
done
echo "backend $backend, $runs runs a side, $(($(date +%s) - start)) s"
printf '%-22s %-10s %-11s %10s %10s %10s\n' design metric verdict delta% MDE% sigma%
for id in $ids; do
	build/perflab --server "$url" --key "$adm" show "$id" --json | jq -r '
		.title as $t | .comparison[] | [($t | sub("gain "; "")), .metric,
		.verdict, (.delta_pct * 1e4 | round / 1e4), (.mde_pct * 1e4 | round / 1e4),
		(.result.sigma_pct * 1e4 | round / 1e4)] | @tsv' |
		awk -F'\t' '{ printf "%-22s %-10s %-11s %10s %10s %10s\n", $1, $2, $3, $4, $5, $6 }'
done
