#!/usr/bin/env bash
# Tracks on a noisy host (bench/track-verdicts.c): false confirmed change
# points per 1,000 points of pure noise at the old and today's track
# defaults, and where a clean step's change point is stored. Prints
# figures; asserts nothing. Several minutes on one core at the defaults.
# Usage: bench/track-verdicts.sh [-n SERIES] [-l LENGTH] [-s SIGMA] [-a AT] [-m MODE]
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
make -s build/libdaemon.a build/libcommon.a
mkdir -p build/bench
cc -O2 -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE -I. -Icommon \
	-o build/bench/track-verdicts bench/track-verdicts.c \
	build/libdaemon.a build/libcommon.a \
	-lm
exec build/bench/track-verdicts "$@"
