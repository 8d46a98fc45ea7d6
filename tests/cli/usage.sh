#!/usr/bin/env bash
# Description: bad usage of build/perflab exits 2 with a message on stderr
# (no command, unknown command or option, missing or bad arguments,
# unreadable files); --help exits 0. No daemon involved.
. "$(dirname "$0")/lib.sh"
cli_need_cli

expect_rc 0 "$PERFLAB" --help
grep -q "submit" "$TMP/out" || fail "--help does not list submit"

check() {
	expect_rc 2 "$PERFLAB" "$@"
	[ -s "$TMP/err" ] || fail "no message for: $*"
	[ -s "$TMP/out" ] && fail "unexpected stdout for: $*"
	return 0
}
check
check frobnicate
check submit
check submit --runs 0 x.patch
check submit --runs many x.patch
check submit "$TMP/missing.patch"
check submit "$TMP"
check show
check show abc
check show 1 2
check show 1 --bogus
check watch
check watch 0
check watch 1 --interval 0
check perf-diff
check perf-diff -5
check compare
check compare only-one.log
check run
check run "$TMP/missing.json"
check hosts extra
check cancel
check cancel x
check submit --max-runs 0 x.patch
check alerts --nope
check --server
check --server ftp://example hosts
grep -q "http://" "$TMP/err" || fail "bad --server message lacks the hint"

# an empty patch file is refused before any request
: >"$TMP/empty.patch"
check --server http://127.0.0.1:1 submit "$TMP/empty.patch"
grep -q "empty" "$TMP/err" || fail "empty patch message"
echo "ok"
