#!/usr/bin/env bash
# Description: scripts/run-lab.sh (make run) with DEMO=0 creates keys
# (mode 0600), starts perflabd and perflab-runner, serves /healthz and
# registers the runner; a SIGINT to the whole process group, as a
# terminal's Ctrl-C sends it, stops both processes, the script says where
# the data stays and exits 0; a second start reuses the keys and RUN_LAB_EXIT_AFTER stops it alone;
# keys from another database are replaced; with DEMO=1 the demo series is
# submitted once, not again on a restart.
. "$(dirname "$0")/lib.sh"
cli_need_daemon
[ -x build/perflab-runner ] || skip "build/perflab-runner is not built"

port=$(cli_free_port)
export PERFLAB_LISTEN=127.0.0.1:$port PERFLAB_DB=$TMP/lab/perflab.db DEMO=0
export PERFLAB_LAB_DIR=$TMP/lab/.lab PERFLAB_RUNNER_NAME=run-lab-test-$$
mkdir -p "$TMP/lab"

# Bash ignores SIGINT in background jobs; restore the default so the
# script's trap can see it, as it would at a terminal. setsid puts the
# lab in a process group of its own (pgid = its pid), the terminal's
# foreground group, so the test can signal that group as Ctrl-C does.
setsid env --default-signal=INT scripts/run-lab.sh >"$TMP/lab1.log" 2>&1 &
lab=$!
up=0
for _ in $(seq 1 150); do
	curl -fsS -o /dev/null "http://127.0.0.1:$port/healthz" 2>/dev/null &&
		grep -q "perflab-runner [0-9]" "$TMP/lab1.log" && { up=1; break; }
	kill -0 $lab 2>/dev/null || break
	sleep 0.2
done
[ $up = 1 ] || { cat "$TMP/lab1.log"; fail "the lab did not come up"; }
dpid=$(sed -n 's/^run-lab: perflabd \([0-9]*\) .*/\1/p' "$TMP/lab1.log")
rpid=$(sed -n 's/^run-lab: perflab-runner \([0-9]*\) .*/\1/p' "$TMP/lab1.log")
[ -n "$dpid" ] && [ -n "$rpid" ] || fail "no pids in: $(cat "$TMP/lab1.log")"
kill -0 "$dpid" && kill -0 "$rpid" || fail "daemon or runner not running"
grep -q "admin key  plk_" "$TMP/lab1.log" || fail "admin key not printed"
grep -q "dashboard  http://127.0.0.1:$port/" "$TMP/lab1.log" || fail "no dashboard URL"

keys=$PERFLAB_LAB_DIR/keys
[ "$(stat -c %a "$keys")" = 600 ] || fail "keys file mode $(stat -c %a "$keys")"
. "$keys"

# the runner registers with the daemon (give it a few seconds)
for _ in $(seq 1 50); do
	"$PERFLAB" --server "http://127.0.0.1:$port" --key "$admin_key" hosts \
		>"$TMP/hosts" 2>&1 && grep -q "$PERFLAB_RUNNER_NAME" "$TMP/hosts" && break
	sleep 0.2
done
grep -q "$PERFLAB_RUNNER_NAME" "$TMP/hosts" || fail "runner not registered: $(cat "$TMP/hosts")"

[ "$(ps -o pgid= -p $lab | tr -d ' ')" = "$lab" ] || fail "the lab is not a process group leader"
kill -INT -- -$lab
for _ in $(seq 1 150); do
	kill -0 $lab 2>/dev/null || break
	sleep 0.2
done
kill -0 $lab 2>/dev/null && fail "run-lab.sh still running 30 s after SIGINT"
wait $lab
rc=$?
[ $rc = 0 ] || { cat "$TMP/lab1.log"; fail "run-lab.sh exited $rc after SIGINT"; }
kill -0 "$dpid" 2>/dev/null && fail "perflabd $dpid survived"
kill -0 "$rpid" 2>/dev/null && fail "perflab-runner $rpid survived"
grep -q "run-lab: stopped; the data stays in $PERFLAB_DB and $PERFLAB_LAB_DIR/" "$TMP/lab1.log" ||
	fail "no stop message: $(cat "$TMP/lab1.log")"
grep -q "exited" "$TMP/lab1.log" && fail "a process exited on its own: $(cat "$TMP/lab1.log")"

# second start: same keys, stops by itself
cp "$keys" "$TMP/keys.before"
RUN_LAB_EXIT_AFTER=2 timeout 60 scripts/run-lab.sh >"$TMP/lab2.log" 2>&1
rc=$?
[ $rc = 0 ] || { cat "$TMP/lab2.log"; fail "second run exited $rc"; }
cmp -s "$keys" "$TMP/keys.before" || fail "keys were recreated"
grep -q "created keys" "$TMP/lab2.log" && fail "second run created keys"
grep -q "admin key  $admin_key" "$TMP/lab2.log" || fail "second run printed another key"
# keys that do not belong to the database are replaced
printf 'admin_key=plk_0_x\nrunner_key=plk_0_y\n' >"$keys"
RUN_LAB_EXIT_AFTER=1 timeout 60 scripts/run-lab.sh >"$TMP/lab5.log" 2>&1 ||
	{ cat "$TMP/lab5.log"; fail "run with stale keys failed"; }
grep -q "do not work with" "$TMP/lab5.log" || fail "stale keys kept: $(cat "$TMP/lab5.log")"
grep -q "plk_0_x" "$keys" && fail "stale keys still in $keys"

# DEMO=1: submitted on the first start only (a label no runner has, so
# nothing gets built)
cat >"$TMP/demo.json" <<'EOT'
{"title": "run-lab demo test", "label": "no-such-host", "runs": 2,
 "variants": [{"name": "base", "patches": []}, {"name": "same", "patches": []}]}
EOT
export PERFLAB_SEED=$TMP/demo.json DEMO=1
RUN_LAB_EXIT_AFTER=1 timeout 60 scripts/run-lab.sh >"$TMP/lab3.log" 2>&1 ||
	{ cat "$TMP/lab3.log"; fail "demo run failed"; }
grep -q "submitted the seed experiment: experiment 1$" "$TMP/lab3.log" ||
	fail "demo not submitted: $(cat "$TMP/lab3.log")"
grep -q "demo       http://127.0.0.1:$port/#/experiments/1 " "$TMP/lab3.log" || fail "no demo link"
RUN_LAB_EXIT_AFTER=1 timeout 60 scripts/run-lab.sh >"$TMP/lab4.log" 2>&1 ||
	{ cat "$TMP/lab4.log"; fail "second demo run failed"; }
grep -q "already submitted: experiment 1$" "$TMP/lab4.log" ||
	fail "demo submitted twice: $(cat "$TMP/lab4.log")"
echo "ok"
