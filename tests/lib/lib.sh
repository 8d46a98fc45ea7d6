# The shell tests' one fail and skip (sourced by each area's lib.sh, or by
# a test directly). Exit codes: 1 fail, 77 skip; the reason is the last
# line of the output, which tests/run.sh shows.
#
#   fail "what went wrong"    # FAIL: ... on stderr and stdout, exit 1
#   skip "why it cannot run"  # exit 77
#
# A test or area may define fail_context to print more before exiting
# (tests/api/lib.sh: the daemon log's tail).

fail() {
	echo "FAIL: $*" >&2
	if declare -F fail_context >/dev/null; then
		fail_context >&2
	fi
	echo "FAIL: $*"
	exit 1
}

skip() {
	echo "$*"
	exit 77
}
