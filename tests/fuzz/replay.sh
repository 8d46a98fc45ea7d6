#!/usr/bin/env bash
# Description: replay every fuzz harness's committed corpus and past
# crashers (tests/fuzz/corpus/NAME) through the harness built with the
# normal compiler; a crasher that comes back fails this test.
set -u
cd "$(dirname "$0")/../.." || exit 1
n=0
for src in tests/fuzz/fuzz-*.c; do
	name=$(basename "$src" .c)
	bin=build/tests/fuzz/$name
	corpus=tests/fuzz/corpus/$name
	[ -x "$bin" ] || { echo "missing $bin"; exit 1; }
	[ -d "$corpus" ] || { echo "missing corpus $corpus"; exit 1; }
	"$bin" "$corpus" || { echo "FAIL: $name"; exit 1; }
	n=$((n + 1))
done
[ $n -gt 0 ] || { echo "no harnesses"; exit 1; }
echo "$n harnesses replayed"
