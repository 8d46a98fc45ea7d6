#!/usr/bin/env bash
# Verdict power and A/A false-alarm rate at the qemu-icount noise level
# (per-run sd 0.1 %, 10 runs per side), plus the seed 001 verdict.
# Prints figures; asserts nothing. Usage: bench/stats-power.sh [args of
# stats-power: -n RUNS -s SD_PCT -e EXPERIMENTS -H]
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
echo "== MDE from the host's A/A calibration (sd 0.1 %)"
build/bench/stats-power -H
echo
echo "== MDE from each experiment's own noise (no calibration)"
build/bench/stats-power
echo
echo "== 5 runs per side, calibrated"
build/bench/stats-power -H -n 5 -e 1000
echo
echo "== seed 001 (Old behavior vs Turning it on)"
make -s build/tests/unit/logimport-seed001
build/tests/unit/logimport-seed001
