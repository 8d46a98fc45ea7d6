#!/usr/bin/env bash
# Install everything perflab needs on Debian 12. Idempotent: a second run
# with everything present only checks and returns.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
PKGS="build-essential pkg-config git jq curl sqlite3 python3 kexec-tools e2fsprogs
libmicrohttpd-dev libsqlite3-dev liburing-dev libjansson-dev
libcurl4-openssl-dev libssl-dev
bc bison flex libelf-dev cpio busybox-static qemu-system-x86 ccache
linux-source-6.1 xz-utils kmod
fio wrk clang libclang-rt-14-dev valgrind qemu-user
chromium bubblewrap dpkg-dev redis-server
postgresql lava-server lava-dispatcher lavacli
public-inbox lei b4"

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "deps: installing:$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends $missing
fi

# Source packages of the reference tools, at the installed versions:
# qemu for qemu-plugin.h (the TCG plugin API must match the installed
# QEMU), fio for t/io_uring. Kept under build/src; nothing of them is
# copied into perflab's own code.
srcdir=$top/build/src
if [ ! -f /etc/apt/sources.list.d/perflab-deb-src.sources ]; then
	cat >/etc/apt/sources.list.d/perflab-deb-src.sources <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
	apt-get update -qq
fi
src_version() { dpkg-query -W -f='${source:Version}' "$1"; }
qemu_v=$(src_version qemu-system-x86)
qemu_v=${qemu_v#*:}  # no epoch colon in a path make must read
if [ ! -f "$srcdir/qemu-$qemu_v/qemu-plugin.h" ]; then
	# Only the plugin header is needed: take it from the orig tarball
	# instead of unpacking and patching the whole QEMU tree.
	mkdir -p "$srcdir/qemu-$qemu_v"
	(cd "$srcdir/qemu-$qemu_v" && apt-get source -qq --download-only "qemu=$(src_version qemu-system-x86)" &&
		tar -xOf qemu_*.orig.tar.* --wildcards '*/include/qemu/qemu-plugin.h' >qemu-plugin.h.tmp &&
		mv qemu-plugin.h.tmp qemu-plugin.h && rm -f qemu_*)
fi
ln -sfn "qemu-$qemu_v" "$srcdir/qemu"
fio_v=$(src_version fio)
if [ ! -f "$srcdir/fio-$fio_v/t/io_uring.c" ]; then
	rm -rf "$srcdir/fio-$fio_v" "$srcdir/fio-dl"
	mkdir -p "$srcdir/fio-dl"
	(cd "$srcdir/fio-dl" && apt-get source -qq "fio=$fio_v" >/dev/null)
	mv "$srcdir"/fio-dl/fio-*/ "$srcdir/fio-$fio_v"
	rm -rf "$srcdir/fio-dl"
fi
ln -sfn "fio-$fio_v" "$srcdir/fio"

# Base kernel tree: Debian's linux-source-6.1, extracted once.
src=$top/build/linux-source-6.1
if [ ! -f "$src/Makefile" ]; then
	tarball=$(ls /usr/src/linux-source-6.1.tar.* | head -n1)
	echo "deps: extracting $tarball"
	mkdir -p "$top/build"
	tar -C "$top/build" -xf "$tarball"
fi

# libperf + libapi from the kernel's tools/lib, for perflab-bench -P.
if [ ! -f "$top/build/libperf/libperf.a" ] || [ ! -f "$top/build/libperf/libapi.a" ]; then
	"$top/scripts/build-libperf.sh"
fi

# Browser test driver and chart library.
if [ ! -d "$top/web/node_modules/playwright-core" ] || [ ! -d "$top/web/node_modules/uplot" ]; then
	(cd "$top/web" && npm install --no-audit --no-fund --silent)
fi
echo "deps: ok"
