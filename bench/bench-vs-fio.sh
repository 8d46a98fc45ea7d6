#!/usr/bin/env bash
# perflab-bench vs fio on the same target, interleaved: each round runs
# A = perflab-bench, B = fio (io_uring, same queue shape) and C =
# perflab-bench -P, in a rotating order (A B C, B C A, C A B, ...) so drift
# cancels. Prints per-run figures and the summary:
#   IOPS ratio A/B, CPU ns per IO of A and B, IOPS cost of -P (1 - C/A).
#
# Target: a loop device with direct IO over a file in /dev/shm (needs root),
# or TARGET=/dev/... to use an existing device. Loop has no poll queues, so
# the run is interrupt-driven: perflab-bench -p0, fio without --hipri; with
# POLL=1 (a device with poll queues) both poll (-p1, --hipri).
#
# Environment: ROUNDS (3), RUNTIME (10 s, warm-up included), WARMUP (2 s),
# SIZE_MB (1024), TARGET, POLL (0), BENCH (build/perflab-bench), CPU (0),
# NICE (unset; e.g. -10 runs both tools at that priority on a busy host).
# Figures are noisy when other work shares the machine; they are printed,
# never asserted.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
BENCH=${BENCH:-$top/build/perflab-bench}
ROUNDS=${ROUNDS:-3}
RUNTIME=${RUNTIME:-10}
WARMUP=${WARMUP:-2}
SIZE_MB=${SIZE_MB:-1024}
POLL=${POLL:-0}
CPU=${CPU:-0}
TARGET=${TARGET:-}
prio=()
[ -n "${NICE:-}" ] && prio=(nice -n "$NICE")

die() { echo "bench-vs-fio: $*" >&2; exit 1; }
command -v fio >/dev/null || die "fio not installed"
command -v jq >/dev/null || die "jq not installed"
[ -x "$BENCH" ] || die "$BENCH not built (make build/perflab-bench)"

work=$(mktemp -d /dev/shm/plb-bench.XXXXXX)
loop=
cleanup() {
	if [ -n "$loop" ]; then
		losetup -d "$loop" 2>/dev/null || true
		for _ in 1 2 3 4 5 6 7 8 9 10; do
			[ -e "/sys/block/${loop##*/}/loop/backing_file" ] || break
			sleep 0.5
		done
	fi
	rm -rf "$work"
}
trap cleanup EXIT

if [ -z "$TARGET" ]; then
	[ "$(id -u)" = 0 ] || die "needs root for the loop device (or set TARGET)"
	dd if=/dev/zero of="$work/img" bs=1M count="$SIZE_MB" status=none
	loop=$(losetup --direct-io=on -f --show "$work/img")
	TARGET=$loop
fi

hipri=
[ "$POLL" = 1 ] && hipri=--hipri
run_a() { # json-out [extra args]
	local out=$1
	shift
	"${prio[@]}" "$BENCH" -p"$POLL" -r "$RUNTIME" -w "$WARMUP" -j "$out" "$@" "$TARGET" \
		>"$out.log" 2>&1 || die "perflab-bench failed: $(tail -n 3 "$out.log")"
}
run_b() { # json-out
	"${prio[@]}" fio --name=randread --filename="$TARGET" --ioengine=io_uring \
		--registerfiles --fixedbufs $hipri --iodepth=128 \
		--iodepth_batch_submit=32 --iodepth_batch_complete_min=32 \
		--bs=512 --direct=1 --rw=randread --norandommap --randrepeat=0 \
		--cpus_allowed="$CPU" --time_based --ramp_time="$WARMUP" \
		--runtime=$((RUNTIME - WARMUP)) --output-format=json \
		--write_iops_log="$1" --log_avg_msec=1000 \
		--output="$1" >/dev/null 2>"$1.log" ||
		die "fio failed: $(tail -n 3 "$1.log")"
}
# IOPS (mean), CPU ns/IO (user+sys) and the best second's IOPS of a run;
# the best second is less sensitive to other work on the machine.
fig_a() {
	jq -r '"\(.summary.mean) \(.cpu.user_ns_per_io + .cpu.sys_ns_per_io) \([.samples[.summary.warmup:][].iops] | max)"' "$1"
}
fig_b() {
	local peak
	peak=$(awk -F, '$2 + 0 > m { m = $2 + 0 } END { print m + 0 }' "$1"_iops.*.log)
	jq -r --arg p "$peak" '.jobs[0] | "\(.read.iops) \((.usr_cpu + .sys_cpu) / 100 * 1e9 / .read.iops) \($p)"' "$1"
}

echo "target: $TARGET  (poll=$POLL, ${RUNTIME}s runs, ${WARMUP}s warm-up, $ROUNDS rounds)"
echo "A: $BENCH -p$POLL -r $RUNTIME -w $WARMUP $TARGET   (pinned to CPU 0)"
echo "B: fio --ioengine=io_uring --registerfiles --fixedbufs $hipri --iodepth=128" \
	"--iodepth_batch_submit=32 --iodepth_batch_complete_min=32 --bs=512" \
	"--direct=1 --rw=randread --norandommap --randrepeat=0 --cpus_allowed=$CPU"
echo "C: A with -P (system-wide libperf profile)"
[ ${#prio[@]} -gt 0 ] && echo "all runs under: ${prio[*]}"
printf '%-6s %-3s %12s %12s %12s\n' round run IOPS cpu_ns/IO best_second
order=(A B C)
for ((r = 1; r <= ROUNDS; r++)); do
	for ((k = 0; k < 3; k++)); do
		v=${order[$(((r - 1 + k) % 3))]}
		f=$work/$v$r.json
		case $v in
		A) run_a "$f"; fig=$(fig_a "$f") ;;
		B) run_b "$f"; fig=$(fig_b "$f") ;;
		C) run_a "$f" -P; fig=$(fig_a "$f") ;;
		esac
		echo "$v $fig" >>"$work/figs"
		printf '%-6s %-3s %12.0f %12.1f %12.0f\n' "$r" "$v" $fig
	done
done

awk '
	{ iops[$1] += $2; cpu[$1] += $3; peak[$1] += $4; n[$1]++ }
	END {
		for (v in n) { iops[v] /= n[v]; cpu[v] /= n[v]; peak[v] /= n[v] }
		printf "mean IOPS: A=%.0f B(fio)=%.0f C(-P)=%.0f\n", iops["A"], iops["B"], iops["C"]
		printf "IOPS ratio A/B: %.4f (goal >= 1.02)\n", iops["A"] / iops["B"]
		printf "best-second IOPS: A=%.0f B(fio)=%.0f C(-P)=%.0f, ratio A/B %.4f\n", peak["A"], peak["B"], peak["C"], peak["A"] / peak["B"]
		printf "CPU ns/IO: A=%.1f B(fio)=%.1f C(-P)=%.1f (A/B %.3f, goal < 1)\n", cpu["A"], cpu["B"], cpu["C"], cpu["A"] / cpu["B"]
		printf "cost of -P: IOPS %.2f%%, CPU/IO %+.2f%% (goal <= 1%%)\n", 100 * (1 - iops["C"] / iops["A"]), 100 * (cpu["C"] / cpu["A"] - 1)
	}' "$work/figs"
# per-round ratios and their medians show the spread
awk '
	function median(a, n,   i, j, t) {
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
				t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
			}
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	# prints "per-round WHAT X/Y: r1 r2 ...  median m" for figure column f
	function rounds(what, x, y, f,   i, r) {
		printf "per-round %s %s/%s:", what, x, y
		for (i = 1; i <= n; i++) {
			r[i] = fig[x, i, f] / fig[y, i, f]
			printf " %.3f", r[i]
		}
		printf "  median %.3f\n", median(r, n)
	}
	{ c[$1]++; fig[$1, c[$1], 2] = $2; fig[$1, c[$1], 3] = $3; fig[$1, c[$1], 4] = $4 }
	END {
		n = c["A"]
		rounds("IOPS", "A", "B", 2); rounds("CPU/IO", "A", "B", 3)
		rounds("best-second", "A", "B", 4)
		rounds("IOPS", "C", "A", 2); rounds("CPU/IO", "C", "A", 3)
		rounds("best-second", "C", "A", 4)
	}' "$work/figs"
