#!/usr/bin/env bash
# Description: perflab-runner refuses bad command lines with a clear message
# and exit 2 (missing server/key/target, unknown backend: the message
# lists the registered ones, bad numbers, hostile bench parameters), and
# documents its flags and every backend with its own options in --help.
top=$(cd "$(dirname "$0")/../.." && pwd)
R=$top/build/perflab-runner
[ -x "$R" ] || { echo "build/perflab-runner not built"; exit 77; }
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
fails=0
expect() { # expect RC PATTERN ARGS...
	local rc=$1 pat=$2 out got
	shift 2
	out=$("$R" "$@" 2>&1)
	got=$?
	if [ $got -ne "$rc" ] || ! grep -q -- "$pat" <<<"$out"; then
		echo "FAIL: $* -> rc $got: $out"
		fails=$((fails + 1))
	fi
}
expect 0 "qemu-icount" --help
expect 0 "-icount shift=0,sleep=off" --help
expect 2 "--backend is required" --server http://x --key k
for b in local qemu qemu-icount kexec; do
	expect 2 "must be one of .*$b" --backend xen
	expect 0 "^  $b " --help
done
expect 0 "Options of kexec:" --help
expect 0 "--poll-queues" --help
expect 2 "--server is required" --backend qemu --workdir "$d"
expect 2 "--key" --backend qemu --server http://x --workdir "$d"
expect 2 "--target DEV is required" --backend local --server http://x --key k --workdir "$d"
expect 2 "not a positive number" --backend qemu --jobs -3
expect 2 "unexpected argument" --backend qemu --server http://x --key k --workdir "$d" extra
expect 2 "--key-file" --backend qemu --server http://x --key-file "$d/none" --workdir "$d"
expect 2 "not a JSON object" try --backend local --target "$d/x" --workdir "$d" --bench-params '[1]'
expect 1 "bench.depth" try --backend local --target "$d/x" --workdir "$d" --bench-params '{"depth":"128;reboot"}'
[ $fails -eq 0 ] || exit 1
echo ok
