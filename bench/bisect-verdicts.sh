#!/usr/bin/env bash
# Bisections on a noisy host (bench/bisect-verdicts.c): right / wrong
# culprit / did not reproduce / unknown for steps of 1, 2, 4 and 8 noise
# sds at 0.1, 0.3 and 0.5 % noise, old driver rule against the new one.
# Prints figures; asserts nothing. Minutes on one core at -n 500.
# Usage: bench/bisect-verdicts.sh [-n BISECTIONS] [-r RUNS]
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
make -s build/libdaemon.a build/libcommon.a build/obj/gen/schema.o
mkdir -p build/bench
cc -O2 -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE -I. -Icommon \
	$(pkg-config --cflags jansson) \
	-o build/bench/bisect-verdicts bench/bisect-verdicts.c build/obj/gen/schema.o \
	-Wl,--start-group build/libdaemon.a build/libcommon.a -Wl,--end-group \
	$(pkg-config --libs libmicrohttpd sqlite3 jansson libcurl libcrypto) -lm -lpthread
exec build/bench/bisect-verdicts "$@"
