#!/usr/bin/env bash
# perflab-bench vs t/io_uring vs fio inside the qemu-icount guest, on
# null_blk with a poll queue (512 B, QD128, polled, batches 32/32, fixed
# buffers, registered file and ring). Guest time
# counts instructions there, so each tool's IOPS is the whole stack's cost
# per IO with that tool driving it (1e9 / IOPS instructions per IO),
# repeatable to ~0.002 %.
#
# One boot of the base kernel runs ROUNDS rounds of every tool, in an order
# rotated by one each round (A V.. T F, V.. T F A, ...):
#   A  perflab-bench (build/perflab-bench-static)
#   V  optional perflab-bench variants: VARIANTS="name=binary[,arg]... ..."
#      (another static build, or the same one with other options)
#   T  fio's t/io_uring, static, built from the fio source package by
#      bench/build-t-io_uring.sh (-d128 -s32 -c32 -b512 -p1 -B1 -F1 -R1 -X1)
#   F  fio's io_uring engine (--hipri, same queue shape), the host's fio
#      with the shared libraries it links (ldd); NOFIO=1 leaves it out
# A and V report the mean of their per-second lines after the warm-up (and
# with IOS=n, the exact ns per IO of n timed IOs); T prints only per-second
# lines with 5 significant digits: the mean of those after the warm-up.
#
# ACCOUNT=1 adds two boots (ACCOUNT=only: just those) with the perflab-insn TCG plugin
# (build/perflab-insn.so) for the exact per-IO accounting of A and T, user
# and kernel, by symbol (bench/insn-account.py): A alone with --ios
# ACCOUNT_IOS (1000000) in its own window marks, T alone between two
# bench/insn-mark programs (its window then includes its start and exit);
# ACCOUNT_A_ONLY=1: A alone.
#
# Environment: ROUNDS (3), RUNTIME (4 s guest time, warm-up included),
# WARMUP (1 s), KCACHE (build/kcache), MEM_MB (1024), FIO_EXTRA (more fio
# options), KEEP (a directory: the guest consoles and plugin outputs are
# copied there). Figures are printed,
# never asserted.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
R=$top/build/perflab-runner
S=${BENCH_STATIC:-$top/build/perflab-bench-static}
ROUNDS=${ROUNDS:-3}
RUNTIME=${RUNTIME:-4}
WARMUP=${WARMUP:-1}
KCACHE=${KCACHE:-$("$top/scripts/kcache-dir.sh")}
MEM_MB=${MEM_MB:-1024}

die() { echo "bench-vs-fio-guest: $*" >&2; exit 1; }
for f in "$R" "$S"; do
	[ -x "$f" ] || die "$f not built (make; make static-bench)"
done
for c in fio jq cpio busybox qemu-system-x86_64; do
	command -v "$c" >/dev/null || die "$c not installed (make deps)"
done
T=$("$top/bench/build-t-io_uring.sh") || die "no t/io_uring"
w=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] && mkdir -p "$KEEP" && cp "$w"/con* "$w"/prof-* "$KEEP" 2>/dev/null; rm -rf "$w"' EXIT

# The base kernel with the guest config plus what fio needs (System V IPC
# for its shared memory, timerfd for its helper thread); built once, then
# taken from the cache. Without fio (NOFIO=1), the runner's own base kernel.
mkdir -p "$w/configs"
{ cat "$top/kernel-patches/configs/qemu.config"; printf "CONFIG_SYSVIPC=y\nCONFIG_TIMERFD=y\nCONFIG_EVENTFD=y\n"; } \
	>"$w/configs/qemu-fio.config"
kconf=(--configs "$w/configs" --config qemu-fio)
[ -z "${NOFIO:-}" ] || kconf=()
"$R" try --backend qemu-icount --bench-static "$S" --workdir "$w/try" \
	"${kconf[@]}" --kcache "$KCACHE" --runs 1 --bench-params \
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
cp "$T" "$root/bin/t-io_uring"
fio=$(command -v fio)
cp "$fio" "$root/bin/fio"
ldd "$fio" | awk '/=> \// { print $3 } /^\t\/lib/ { print $1 }' |
	while read -r lib; do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done

ios_arg=${IOS:+--ios $IOS}
bench_args="-r $RUNTIME -w $WARMUP $ios_arg"
t_args="-d128 -s32 -c32 -b512 -p1 -B1 -F1 -R1 -X1 -n1 -r$RUNTIME"
fio_args="--name=randread --filename=/dev/nullb0 --ioengine=io_uring \
--registerfiles --fixedbufs --hipri --iodepth=128 --iodepth_batch_submit=32 \
--iodepth_batch_complete_min=32 --bs=512 --direct=1 --rw=randread \
--norandommap --randrepeat=0 --thread --time_based --ramp_time=$WARMUP \
--runtime=$((RUNTIME - WARMUP)) --output-format=json ${FIO_EXTRA:-}"

# Tool list and one shell function per tool in the guest's init.
tools="A"
funcs="run_A() { bench A /bin/perflab-bench; }"
i=0
for v in ${VARIANTS:-}; do
	i=$((i + 1))
	name=${v%%=*}
	spec=${v#*=}
	bin=${spec%%,*}
	args=
	[[ $spec == *,* ]] && args=$(tr ',' ' ' <<<"${spec#*,}")
	[ -x "$bin" ] || die "variant $name: $bin not executable"
	cp "$bin" "$root/bin/variant$i"
	tools="$tools V$i"
	funcs="$funcs
run_V$i() { bench V$i /bin/variant$i $args; }"
	echo "V$i: $name = $(basename "$bin") $args"
done
tools="$tools T"
[ -n "${NOFIO:-}" ] || tools="$tools F"

# The guest's init: common setup, one function per tool, then $1.
write_init() {
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
bench() {
	tag=\$1; shift
	"\$@" $bench_args -j /tmp/a.json /dev/nullb0 >/tmp/a.log 2>&1
	echo "@@\$tag rc=\$? \$(tail -n 1 /tmp/a.log)"
	echo "@@JSON \$tag \$(tr -d '\n' < /tmp/a.json)"
}
$funcs
run_T() {
	/bin/t-io_uring $t_args /dev/nullb0 >/tmp/t.log 2>&1
	echo "@@T rc=\$? \$(tail -n 1 /tmp/t.log)"
	sed -n 's/^IOPS=/@@TLINE /p' /tmp/t.log
	echo "@@TEND"
}
run_F() {
	/bin/fio $fio_args --output=/tmp/b.json >/tmp/b.log 2>&1
	rc=\$?
	[ \$rc -eq 0 ] || sed 's/^/fio: /' /tmp/b.log
	echo "@@F rc=\$rc \$(tail -n 1 /tmp/b.log)"
	echo "@@JSON F \$(tr -d '\n' < /tmp/b.json)"
}
$1
echo @@DONE
poweroff -f
EOF
	chmod 755 "$root/init"
	(cd "$root" && find . | cpio -o -H newc --quiet) >"$w/initrd"
}

# boot CONSOLE [qemu args]: one boot of the initramfs, console to CONSOLE
boot() {
	local con=$1
	shift
	timeout $((120 + ROUNDS * RUNTIME * ntools * 60)) qemu-system-x86_64 \
		-nodefaults -no-user-config -display none -monitor none \
		-no-reboot -nic none -accel tcg -icount shift=0,sleep=off -smp 1 \
		-m "$MEM_MB" -serial "file:$w/console.raw" -kernel "$kernel" \
		-initrd "$w/initrd" -append "$cmdline" "$@" >"$w/qemu.log" 2>&1 || true
	tr -d '\r' <"$w/console.raw" >"$con"
	grep -q '^@@DONE' "$con" ||
		die "guest did not finish: $(tail -n 20 "$con")"
	if grep -q '^@@[A-Z0-9]* rc=[1-9]' "$con"; then
		grep '^@@[A-Z0-9]* rc=\|^fio: ' "$con" >&2
		die "a run failed in the guest"
	fi
}

write_init "set -- $tools
r=1
while [ \$r -le $ROUNDS ]; do
	echo \"@@ROUND \$r \$*\"
	for t in \"\$@\"; do run_\$t; done
	# rotate the order by one for the next round
	first=\$1; shift; set -- \"\$@\" \$first
	r=\$((r+1))
done
"
ntools=$(wc -w <<<"$tools")
echo "qemu-icount guest, kernel $(basename "$(dirname "$kernel")" | cut -c1-12)," \
	"512 B QD128 polled, $ROUNDS rounds of ${RUNTIME}s (${WARMUP}s warm-up), order rotated"
echo "guest command line: $cmdline"
echo "A: perflab-bench $bench_args /dev/nullb0 (defaults: -d128 -p1 -B1 -F1 -s32 -c32)"
echo "T: t/io_uring $t_args /dev/nullb0"
[[ $tools == *F* ]] && echo "F: fio $fio_args"
# The comparison boot: per-run figures, then per tool.
compare() {
	boot "$w/con"

	# One line per run: tool round IOPS ns/IO(exact with IOS, else -)
	round=0
	while IFS= read -r line; do
		set -- $line
		case $1 in
		@@ROUND) round=$2 ;;
		@@JSON)
			tag=$2
			json=${line#@@JSON $tag }
			if [ "$tag" = F ]; then
				fig=$(jq -r '.jobs[0] | "\(.read.iops) -"' <<<"$json")
			else
				fig=$(jq -r '"\(.summary.mean) \(if (.summary.ns_per_io // 0) > 0 then .summary.ns_per_io else "-" end)"' <<<"$json")
			fi
			echo "$tag $round $fig" >>"$w/figs" ;;
		@@TLINE) tl="${tl:-} $2" ;;
		@@TEND)
			# "480.70K," per second; the first WARMUP lines are warm-up
			fig=$(tr ' ' '\n' <<<"${tl:-}" | sed -n 's/,$//p' |
				awk -v w="$WARMUP" '{ v = $1; m = 1
					if (v ~ /K$/) m = 1e3; if (v ~ /M$/) m = 1e6
					sub(/[KM]$/, "", v); if (NR > w) { s += v * m; n++ } }
					END { printf "%.1f", n ? s / n : 0 }')
			tl=
			echo "T $round $fig -" >>"$w/figs" ;;
		esac
	done <"$w/con"

	printf '%-6s %-4s %12s %12s\n' round tool IOPS insn/IO
	awk '{ printf "%-6s %-4s %12.1f %12.2f\n", $2, $1, $3, 1e9 / $3 }' "$w/figs"
	awk '
		{ s[$1] += $3; k[$1]++; if ($4 != "-") { x[$1] += $4; kx[$1]++ }
		  if (!($1 in lo) || $3 < lo[$1]) lo[$1] = $3; if ($3 > hi[$1]) hi[$1] = $3 }
		END {
			t = s["T"] / k["T"]
			printf "%-4s %12s %9s %12s %10s %10s\n", "tool", "mean IOPS", "insn/IO", "exact ns/IO", "spread %", "IOPS/T"
			n = split("A V1 V2 V3 V4 V5 V6 T F", order, " ")
			for (i = 1; i <= n; i++) {
				v = order[i]
				if (!(v in k)) continue
				m = s[v] / k[v]
				printf "%-4s %12.1f %9.2f %12s %10.4f %10.4f\n", v, m, 1e9 / m,
					(v in kx) ? sprintf("%.2f", x[v] / kx[v]) : "-",
					100 * (hi[v] - lo[v]) / m, m / t
			}
			printf "IOPS ratio perflab-bench / t/io_uring: %.4f (goal >= 1.00, stretch 1.02)\n", s["A"] / k["A"] / t
			if ("F" in k)
				printf "IOPS ratio perflab-bench / fio: %.4f\n", s["A"] / k["A"] / (s["F"] / k["F"])
		}' "$w/figs"
}

# The two accounting boots, with the perflab-insn plugin.
account() {
	local plugin=$top/build/perflab-insn.so sysmap aios

	sysmap=$(dirname "$kernel")/System.map
	[ -f "$plugin" ] || die "$plugin not built (make)"
	[ -f "$sysmap" ] || die "no System.map next to $kernel (rebuild the image)"
	cc -static -O2 -I"$top" -o "$root/bin/insn-mark" "$top/bench/insn-mark.c" ||
		die "cannot build insn-mark"
	aios=${ACCOUNT_IOS:-1000000}
	write_init "/bin/perflab-bench -r $((RUNTIME + 10)) -w $WARMUP --ios $aios /dev/nullb0 >/tmp/a.log 2>&1
	echo \"@@A rc=\$? \$(tail -n 1 /tmp/a.log)\""
	boot "$w/con-acct-A" -plugin "$plugin,out=$w/prof-A"
	if [ -n "${ACCOUNT_A_ONLY:-}" ]; then
		python3 "$top/bench/insn-account.py" --sysmap "$sysmap" \
			--top "${ACCOUNT_TOP:-40}" "A=$w/prof-A:$S"
		return
	fi
	write_init "/bin/insn-mark start
	/bin/t-io_uring $t_args /dev/nullb0 >/tmp/t.log 2>&1
	rc=\$?
	/bin/insn-mark end
	echo \"@@T rc=\$rc \$(tail -n 1 /tmp/t.log)\""
	boot "$w/con-acct-T" -plugin "$plugin,out=$w/prof-T"
	echo
	echo "exact accounting (perflab-insn), A: --ios $aios window; T: whole run of $t_args"
	python3 "$top/bench/insn-account.py" --sysmap "$sysmap" --top "${ACCOUNT_TOP:-40}" \
		"A=$w/prof-A:$S" "T=$w/prof-T:$T"
}

[ "${ACCOUNT:-}" = only ] || compare
[ -z "${ACCOUNT:-}" ] || account
