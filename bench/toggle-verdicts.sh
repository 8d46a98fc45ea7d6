#!/usr/bin/env bash
# Toggle experiments on a noisy host (bench/toggle-verdicts.c): A/A false
# alarms under iid noise, a 2 sd first-run warm-up, AR(1) rho 0.5, 1 sd
# carry-over and a boot-varying effect, for 1, 5 and 10 boots, before and
# after; power at the reported MDE.
# Prints figures; asserts nothing. About a minute on one core at -n 2000.
# Usage: bench/toggle-verdicts.sh [-n EXPERIMENTS]
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
make -s build/libdaemon.a build/libcommon.a build/obj/gen/schema.o
mkdir -p build/bench
cc -O2 -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE -I. -Icommon \
	$(pkg-config --cflags jansson) \
	-o build/bench/toggle-verdicts bench/toggle-verdicts.c build/obj/gen/schema.o \
	-Wl,--start-group build/libdaemon.a build/libcommon.a -Wl,--end-group \
	$(pkg-config --libs libmicrohttpd sqlite3 jansson libcurl libcrypto) -lm -lpthread
exec build/bench/toggle-verdicts "$@"
