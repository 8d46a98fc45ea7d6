#!/usr/bin/env bash
# Description: the canary experiment end to end, the way a user runs it:
# a real perflabd and a real qemu-icount perflab-runner; `perflab run
# kernel-patches/series/canary.json` then `perflab watch --fail-on-regression`
# must exit 1 with a regression verdict for the canary variant (the daemon
# adds runs while 3 vs 3 is inconclusive, up to the series' max_runs).
. "$(dirname "$0")/../cli/lib.sh"
cli_need_daemon
command -v qemu-system-x86_64 >/dev/null || skip "qemu-system-x86_64 is not installed"
for f in build/perflab-runner build/perflab-bench-static; do
	[ -x "$f" ] || skip "$f is not built (make; make static-bench)"
done
[ -f build/linux-source-6.1/Makefile ] || skip "base tree missing (make deps)"
[ -x /bin/busybox ] || skip "busybox-static is not installed"
series=kernel-patches/series/canary.json
[ -f "$series" ] || skip "$series missing"

RUNNER_PID=
stop_runner() {
	if [ -n "$RUNNER_PID" ]; then
		kill "$RUNNER_PID" 2>/dev/null
		wait "$RUNNER_PID" 2>/dev/null
	fi
	[ -f "$TMP/runner.log" ] && cp "$TMP/runner.log" build/test-logs/e2e-canary-runner.log 2>/dev/null
	cli_cleanup
}
trap stop_runner EXIT

cli_start_daemon
key=$(cli_key submit canary)
rkey=$(cli_key runner canary-runner)
label=$(jq -r .label "$series")
mkdir -p "$TMP/runner"
build/perflab-runner --server "$URL" --key "$rkey" --backend qemu-icount \
	--name "canary-$$" --label "$label" --workdir "$TMP/runner" \
	--kcache build/kcache --claim-wait 2 >"$TMP/runner.log" 2>&1 &
RUNNER_PID=$!

start=$(date +%s)
id=$("$PERFLAB" --server "$URL" --key "$key" run -q "$series") || fail "perflab run failed"
timeout 1300 "$PERFLAB" --server "$URL" --key "$key" watch "$id" \
	--fail-on-regression --interval 5 >"$TMP/watch" 2>&1
rc=$?
cat "$TMP/watch"
echo "watch exit $rc after $(($(date +%s) - start)) s"
kill -0 "$RUNNER_PID" 2>/dev/null || echo "runner died: $(tail -20 "$TMP/runner.log")"
[ $rc = 1 ] || fail "watch --fail-on-regression exited $rc, expected 1 (regression)"
grep -Eq "^canary: .*regression" "$TMP/watch" || fail "no regression verdict for canary"
echo "ok"
