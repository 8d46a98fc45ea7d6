#!/usr/bin/env bash
# Description: a server that does not answer (connection refused) makes
# every command exit 2 with the URL and the reason on stderr.
. "$(dirname "$0")/lib.sh"
cli_need_cli

port=$(cli_free_port)	# nothing listens there
printf 'diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n' >"$TMP/x.patch"
printf 'IOPS=100, IOS/call=32/32, inflight=(1)\n' >"$TMP/a.log"
for args in "hosts" "alerts" "show 1" "perf-diff 1" "submit $TMP/x.patch" \
	"compare $TMP/a.log $TMP/a.log" "watch 1 --interval 1"; do
	# shellcheck disable=SC2086
	expect_rc 2 "$PERFLAB" --server "http://127.0.0.1:$port" $args
	grep -q "127.0.0.1:$port" "$TMP/err" || fail "$args: no URL in: $(cat "$TMP/err")"
	grep -qi "connect" "$TMP/err" || fail "$args: no reason in: $(cat "$TMP/err")"
done
echo "ok"
