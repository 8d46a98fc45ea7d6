#!/usr/bin/env bash
# The calibration flow through the real daemon, figures not
# assertions: a scratch perflabd and one qemu-icount perflab-runner
# (kernels from build/kcache), then
#   1. perflab calibrate --label qemu-icount --ladder   (N = 0..256, RUNS)
#   2. base vs tag (kernel-patches/0001) with the calibration's bench, RUNS
#      per side: the verdict takes its MDE from the ladder's host noise;
# and prints `perflab calibrate --label qemu-icount`, the host's noise/MDE
# from GET /api/v1/hosts, the tag verdict, and the wall time.
#   bench/icount-calibration.sh [RUNS]   (default 5)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
runs=${1:-5}
. bench/lib/lab.sh
lab_start icount-cal qemu-icount
key=$sub
pl() { build/perflab --server "$url" --key "$key" "$@"; }

t0=$(date +%s)
id=$(pl calibrate --label qemu-icount --ladder --runs "$runs" -q) || exit 1
pl watch "$id" --interval 10 >/dev/null 2>&1
t1=$(date +%s)
echo "== ladder: experiment $id, 8 steps x $runs runs, $((t1 - t0)) s wall"
pl calibrate --label qemu-icount
echo "== GET /api/v1/hosts: calibration"
curl -s -H "Authorization: Bearer $key" "$url/api/v1/hosts" |
	jq -c '.hosts[] | {name, calibration: [.calibration[] | {metric, runs, noise_pct, mde_pct, experiment_id}], ladder}'

bench=$(curl -s -H "Authorization: Bearer $key" "$url/api/v1/experiments/$id" | jq -c .bench)
jq -n --argjson b "$bench" --argjson r "$runs" --rawfile p kernel-patches/0001-blk-mq-clear-rqs-on-tag-free.patch \
	'{title: "tag vs base (host-calibrated)", label: "qemu-icount", backend: "qemu-icount",
	  runs: $r, max_runs: $r, bench: $b,
	  variants: [{name: "base", patches: []}, {name: "tag", patches: [$p]}]}' >"$tmp/tag.json"
eid=$(curl -s -H "Authorization: Bearer $key" -H 'Content-Type: application/json' \
	--data-binary @"$tmp/tag.json" "$url/api/v1/experiments" | jq -r .id)
pl watch "$eid" --interval 10 >/dev/null 2>&1
t2=$(date +%s)
echo "== tag vs base: experiment $eid, $runs runs per side, $((t2 - t1)) s wall"
curl -s -H "Authorization: Bearer $key" "$url/api/v1/experiments/$eid" |
	jq -r '.comparison[] | "\(.variant): \(.result.summary), delta \(.delta_pct) % CI \(.ci_low) .. \(.ci_high) (\(.metric); MDE from the host calibration: \(.result.mde_from_host))"'
pl show "$eid" | sed -n '/%stddev/,$p' | head -12
curl -s -H "Authorization: Bearer $key" "$url/api/v1/experiments/$eid" |
	jq -r '[.runs[] | (.timings.boot_s + .timings.run_s)] | "wall per run (boot + run): mean \(add / length | . * 10 | round / 10) s, max \(max | . * 10 | round / 10) s over \(length) runs"'
