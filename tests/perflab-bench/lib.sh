# Shared helpers for tests/perflab-bench/*.sh (sourced, not a test itself).
top=$(cd "$(dirname "$0")/../.." && pwd)
BENCH=$top/build/perflab-bench
tmpd=$(mktemp -d /dev/shm/plb-test.XXXXXX)
loopdev=
cleanup() {
	if [ -n "$loopdev" ]; then
		# io_uring drops its file reference asynchronously after exit:
		# the detach may only complete (autoclear) a moment later.
		losetup -d "$loopdev" 2>/dev/null
		for _ in 1 2 3 4 5 6 7 8 9 10; do
			[ -e "/sys/block/${loopdev##*/}/loop/backing_file" ] || break
			sleep 0.5
		done
	fi
	rm -rf "$tmpd"
}
trap cleanup EXIT
. "$top/tests/lib/lib.sh"
[ -x "$BENCH" ] || skip "build/perflab-bench not built (make build/perflab-bench)"
# A file in /dev/shm (tmpfs: O_DIRECT needs kernel >= 6.6 there); sets $img.
shm_file() {
	img=$tmpd/img
	dd if=/dev/zero of="$img" bs=1M count="${1:-64}" status=none ||
		fail "cannot create $img"
	dd if="$img" of=/dev/null bs=4096 count=1 iflag=direct status=none 2>/dev/null ||
		skip "tmpfs here has no O_DIRECT (kernel < 6.6)"
}
# A loop device with direct IO over a /dev/shm file; sets $loopdev.
need_loop() {
	[ "$(id -u)" = 0 ] || skip "not root: cannot set up a loop device"
	command -v losetup >/dev/null || skip "losetup not installed"
	dd if=/dev/zero of="$tmpd/loop.img" bs=1M count="${1:-64}" status=none ||
		fail "cannot create $tmpd/loop.img"
	loopdev=$(losetup --direct-io=on -f --show "$tmpd/loop.img" 2>/dev/null) ||
		skip "no free loop device (losetup -f failed)"
}
