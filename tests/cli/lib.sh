# Shell helpers for the CLI tests (sourced, not run): a real perflabd on a
# free loopback port with a fresh database, keys, cleanup on exit.
#
#   . "$(dirname "$0")/lib.sh"
#   cli_need_daemon            # skip (77) unless build/perflabd exists
#   cli_start_daemon           # sets PORT URL DB TMP DAEMON_PID
#   key=$(cli_key admin NAME)  # prints a new key
#   skip "reason" / fail "reason"

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$top" || exit 1
PERFLAB=$top/build/perflab
TMP=$(mktemp -d /tmp/perflab-cli-test.XXXXXX)
DAEMON_PID=

# The tests must not pick up the user's configuration.
unset PERFLAB_URL PERFLAB_KEY
export PERFLAB_CONFIG=$TMP/no-config
export HOME=$TMP

cli_cleanup() {
	if [ -n "$DAEMON_PID" ]; then
		kill -TERM "$DAEMON_PID" 2>/dev/null
		wait "$DAEMON_PID" 2>/dev/null
	fi
	rm -rf "$TMP"
}
trap cli_cleanup EXIT

skip() { echo "skip: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

cli_need_cli() {
	[ -x "$PERFLAB" ] || skip "build/perflab is not built"
}

cli_need_daemon() {
	cli_need_cli
	[ -x build/perflabd ] || skip "build/perflabd is not built"
	command -v curl >/dev/null || skip "curl is not installed"
}

cli_free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

cli_start_daemon() {
	local i
	DB=$TMP/perflab.db
	build/perflabd --listen 127.0.0.1:0 --port-file "$TMP/port" --db "$DB" \
		--web web/ >"$TMP/perflabd.log" 2>&1 &
	DAEMON_PID=$!
	for i in $(seq 1 100); do
		[ -s "$TMP/port" ] && break
		kill -0 "$DAEMON_PID" 2>/dev/null || break
		sleep 0.05
	done
	[ -s "$TMP/port" ] || { cat "$TMP/perflabd.log"; fail "perflabd did not start"; }
	PORT=$(cat "$TMP/port")
	URL=http://127.0.0.1:$PORT
}

cli_key() {
	build/perflabd key create --db "$DB" --role "$1" "$2" |
		grep -o 'plk_[A-Za-z0-9_-]*' | tail -n 1
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
