#!/usr/bin/env bash
# Verdict A/A false-alarm rate with the planned looks and power at the
# reported MDE at the qemu-icount noise level (per-run sd 0.1 %), plus the
# seed 001 verdict. Prints figures; asserts nothing. Usage:
# bench/stats-power.sh [args of stats-power: -e EXPERIMENTS -s SD_PCT -a|-p]
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
make -s build/libdaemon.a build/libcommon.a build/obj/gen/schema.o
mkdir -p build/bench
cc -O2 -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE -I. -Icommon \
	$(pkg-config --cflags jansson) -o build/bench/stats-power bench/stats-power.c \
	build/obj/gen/schema.o -Wl,--start-group build/libdaemon.a build/libcommon.a \
	-Wl,--end-group $(pkg-config --libs libmicrohttpd sqlite3 jansson libcurl libcrypto) -lm -lpthread
if [ $# -gt 0 ]; then
	exec build/bench/stats-power "$@"
fi
# A/A false alarms at runs 1, 5, 10, 20 with the planned looks, and power
# at the reported MDE at 5, 10 and 20 runs; ~2-4 min on one core.
build/bench/stats-power -e 2000
echo
echo "== seed 001 (Old behavior vs Turning it on)"
make -s build/tests/unit/logimport-seed001
build/tests/unit/logimport-seed001
