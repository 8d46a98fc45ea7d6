#!/usr/bin/env bash
# perflab test runner: runs every test program and script, one per behaviour
# (liburing test/ style). Exit codes: 0 pass, 77 skip (the test prints why),
# anything else fails. Prints the total as "N passed, N failed, N skipped".
#
# Usage: tests/run.sh [PATTERN]   (only tests whose path contains PATTERN)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
pattern=${1:-}
logdir=build/test-logs
mkdir -p "$logdir"

# Order: fast unit programs, then API tests against a real daemon, then
# the end-to-end runs that boot real kernels.
list=()
for t in build/tests/unit/* build/tests/perflab-bench/*; do
	[ -x "$t" ] && [ -f "$t" ] && list+=("$t")
done
# Scripts: every tests/<area>/*.sh and *.js; tests/e2e last.
for d in tests/*/; do
	d=${d%/}
	[ "$d" = tests/e2e ] && continue
	# The kexec rehearsal VM has its own target: make test-kexec-vm.
	[ "$d" = tests/kexec-vm ] && continue
	# So has the git bisection end to end: make test-bisect.
	[ "$d" = tests/bisect ] && continue
	# And LAVA end to end: make test-lava.
	[ "$d" = tests/lava ] && continue
	for t in "$d"/*.sh "$d"/*.js; do
		[ -f "$t" ] && [ -x "$t" -o "${t##*.}" = js ] && list+=("$t")
	done
done
for t in tests/e2e/*.sh; do
	[ -f "$t" ] && list+=("$t")
done

pass=0 fail=0 skip=0
failed=()
for t in "${list[@]}"; do
	case "$t" in *"$pattern"*) ;; *) continue ;; esac
	name=${t#build/}
	log="$logdir/$(echo "$name" | tr '/' '_').log"
	# Per-test time limit; end-to-end tests boot kernels and build them.
	limit=300
	case "$t" in tests/e2e/*) limit=1500 ;; esac
	start=$(date +%s.%N)
	case "$t" in
	*.js) timeout -k 10 "$limit" node "$t" >"$log" 2>&1 ;;
	*) timeout -k 10 "$limit" "$t" >"$log" 2>&1 ;;
	esac
	rc=$?
	secs=$(echo "$(date +%s.%N) - $start" | bc)
	case $rc in
	0)
		pass=$((pass + 1))
		printf 'PASS  %-50s %6.1fs\n' "$name" "$secs"
		;;
	77)
		skip=$((skip + 1))
		printf 'SKIP  %-50s %s\n' "$name" "$(tail -n 1 "$log")"
		;;
	*)
		fail=$((fail + 1))
		failed+=("$name")
		[ $rc -eq 124 ] && echo "timed out after ${limit}s" >>"$log"
		printf 'FAIL  %-50s rc=%d %6.1fs\n' "$name" "$rc" "$secs"
		tail -n 25 "$log" | sed 's/^/      | /'
		;;
	esac
done
echo
[ ${#failed[@]} -gt 0 ] && printf 'failed: %s\n' "${failed[*]}"
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
