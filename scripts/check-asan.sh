#!/usr/bin/env bash
# make check-asan: the unit tests built with ASan+UBSan, then the API,
# fault and security tests against an ASan+UBSan perflabd and
# perflab-runner, then valgrind on a few unit tests. Sanitizer reports go
# to files (the tests delete their temp dirs); any report fails the run.
#
# Usage: scripts/check-asan.sh ASAN_BUILD_DIR
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
B=${1:-build/asan}
logs=$top/$B/reports
rm -rf "$logs"
mkdir -p "$logs"
export ASAN_OPTIONS="log_path=$logs/asan:detect_leaks=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=1"
export UBSAN_OPTIONS="log_path=$logs/ubsan:print_stacktrace=1:halt_on_error=0"
export LSAN_OPTIONS="suppressions=$top/scripts/lsan.supp:print_suppressions=0"
fail=0

echo "== unit tests (ASan+UBSan)"
n=0
for t in "$B"/tests/unit/*; do
	[ -x "$t" ] && [ -f "$t" ] || continue
	n=$((n + 1))
	# Full stacks for leaks (the suppressions match test sources).
	if ! ASAN_OPTIONS="$ASAN_OPTIONS:fast_unwind_on_malloc=0" \
		"$t" >"$logs/unit-$(basename "$t").out" 2>&1; then
		echo "FAIL  $t"
		tail -20 "$logs/unit-$(basename "$t").out"
		fail=1
	fi
done
echo "$n unit tests run"

echo "== API, fault and security tests against $B/perflabd"
export PERFLABD=$top/$B/perflabd PERFLAB_RUNNER=$top/$B/perflab-runner
for area in tests/api/ tests/faults/ tests/security/; do
	tests/run.sh "$area" | tail -n +1 || fail=1
done

echo "== valgrind"
if command -v valgrind >/dev/null; then
	for t in daemon-ratelimit daemon-auth-key patch-parse-series patch-parse-reject \
		stats-mwu runner-serial-parse runner-kpatch-paths; do
		[ -x build/tests/unit/$t ] || continue
		if valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
			build/tests/unit/$t >"$logs/valgrind-$t.out" 2>&1; then
			echo "valgrind clean: $t"
		else
			echo "valgrind FAIL: $t"
			tail -30 "$logs/valgrind-$t.out"
			fail=1
		fi
	done
else
	echo "valgrind not installed: skipped"
fi

reports=$(ls "$logs"/asan.* "$logs"/ubsan.* 2>/dev/null)
if [ -n "$reports" ]; then
	echo "== sanitizer reports"
	for r in $reports; do
		echo "--- $r"
		head -60 "$r"
	done
	fail=1
else
	echo "no sanitizer reports"
fi
[ $fail -eq 0 ] && echo "check-asan: clean" || echo "check-asan: FAILED"
exit $fail
