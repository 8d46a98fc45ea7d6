#!/usr/bin/env bash
# perflab-bench vs fio inside the qemu-icount guest, on null_blk with a poll
# queue (512 B, QD128, polled, batches 32/32): the comparison of issue 3 (b).
# Guest time counts instructions there, so each tool's IOPS is the whole
# stack's cost per IO with that tool driving it, repeatable to ~0.01 %.
#
# One boot of the base kernel runs ROUNDS rounds of A = perflab-bench and
# B = fio (io_uring, --hipri, same queue shape), alternating A B, B A, ...
# The guest initramfs is built here: busybox, the static perflab-bench, and
# the host's fio with the shared libraries it links (ldd).
#
# Environment: ROUNDS (3), RUNTIME (4 s guest time, warm-up included),
# WARMUP (1 s), KCACHE (build/kcache), MEM_MB (1024), FIO_EXTRA (more fio
# options, e.g. --gtod_reduce=1 for fio without per-IO timestamps).
# Figures are printed, never asserted.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
R=$top/build/perflab-runner
S=${BENCH_STATIC:-$top/build/perflab-bench-static}
ROUNDS=${ROUNDS:-3}
RUNTIME=${RUNTIME:-4}
WARMUP=${WARMUP:-1}
KCACHE=${KCACHE:-$top/build/kcache}
MEM_MB=${MEM_MB:-1024}

die() { echo "bench-vs-fio-guest: $*" >&2; exit 1; }
for f in "$R" "$S"; do
	[ -x "$f" ] || die "$f not built (make; make static-bench)"
done
for c in fio jq cpio busybox qemu-system-x86_64; do
	command -v "$c" >/dev/null || die "$c not installed (make deps)"
done
w=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] && cp "$w/console" "$KEEP"; rm -rf "$w"' EXIT

# The base kernel with the guest config plus what fio needs (System V IPC
# for its shared memory, timerfd for its helper thread); built once, then
# taken from the cache.
mkdir -p "$w/configs"
{ cat "$top/kernel-patches/configs/qemu.config"; printf "CONFIG_SYSVIPC=y\nCONFIG_TIMERFD=y\nCONFIG_EVENTFD=y\n"; } \
	>"$w/configs/qemu-fio.config"
"$R" try --backend qemu-icount --bench-static "$S" --workdir "$w/try" \
	--configs "$w/configs" --config qemu-fio \
	--kcache "$KCACHE" --runs 1 --bench-params \
	'{"runtime":2,"warmup":1,"target":"nullb"}' >"$w/try.out" 2>"$w/try.err" ||
	die "runner try failed: $(tail -n 5 "$w/try.err")"
kernel=$(sed -n 's/^try: build: [a-z]* image //p' "$w/try.err")
[ -f "$kernel" ] || die "no kernel image named in the runner output"
# the runner's guest command line (null_blk setup), as the kernel printed it
cmdline=$(sed -n 's/^Command line: //p' "$w/try/console-1.log" | tr -d '\r' |
	tr ' ' '\n' | grep -v '^perflab_' | tr '\n' ' ')
[[ $cmdline == *null_blk.poll_queues=* ]] ||
	die "no null_blk command line in the runner's console log"

root=$w/root
mkdir -p "$root"/{bin,dev,proc,sys,tmp}
cp "$(command -v busybox)" "$root/bin/busybox"
ln -s busybox "$root/bin/sh"
cp "$S" "$root/bin/perflab-bench"
fio=$(command -v fio)
cp "$fio" "$root/bin/fio"
ldd "$fio" | awk '/=> \// { print $3 } /^\t\/lib/ { print $1 }' |
	while read -r lib; do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done

fio_args="--name=randread --filename=/dev/nullb0 --ioengine=io_uring \
--registerfiles --fixedbufs --hipri --iodepth=128 --iodepth_batch_submit=32 \
--iodepth_batch_complete_min=32 --bs=512 --direct=1 --rw=randread \
--norandommap --randrepeat=0 --thread --time_based --ramp_time=$WARMUP \
--runtime=$((RUNTIME - WARMUP)) --output-format=json ${FIO_EXTRA:-}"
cat >"$root/init" <<EOF
#!/bin/sh
export PATH=/bin
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev 2>/dev/null
echo 1 > /proc/sys/kernel/printk
i=0
while [ ! -b /dev/nullb0 ] && [ \$i -lt 100 ]; do sleep 0.1; i=\$((i+1)); done
run_a() {
	/bin/perflab-bench -r $RUNTIME -w $WARMUP -j /tmp/a.json /dev/nullb0 >/tmp/a.log 2>&1
	echo "@@A rc=\$? \$(tail -n 1 /tmp/a.log)"
	echo "@@AJSON \$(tr -d '\n' < /tmp/a.json)"
}
run_b() {
	/bin/fio $fio_args --output=/tmp/b.json >/tmp/b.log 2>&1
	rc=\$?
	[ \$rc -eq 0 ] || sed 's/^/fio: /' /tmp/b.log
	echo "@@B rc=\$rc \$(tail -n 1 /tmp/b.log)"
	echo "@@BJSON \$(tr -d '\n' < /tmp/b.json)"
}
r=1
while [ \$r -le $ROUNDS ]; do
	if [ \$((r % 2)) -eq 1 ]; then run_a; run_b; else run_b; run_a; fi
	r=\$((r+1))
done
echo @@DONE
poweroff -f
EOF
chmod 755 "$root/init"
(cd "$root" && find . | cpio -o -H newc --quiet) >"$w/initrd"

echo "qemu-icount guest, kernel $(basename "$(dirname "$kernel")" | cut -c1-12)," \
	"512 B QD128 polled, $ROUNDS rounds of ${RUNTIME}s (${WARMUP}s warm-up)"
echo "guest command line: $cmdline"
echo "A: perflab-bench -r $RUNTIME -w $WARMUP /dev/nullb0 (defaults: -p1 -B1 -F1 -s32 -c32)"
echo "B: fio $fio_args"
timeout $((120 + ROUNDS * RUNTIME * 2 * 60)) qemu-system-x86_64 -nodefaults \
	-no-user-config -display none -monitor none -no-reboot -nic none \
	-accel tcg -icount shift=0,sleep=off -smp 1 -m "$MEM_MB" \
	-serial "file:$w/console" -kernel "$kernel" -initrd "$w/initrd" \
	-append "$cmdline" >"$w/qemu.log" 2>&1 || true
grep -q '^@@DONE' "$w/console" ||
	die "guest did not finish: $(tail -n 20 "$w/console")"
if grep -q '^@@[AB] rc=[1-9]' "$w/console"; then
	grep '^@@[AB] rc=\|^fio: ' "$w/console" >&2
	die "a run failed in the guest"
fi

printf '%-6s %-3s %12s %12s\n' round run IOPS cpu_ns/IO
n=0
while IFS= read -r line; do
	tag=${line%% *}
	json=${line#* }
	case $tag in
	@@AJSON)
		v=A
		fig=$(jq -r '"\(.summary.mean) \(.cpu.user_ns_per_io + .cpu.sys_ns_per_io)"' <<<"$json") ;;
	@@BJSON)
		v=B
		fig=$(jq -r '.jobs[0] | "\(.read.iops) \((.usr_cpu + .sys_cpu) / 100 * 1e9 / .read.iops)"' <<<"$json") ;;
	*) continue ;;
	esac
	n=$((n + 1))
	echo "$v $fig" >>"$w/figs"
	printf '%-6s %-3s %12.0f %12.1f\n' $(((n + 1) / 2)) "$v" $fig
done <"$w/console"

awk '
	{ s[$1] += $2; c[$1] += $3; k[$1]++
	  if (!($1 in lo) || $2 < lo[$1]) lo[$1] = $2; if ($2 > hi[$1]) hi[$1] = $2 }
	END {
		a = s["A"] / k["A"]; b = s["B"] / k["B"]
		printf "mean IOPS: A=%.0f B(fio)=%.0f\n", a, b
		printf "A/A spread %.3f %%, B/B spread %.3f %%\n", 100 * (hi["A"] - lo["A"]) / a, 100 * (hi["B"] - lo["B"]) / b
		printf "IOPS ratio A/B: %.4f (goal >= 1.02)\n", a / b
		printf "CPU ns/IO: A=%.1f B(fio)=%.1f (A/B %.3f, goal < 1)\n", c["A"] / k["A"], c["B"] / k["B"], (c["A"] / k["A"]) / (c["B"] / k["B"])
	}' "$w/figs"
