# Shell helpers for the CLI tests (sourced, not run), on top of the API
# test helpers (tests/api/lib.sh: a real perflabd on a free loopback port
# with a fresh database in $TMP, keys, cleanup on exit, fail/skip/check).
#
#   . "$(dirname "$0")/lib.sh"
#   cli_need_daemon            # skip (77) unless build/perflab{,d} exist
#   cli_start_daemon           # sets PORT URL (and the API helpers' BASE)
#   key=$(cli_key admin NAME)  # prints a new key
#   expect_rc WANT CMD...      # run the CLI, keep $TMP/out and $TMP/err

. "$(dirname "${BASH_SOURCE[0]}")/../api/lib.sh"
top=$TOP
cd "$top" || exit 1
PERFLAB=$top/build/perflab

# The tests must not pick up the user's configuration.
unset PERFLAB_URL PERFLAB_KEY
export PERFLAB_CONFIG=$TMP/no-config
export HOME=$TMP

cli_cleanup() {
	cleanup
}

cli_need_cli() {
	[ -x "$PERFLAB" ] || skip "build/perflab is not built"
}

cli_need_daemon() {
	cli_need_cli
}

cli_free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

cli_start_daemon() {
	start_daemon --web web/
	PORT=${BASE##*:}
	URL=$BASE
}

cli_key() {
	make_key "$1" "$2" | grep -o 'plk_[A-Za-z0-9_-]*' | tail -n 1
}

# expect_rc WANT CMD...: run CMD, keep stdout/stderr in $TMP/out $TMP/err
expect_rc() {
	local want=$1 rc
	shift
	"$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ "$rc" != "$want" ]; then
		echo "command: $*"
		echo "stdout:"; cat "$TMP/out"
		echo "stderr:"; cat "$TMP/err"
		fail "exit status $rc, expected $want"
	fi
}
