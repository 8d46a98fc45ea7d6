#!/usr/bin/env bash
# Builds fio's t/io_uring, the kernel developers' peak-IOPS tool, as a
# static binary from Debian's fio source package (build/src/fio, fetched by
# scripts/deps.sh), so the guest comparison runs the reference next to
# perflab-bench. The source tree is copied, never built in place (it is
# shared with other worktrees' deps); nothing of it enters perflab's code.
#
# Output: build/t-io_uring/t-io_uring-static (printed on stdout). Rebuilt
# only when missing. Native CPU flags are off: the binary runs in a TCG
# guest whose CPU model is not the host's.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
src=$top/build/src/fio
out=$top/build/t-io_uring
bin=$out/t-io_uring-static

die() { echo "build-t-io_uring: $*" >&2; exit 1; }
if [ -x "$bin" ]; then
	echo "$bin"
	exit 0
fi
[ -f "$src/t/io_uring.c" ] || die "$src/t/io_uring.c missing (make deps)"
rm -rf "$out/src"
mkdir -p "$out"
cp -a "$(readlink -f "$src")" "$out/src"
(
	cd "$out/src"
	# Only what t/io_uring links (lib/rand, lib/pattern, lib/strntol,
	# libc): the optional engines' libraries would have to link statically.
	./configure --build-static --disable-native --disable-numa \
		--disable-rdma --disable-rados --disable-rbd --disable-http \
		--disable-gfapi --disable-pmem --disable-xnvme --disable-libzbc \
		--disable-tcmalloc --disable-dfs >"$out/configure.log" 2>&1 ||
		die "configure failed: $(tail -n 5 "$out/configure.log")"
	make -j2 t/io_uring >"$out/make.log" 2>&1 ||
		die "make t/io_uring failed: $(tail -n 5 "$out/make.log")"
)
cp "$out/src/t/io_uring" "$bin.tmp"
file "$bin.tmp" | grep -q 'statically linked' || die "t/io_uring is not static"
mv "$bin.tmp" "$bin"
echo "$bin"
