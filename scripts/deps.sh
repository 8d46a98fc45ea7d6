#!/usr/bin/env bash
# Install everything perflab needs on Debian 12. Idempotent: a second run
# with everything present only checks and returns.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
PKGS="build-essential pkg-config git jq curl sqlite3 python3
libmicrohttpd-dev libsqlite3-dev liburing-dev libjansson-dev
libcurl4-openssl-dev libssl-dev
bc bison flex libelf-dev cpio busybox-static qemu-system-x86 ccache
linux-source-6.1 xz-utils kmod
fio wrk clang libclang-rt-14-dev valgrind
chromium"

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
