#!/usr/bin/env bash
# False change points per 1,000 points on pure-noise series fed point by
# point through detection, merge and confirmation, against the old rule
# (every change point ever found) and one batch detection. Prints
# figures; asserts nothing. ~1-2 min on one core.
# Usage: bench/changepoint-rate.sh [-n SERIES] [-l LENGTH]
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
make -s build/libdaemon.a build/libcommon.a
mkdir -p build/bench
cc -O2 -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE -I. -Icommon \
	-o build/bench/changepoint-rate bench/changepoint-rate.c \
	build/libdaemon.a build/libcommon.a -lm
if [ $# -gt 0 ]; then
	exec build/bench/changepoint-rate "$@"
fi
build/bench/changepoint-rate -n 1000
