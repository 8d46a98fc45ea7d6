#!/usr/bin/env bash
# Description: the perflab-insn TCG plugin counts exactly the instructions
# executed between the start and end marks, attributed to their addresses:
# a tiny multiboot guest (tests/runner/data/insn-window.S) runs a 3-
# instruction loop LOOPS times between the marks, and the profile has
# those three addresses at LOOPS each, total 3 x LOOPS, nothing else (the
# marks' own blocks are corrected to the mark). Without an end mark the
# window stays open and lists nothing; padding NOPs are not marks. With
# console=on the profile is framed on stderr as the window closes, and
# alone each window of the run in turn (two windows: two frames).
top=$(cd "$(dirname "$0")/../.." && pwd)
P=$top/build/perflab-insn.so
[ -f "$P" ] || { echo "build/perflab-insn.so not built"; exit 77; }
command -v qemu-system-x86_64 >/dev/null || { echo "qemu-system-x86_64 not installed"; exit 77; }
command -v as >/dev/null && command -v ld >/dev/null || { echo "binutils not installed"; exit 77; }
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
. "$(dirname "$0")/../lib/lib.sh"
fail_context() { cat "$d/out.prof" 2>/dev/null; }

# guest NAME LOOPS NOEND PAD [PLUGIN OPTS]: build, boot under the plugin,
# profile in $d/out.prof (or, with console=on, on QEMU's stderr)
guest() {
	as --32 --defsym LOOPS="$2" --defsym NOEND="$3" --defsym PAD="$4" \
		--defsym AGAIN="${AGAIN:-0}" \
		-o "$d/$1.o" "$top/tests/runner/data/insn-window.S" &&
		ld -m elf_i386 -Ttext 0x100000 -e _start -o "$d/$1.elf" "$d/$1.o" ||
		fail "cannot build the $1 guest"
	rm -f "$d/out.prof"
	timeout 60 qemu-system-x86_64 -nodefaults -display none -accel tcg \
		-smp 1 -icount shift=0,sleep=off -no-reboot \
		-device isa-debug-exit,iobase=0xf4,iosize=1 -kernel "$d/$1.elf" \
		-plugin "$P,${5:-out=$d/out.prof}" 2>"$d/qemu.err"
	# isa-debug-exit: status (0 << 1) | 1
	[ $? = 1 ] || fail "$1: qemu did not exit through isa-debug-exit: $(cat "$d/qemu.err")"
	[ -n "${5:-}" ] || [ -s "$d/out.prof" ] || fail "$1: no profile written"
}

for n in 1000 77777; do
	guest loop "$n" 0 0
	loop=$(objdump -d "$d/loop.elf" | awk '/add +\$0x3,%eax/ { sub(":", "", $1); print $1 }')
	[ -n "$loop" ] || fail "no loop in the guest"
	hdr=$(grep -E '^(perflab-insn|markers|window|total|addrs) ' "$d/out.prof")
	body=$(grep -E '^[0-9a-f]+ [0-9]+$' "$d/out.prof" | sort)
	[ "$hdr" = "$(printf 'perflab-insn 1\nmarkers 1 1\nwindow closed\ntotal %d\naddrs 3' $((3 * n)))" ] ||
		fail "LOOPS=$n: header"
	[ "$body" = "$(printf '%x %d\n%x %d\n%x %d' $((0x$loop)) "$n" $((0x$loop + 3)) "$n" \
		$((0x$loop + 4)) "$n" | sort)" ] || fail "LOOPS=$n: want the loop's 3 addresses at $n each"
	[ "$(tail -n1 "$d/out.prof")" = end ] || fail "LOOPS=$n: no final end line"
	echo "LOOPS=$n: exact ($((3 * n)) instructions in the window)"
done

guest noend 1000 1 0
grep -qx 'markers 1 0' "$d/out.prof" && grep -qx 'window open' "$d/out.prof" &&
	grep -qx 'addrs 0' "$d/out.prof" || fail "no end mark: window must stay open and empty"
guest pad 1000 0 1
grep -qx 'markers 0 0' "$d/out.prof" && grep -qx 'window none' "$d/out.prof" ||
	fail "padding NOPs were taken for marks"
echo "open window and padding: ok"

# console=on (LAVA: QEMU's stdio is the console someone records): the same
# profile on stderr, framed, the moment the window closes; with out= too
# the file has it as well.
guest console 77777 0 0 "console=on,out=$d/out.prof"
sed -n '/^==PERFLAB-INSN-BEGIN==$/,/^==PERFLAB-INSN-END==$/p' "$d/qemu.err" |
	sed '1d;$d' >"$d/console.prof"
cmp -s "$d/console.prof" "$d/out.prof" || fail "console=on: the framed profile differs from out="
[ "$(grep -c '^==PERFLAB-INSN-BEGIN==$' "$d/qemu.err")" = 1 ] || fail "console=on: not one frame"
guest console2 1000 0 0 console=on
grep -qx 'total 3000' "$d/qemu.err" || fail "console=on alone: no profile on stderr"
guest console3 1000 1 0 console=on
grep -qx 'window open' "$d/qemu.err" || fail "console=on, window never closed: nothing at exit"
# Alone, each window as it closes (a LAVA toggle boot: one per bench run).
AGAIN=500 guest console4 1000 0 0 console=on
[ "$(grep -c '^==PERFLAB-INSN-BEGIN==$' "$d/qemu.err")" = 2 ] || fail "console=on, two windows: not two frames"
[ "$(grep -E '^(markers|window|total|addrs) ' "$d/qemu.err" | tr '\n' ';')" = \
	"markers 1 1;window closed;total 3000;addrs 3;markers 1 1;window closed;total 1500;addrs 3;" ] ||
	fail "console=on, two windows: $(grep -E '^(markers|window|total) ' "$d/qemu.err" | tr '\n' ' ')"
echo "console=on: ok"
exit 0
