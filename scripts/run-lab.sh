#!/usr/bin/env bash
# make run: the whole lab on this machine, in the foreground.
#
#   perflabd on $PERFLAB_LISTEN (127.0.0.1:8080) with the database $PERFLAB_DB
#   (./perflab.db) and the web UI from web/, one perflab-runner with the
#   qemu-icount backend, and (unless DEMO=0) the seed experiment
#   kernel-patches/series/seed-experiment.json submitted with build/perflab.
#
# Keys are created on first start and kept in $PERFLAB_LAB_DIR/keys (mode
# 0600, beside the database), so a second `make run` reuses them and does
# not submit the demo twice.  Ctrl-C (SIGINT), SIGTERM or SIGHUP stops
# both processes and waits for them.  perflabd and the runner run in
# sessions of their own: a terminal's Ctrl-C goes to its whole foreground
# process group, and only this script should see it, so that it stops
# the runner (which may be booting a guest) before the daemon.
#
# Environment:
#   PERFLAB_LISTEN      host:port for perflabd (127.0.0.1:8080)
#   PERFLAB_DB          database file (./perflab.db)
#   PERFLAB_LAB_DIR     keys, logs, runner workdir (directory of the DB/.lab)
#   PERFLAB_KCACHE      kernel build cache (build/kcache, shared with tests;
#                       see scripts/kcache-dir.sh)
#   PERFLAB_RUNNER_NAME host name the runner registers (local-qemu-icount)
#   DEMO=0              do not submit the seed experiment
#   PERFLAB_SEED        the experiment definition to submit as the demo
#   RUN_LAB_EXIT_AFTER  stop by itself after this many seconds (tests)
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2

listen=${PERFLAB_LISTEN:-127.0.0.1:8080}
db=${PERFLAB_DB:-$top/perflab.db}
lab=${PERFLAB_LAB_DIR:-$(dirname "$db")/.lab}
keys=$lab/keys
demo=${DEMO:-1}
exit_after=${RUN_LAB_EXIT_AFTER:-0}
url=http://$listen
seed=${PERFLAB_SEED:-kernel-patches/series/seed-experiment.json}
runner_name=${PERFLAB_RUNNER_NAME:-local-qemu-icount}
# Kernel images and ccache, shared with the tests (the runner locks it).
kcache=${PERFLAB_KCACHE:-$(scripts/kcache-dir.sh)} || exit 2

daemon_pid=
runner_pid=
stopping=0

say() { printf 'run-lab: %s\n' "$*"; }
die() { printf 'run-lab: %s\n' "$*" >&2; stop; exit 2; }

for b in build/perflabd build/perflab-runner build/perflab; do
	[ -x "$b" ] || { say "$b is missing: run 'make' (or 'make run')" >&2; exit 2; }
done

stop() {
	stopping=1
	for p in $runner_pid $daemon_pid; do
		kill -TERM "$p" 2>/dev/null
	done
	# The runner may be mid-boot of a guest: give it time, then insist.
	for p in $runner_pid $daemon_pid; do
		for _ in $(seq 1 100); do
			kill -0 "$p" 2>/dev/null || break
			sleep 0.1
		done
		kill -KILL "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	runner_pid=
	daemon_pid=
}

# Print the key from `perflabd key create` output (the plk_... token).
make_key() {
	local role=$1 name=$2 out
	out=$(build/perflabd key create --db "$db" --role "$role" "$name") ||
		return 1
	printf '%s\n' "$out" | grep -o 'plk_[A-Za-z0-9_-]*' | tail -n 1
}

ensure_keys() {
	mkdir -p "$lab" || return 1
	chmod 700 "$lab"
	# Keys only make sense with the database they were created in.
	if [ -f "$keys" ] && [ -f "$db" ]; then
		. "$keys"
		[ -n "${admin_key:-}" ] && [ -n "${runner_key:-}" ] && return 0
	fi
	rm -f "$keys" "$lab/demo-experiment"
	local stamp admin runner
	stamp=$(date +%s)
	admin=$(make_key admin "lab-admin-$stamp") && [ -n "$admin" ] ||
		{ say "cannot create the admin key" >&2; return 1; }
	runner=$(make_key runner "lab-runner-$stamp") && [ -n "$runner" ] ||
		{ say "cannot create the runner key" >&2; return 1; }
	(umask 077 && printf 'admin_key=%s\nrunner_key=%s\n' "$admin" "$runner" >"$keys")
	admin_key=$admin
	runner_key=$runner
	say "created keys in $keys"
}

wait_healthy() {
	local i
	for i in $(seq 1 100); do
		curl -fsS -o /dev/null "$url/healthz" 2>/dev/null && return 0
		kill -0 "$daemon_pid" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

# The seed experiment names the runner's backend, which perflabd accepts
# once a host that runs it has registered.
wait_registered() {
	local i
	for i in $(seq 1 150); do
		build/perflab --server "$url" --key "$admin_key" hosts 2>/dev/null |
			grep -qF -- "$runner_name" && return 0
		kill -0 "$runner_pid" 2>/dev/null || return 1
		sleep 0.2
	done
	return 1
}

# Sets demo_id to the seed experiment's id (submitted now or before).
submit_demo() {
	local id
	demo_id=
	[ "$demo" = 0 ] && { say "DEMO=0: not submitting the seed experiment"; return 0; }
	[ -f "$seed" ] || { say "no $seed: nothing to submit"; return 0; }
	if [ -s "$lab/demo-experiment" ]; then
		id=$(cat "$lab/demo-experiment")
		if build/perflab --server "$url" --key "$admin_key" show "$id" >/dev/null 2>&1; then
			say "seed experiment already submitted: experiment $id"
			demo_id=$id
			return 0
		fi
	fi
	wait_registered || say "the runner has not registered yet (see $lab/runner.log)"
	id=$(build/perflab --server "$url" --key "$admin_key" run -q "$seed") ||
		{ say "submitting $seed failed (see above)" >&2; return 1; }
	echo "$id" >"$lab/demo-experiment"
	say "submitted the seed experiment: experiment $id"
	demo_id=$id
}

on_signal() {
	say "stopping"
	stop
	say "stopped; the data stays in $db and $lab/"
	exit 0
}

ensure_keys || exit 2
trap on_signal INT TERM HUP

mkdir -p "$lab/runner"
setsid build/perflabd --listen "$listen" --db "$db" --web web/ \
	>>"$lab/perflabd.log" 2>&1 </dev/null &
daemon_pid=$!
if ! wait_healthy; then
	tail -n 5 "$lab/perflabd.log" >&2
	die "perflabd did not come up on $listen (log: $lab/perflabd.log)"
fi
say "perflabd $daemon_pid listening on $url (log: $lab/perflabd.log)"
# Keys from another database (e.g. perflab.db was replaced) are useless.
if ! build/perflab --server "$url" --key "$admin_key" hosts >/dev/null 2>&1; then
	say "the keys in $keys do not work with $db: creating new ones"
	rm -f "$keys"
	ensure_keys || die "cannot create keys"
fi

setsid build/perflab-runner --server "$url" --key "$runner_key" \
	--backend qemu-icount --name "$runner_name" --label qemu-icount \
	--workdir "$lab/runner" --kcache "$kcache" >>"$lab/runner.log" 2>&1 \
	</dev/null &
runner_pid=$!
say "perflab-runner $runner_pid (qemu-icount, log: $lab/runner.log)"

submit_demo

cat <<EOT

  dashboard  $url/
  admin key  $admin_key
  CLI        export PERFLAB_URL=$url PERFLAB_KEY=$admin_key
EOT
[ -n "$demo_id" ] &&
	echo "  demo       $url/#/experiments/$demo_id   (build/perflab watch $demo_id)"
cat <<EOT

  Ctrl-C stops the lab.
EOT

start=$SECONDS
while :; do
	if ! kill -0 "$daemon_pid" 2>/dev/null; then
		say "perflabd exited; see $lab/perflabd.log" >&2
		stop
		exit 1
	fi
	if ! kill -0 "$runner_pid" 2>/dev/null; then
		say "perflab-runner exited; see $lab/runner.log" >&2
		stop
		exit 1
	fi
	if [ "$exit_after" -gt 0 ] && [ $((SECONDS - start)) -ge "$exit_after" ]; then
		on_signal
	fi
	sleep 1 &
	wait $! 2>/dev/null
done
