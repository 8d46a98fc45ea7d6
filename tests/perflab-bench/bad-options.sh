#!/usr/bin/env bash
# Description: bad command lines exit 2 with a clear message on stderr and
# nothing on stdout; -h prints the usage and exits 0.
. "$(dirname "$0")/lib.sh"
check() { # expected-substring args...
	want=$1
	shift
	out=$("$BENCH" "$@" 2>"$tmpd/err")
	rc=$?
	[ $rc = 2 ] || fail "'$*' exited $rc, want 2"
	[ -z "$out" ] || fail "'$*' printed to stdout: $out"
	grep -qF -- "$want" "$tmpd/err" || fail "'$*': stderr lacks '$want': $(cat "$tmpd/err")"
}
check "unknown option '-x'" -x /dev/null
check "no target" -d 8
check "bad value 'abc' for option -d" -d abc /dev/null
check "bad value '2' for option -p" -p 2 /dev/null
check "bad value '1000' for option -b" -b 1000 /dev/null
check "exceeds depth" -d 16 -c 32 /dev/null
check "warm-up -w 5 must be shorter than runtime -r 5" -r 5 -w 5 /dev/null
check "needs a value" /dev/null -j
check "more than one target" /dev/null /dev/zero
check "threads but only" -n 256 -p0 /dev/null
"$BENCH" -h >"$tmpd/out" || fail "-h exited $?"
grep -q '^Usage: perflab-bench' "$tmpd/out" || fail "-h printed no usage"
# A target that cannot be opened is a run failure (1), not a usage error.
"$BENCH" -p0 /nonexistent/x 2>"$tmpd/err"
rc=$?
[ $rc = 1 ] || fail "missing target exited $rc, want 1"
grep -q 'No such file' "$tmpd/err" || fail "missing target: $(cat "$tmpd/err")"
echo "bad-options: ok"
