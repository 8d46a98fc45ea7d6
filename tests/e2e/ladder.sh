#!/usr/bin/env bash
# Description: the calibration ladder end to end: a real
# perflabd and a real qemu-icount perflab-runner; `perflab calibrate
# --label qemu-icount --ladder --steps 0,64,256 --runs 2` boots one kernel
# built with kernel-patches/0004 (perflab_canary=N) six times. The guest
# must honour the parameter: the median ns/IO per step is strictly
# monotonic in N and the 256 step costs about 4x the 64 step over N = 0
# (linear in N); GET /api/v1/calibrations has the fit with R^2 >= 0.99 and
# a positive cost per unit, and GET /api/v1/hosts shows the host's noise
# and MDE from it.
. "$(dirname "$0")/../cli/lib.sh"
cli_need_daemon
command -v qemu-system-x86_64 >/dev/null || skip "qemu-system-x86_64 is not installed"
command -v jq >/dev/null || skip "jq is not installed"
for f in build/perflab-runner build/perflab-bench-static; do
	[ -x "$f" ] || skip "$f is not built (make; make static-bench)"
done
[ -f build/linux-source-6.1/Makefile ] || skip "base tree missing (make deps)"
[ -x /bin/busybox ] || skip "busybox-static is not installed"

RUNNER_PID=
stop_runner() {
	if [ -n "$RUNNER_PID" ]; then
		kill "$RUNNER_PID" 2>/dev/null
		wait "$RUNNER_PID" 2>/dev/null
	fi
	mkdir -p build/test-logs
	[ -f "$TMP/runner.log" ] && cp "$TMP/runner.log" build/test-logs/e2e-ladder-runner.log 2>/dev/null
	cli_cleanup
}
trap stop_runner EXIT

cli_start_daemon
key=$(cli_key submit ladder)
rkey=$(cli_key runner ladder-runner)
label=qemu-icount
host=ladder-$$
mkdir -p "$TMP/runner"
build/perflab-runner --server "$URL" --key "$rkey" --backend qemu-icount \
	--name "$host" --label "$label" --workdir "$TMP/runner" \
	--kcache "$KCACHE" --claim-wait 2 >"$TMP/runner.log" 2>&1 &
RUNNER_PID=$!

pl() { "$PERFLAB" --server "$URL" --key "$key" "$@"; }
start=$(date +%s)
id=$(pl calibrate --label "$label" --ladder --steps 0,64,256 --runs 2 -q) ||
	fail "perflab calibrate --ladder failed"
timeout 900 "$PERFLAB" --server "$URL" --key "$key" watch "$id" --interval 5 \
	>"$TMP/watch" 2>&1
rc=$?
wall=$(($(date +%s) - start))
kill -0 "$RUNNER_PID" 2>/dev/null || echo "runner died: $(tail -20 "$TMP/runner.log")"
pl show "$id" --json >"$TMP/exp.json" || fail "perflab show $id failed"
state=$(jq -r .state "$TMP/exp.json")
[ "$state" = done ] || { cat "$TMP/watch"; tail -30 "$TMP/runner.log"; fail "experiment $id is $state (watch exit $rc)"; }

# Median ns/IO per step, from the runs as stored.
med() {
	jq -r --arg v "$1" '[.runs[] | select(.variant == $v) | .summary.ns_per_io |
		select(. != null and . > 0)] | sort | if length == 2 then (.[0] + .[1]) / 2
		elif length > 0 then .[length / 2 | floor] else empty end' "$TMP/exp.json"
}
for n in 0 64 256; do
	cnt=$(jq --arg v "canary-$n" '[.runs[] | select(.variant == $v and .summary.ns_per_io > 0)] | length' "$TMP/exp.json")
	[ "$cnt" -ge 2 ] || fail "canary-$n has $cnt runs with ns/IO, want 2"
done
m0=$(med canary-0)
m64=$(med canary-64)
m256=$(med canary-256)
echo "ns/IO medians: N=0 $m0, N=64 $m64, N=256 $m256 (${wall}s wall for 6 runs)"
jq -r '.runs[] | "  \(.variant) run \(.run_index): \(.summary.ns_per_io) ns/IO, boot \(.timings.boot_s) s, run \(.timings.run_s) s"' "$TMP/exp.json"
awk -v a="$m0" -v b="$m64" -v c="$m256" 'BEGIN { exit !(a < b && b < c) }' ||
	fail "ns/IO is not monotonic in perflab_canary: $m0 / $m64 / $m256"
ratio=$(awk -v a="$m0" -v b="$m64" -v c="$m256" 'BEGIN { printf "%.3f", (c - a) / (b - a) }')
echo "cost(256) / cost(64) = $ratio (linear: 4)"
awk -v r="$ratio" 'BEGIN { exit !(r > 3.6 && r < 4.4) }' ||
	fail "the canary cost is not linear in N: ratio $ratio"

pl calibrate --label "$label" --json >"$TMP/cal.json" || fail "perflab calibrate (list) failed"
pl calibrate --label "$label"
fit=$(jq -c --argjson id "$id" '.calibrations[] | select(.id == $id) | .fit' "$TMP/cal.json")
[ -n "$fit" ] && [ "$fit" != null ] || fail "no ladder fit for experiment $id: $(cat "$TMP/cal.json")"
jq -e '.r2 >= 0.99 and .cost_per_unit > 0 and .slope_pct > 0 and .metric == "ns_per_io"' \
	<<<"$fit" >/dev/null || fail "bad ladder fit: $fit"
jq -e --argjson id "$id" '.calibrations[] | select(.id == $id) | .comparisons | length == 2' \
	"$TMP/cal.json" >/dev/null || fail "ladder steps missing"
curl -s -H "Authorization: Bearer $key" "$URL/api/v1/hosts" >"$TMP/hosts.json"
jq -e --arg h "$host" '.hosts[] | select(.name == $h) | .calibration |
	map(select(.metric == "ns_per_io" and .noise_pct > 0 and .mde_pct > 0)) | length >= 1' \
	"$TMP/hosts.json" >/dev/null || fail "host $host shows no calibrated noise/MDE: $(cat "$TMP/hosts.json")"
echo "ok"
