#!/usr/bin/env bash
# Run each libFuzzer harness for up to RUNS executions or SECONDS seconds,
# starting from its committed seed corpus (tests/fuzz/corpus/NAME, read
# only: new inputs go to a scratch corpus under build/). A crash leaves the
# input in build/fuzz/crashes/; copy it into tests/fuzz/corpus/NAME as a
# regression input once fixed.
# Usage: fuzz.sh FUZZ_BUILD_DIR RUNS SECONDS NAME...
set -euo pipefail
dir=$1 runs=$2 secs=$3
shift 3
mkdir -p "$dir/crashes"
status=0
for n in "$@"; do
	seed=tests/fuzz/corpus/$n
	work=$dir/corpus/$n
	mkdir -p "$work"
	echo "== $n: up to $runs runs / ${secs}s"
	if ! ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		"$dir/$n" -runs="$runs" -max_total_time="$secs" -max_len=65536 \
		-timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$dir/crashes/$n-" "$work" "$seed" \
		>"$dir/$n.log" 2>&1; then
		status=1
		echo "$n: CRASH (see $dir/$n.log)"
		tail -n 30 "$dir/$n.log"
	fi
	grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$dir/$n.log" | sed "s/^/$n: /"
done
exit $status
