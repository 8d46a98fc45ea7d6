#!/usr/bin/env bash
# Wall-time cost of the perflab-insn TCG plugin (exact instruction
# profiles) on the qemu-icount tier. Alternates runs without and with the
# plugin, A B A B (PAIRS pairs, default 2), each a real boot of the base
# kernel from the cache timing --ios IOS IOs (default 200000) after a 1 s
# warm-up, and prints each run's QEMU wall time (boot + run, as
# perflab-runner measures it: from QEMU's start to its exit, the plugin's
# dump at exit included) and QEMU's CPU time (user + sys, through a
# wrapper: on a shared, loaded host the CPU time is the steadier figure),
# both means and the ratios (goal <= 1.5x). Also prints how much ns/IO
# moves with the plugin: it should not (the guest executes the same code);
# what moves it is the guest's own boot-to-boot variation (its random
# state is seeded from the RTC), a few 0.001 % at most.
# Needs build/perflab-runner, build/perflab-insn.so and a kernel cache
# (KCACHE, default build/kcache). Figures, not assertions.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
R=$top/build/perflab-runner
PLUGIN=${PLUGIN:-$top/build/perflab-insn.so}
PAIRS=${PAIRS:-2}
IOS=${IOS:-200000}
KCACHE=${KCACHE:-$("$top/scripts/kcache-dir.sh")}
for f in "$R" "$top/build/perflab-bench-static" "$PLUGIN"; do
	[ -e "$f" ] || { echo "$f not built (make; make static-bench)" >&2; exit 1; }
done
command -v qemu-system-x86_64 >/dev/null || { echo "no qemu-system-x86_64" >&2; exit 1; }
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
# QEMU under a wrapper that records its CPU seconds (bash `times`).
cat >"$w/qemu" <<'Q'
#!/usr/bin/env bash
qemu-system-x86_64 "$@"
rc=$?
times >"$QEMU_TIMES.all"	# not in a pipeline: a subshell has no children
tail -n1 "$QEMU_TIMES.all" | tr -d 's' >"$QEMU_TIMES.raw"
exit $rc
Q
chmod +x "$w/qemu"

run() { # plugin path or "none" -> prints "wall_s cpu_s ns_per_io has_exact"
	local d
	d=$(mktemp -d "$w/run.XXXX")
	QEMU_TIMES=$d/times "$R" try --backend qemu-icount --qemu "$w/qemu" \
		--insn-plugin "$1" --workdir "$d" \
		--kcache "$KCACHE" --runs 1 --bench-params \
		"{\"runtime\":30,\"warmup\":1,\"target\":\"nullb\",\"ios\":$IOS,\"profile\":false}" \
		>"$d/out" 2>"$d/err" || { tail -5 "$d/out" "$d/err" >&2; exit 1; }
	awk '/^run 1:/ { for (i = 1; i <= NF; i++) {
		if ($i == "boot") b = $(i + 1); if ($i == "run" && i > 2) r = $(i + 1) }
		sub("s", "", b); sub("s", "", r); printf "%.2f ", b + r }' "$d/out"
	# times: "0m1.234s 0m0.100s" (children user, sys)
	awk '{ n = split($1 " " $2, t, " "); c = 0
		for (i = 1; i <= 2; i++) { split(t[i], p, "m"); c += p[1] * 60 + p[2] }
		printf "%.2f ", c }' "$d/times.raw"
	jq -r '"\(.summary.ns_per_io) \(has("exact_profile"))"' "$d/try-1.json"
}

echo "qemu-icount base kernel, null_blk 512 B QD128 polled, --ios $IOS, $PAIRS pairs (A = no plugin, B = plugin)"
for ((i = 1; i <= PAIRS; i++)); do
	read -r wa ca na ea <<<"$(run none)"
	read -r wb cb nb eb <<<"$(run "$PLUGIN")"
	echo "pair $i: A wall ${wa}s cpu ${ca}s ns/IO=$na exact=$ea | B wall ${wb}s cpu ${cb}s ns/IO=$nb exact=$eb"
	awk -v a="$na" -v b="$nb" 'BEGIN { printf "  ns/IO with the plugin: %+.5f %%\n", 100 * (b / a - 1) }'
	[ "$eb" = true ] || echo "  WARNING: no exact_profile with the plugin"
	echo "$wa $wb $ca $cb" >>"$w/figs"
done
awk '{ a += $1; b += $2; ca += $3; cb += $4 } END {
	printf "wall: without plugin %.2f s, with %.2f s: %.3fx (goal <= 1.5x)\n", a / NR, b / NR, b / a
	printf "qemu cpu: without plugin %.2f s, with %.2f s: %.3fx\n", ca / NR, cb / NR, cb / ca }' "$w/figs"
