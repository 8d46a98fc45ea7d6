#!/usr/bin/env bash
# Build libperf.a and libapi.a from the extracted base kernel tree
# (build/linux-source-6.1/tools/lib/{perf,api}) out of tree, and install the
# public headers so that -Ibuild/libperf/include finds <perf/evlist.h>.
#
# Outputs: build/libperf/libperf.a, build/libperf/libapi.a,
#          build/libperf/include/perf/*.h
# The kernel tree's sources are not modified (O= puts every object under
# build/libperf/obj).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
src=${LINUX_SRC:-$top/build/linux-source-6.1}
out=$top/build/libperf
obj=$out/obj

if [ ! -f "$src/tools/lib/perf/Makefile" ] || [ ! -f "$src/tools/lib/api/Makefile" ]; then
	echo "build-libperf: $src/tools/lib/{perf,api} not found (run make deps to extract the kernel tree)" >&2
	exit 1
fi

mkdir -p "$obj/perf/" "$obj/api/" "$out/include/perf"
jobs=${JOBS:-2}

# libapi first (libperf's own rule for it expects O= layouts we do not use).
nice make -s -j"$jobs" -C "$src/tools/lib/api" O="$obj/api/" \
	EXTRA_CFLAGS="-fno-omit-frame-pointer" "$obj/api/libapi.a"
nice make -s -j"$jobs" -C "$src/tools/lib/perf" O="$obj/perf/" \
	EXTRA_CFLAGS="-fno-omit-frame-pointer" "$obj/perf/libperf.a"

cp -f "$obj/api/libapi.a" "$out/libapi.a"
cp -f "$obj/perf/libperf.a" "$out/libperf.a"
for h in "$src"/tools/lib/perf/include/perf/*.h; do
	install -m 644 "$h" "$out/include/perf/"
done
echo "build-libperf: $out/libperf.a $out/libapi.a $out/include/perf"
