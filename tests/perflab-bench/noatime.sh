#!/usr/bin/env bash
# Description: the target is opened with O_NOATIME (no atime check on every
# read, as t/io_uring does), and without it, instead of failing, when the
# user does not own the file (EPERM).
. "$(dirname "$0")/lib.sh"
shm_file 64
# flags of the fd open on $img in process $1, octal as in fdinfo
target_flags() {
	local fd
	for fd in /proc/"$1"/fd/*; do
		[ "$(readlink "$fd")" = "$img" ] || continue
		awk '/^flags:/ { print $2 }' /proc/"$1"/fdinfo/"${fd##*/}"
		return
	done
}
# run [prefix...]: bench in the background, prints the target's fd flags
run() {
	local pid flags= i
	"$@" "$BENCH" -p0 -r 3 -w 1 "$img" >"$tmpd/out" 2>&1 &
	pid=$!
	for i in $(seq 50); do
		flags=$(target_flags "$pid" 2>/dev/null)
		[ -n "$flags" ] && break
		sleep 0.1
	done
	wait "$pid" || fail "bench failed: $(cat "$tmpd/out")"
	echo "$flags"
}
O_NOATIME=01000000
f=$(run)
[ -n "$f" ] || fail "never saw the target open"
(( (8#$f & 8#$O_NOATIME) != 0 )) || fail "target flags $f lack O_NOATIME"
# someone else's file: O_NOATIME is refused (EPERM), the plain open is used
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	chmod 755 "$tmpd" && chmod 644 "$img"
	f=$(run setpriv --reuid=65534 --regid=65534 --clear-groups)
	[ -n "$f" ] || fail "never saw the target open as another user"
	(( (8#$f & 8#$O_NOATIME) == 0 )) || fail "O_NOATIME on a file not owned"
fi
echo "noatime: ok"
