#!/usr/bin/env bash
# Description: perflabd is killed with SIGKILL five times while 8 hosts
# claim jobs and upload results (retrying unacknowledged uploads with the
# same lease, as perflab-runner does): after every crash integrity_check
# is ok, every acknowledged upload is stored, retried ones are stored once,
# and every job ends with exactly one run.
. "$(dirname "$0")/../api/lib.sh"
. "$(dirname "$0")/lib.sh"
NHOSTS=8
start_daemon --lease-seconds 600
PORT=$(cat "$TMP/port")
SUB=$(make_key submit alice)
ADM=$(make_key admin root)
wpids=()
trap 'for p in "${wpids[@]}"; do kill_tree $p; done; cleanup' EXIT
for i in $(seq $NHOSTS); do
	register_host "$ADM" "h$i" "l$i"
	api POST /api/v1/experiments "$SUB" "{\"runs\":4,\"max_runs\":4,\"label\":\"l$i\",\"variants\":[{\"name\":\"A\"},{\"name\":\"B\"}]}" >/dev/null
	expect_status 201 "experiment $i"
done
# One result body (1500 samples), the lease filled in per upload.
sample_result LEASE_PLACEHOLDER 100000 1500 >"$TMP/template.json"

start_daemon_port() {
	"$PERFLABD" --listen "127.0.0.1:$PORT" --db "$DB" --lease-seconds 600 \
		>>"$TMP/daemon.log" 2>&1 &
	DAEMON_PID=$!
	for _ in $(seq 100); do
		curl -s -o /dev/null "http://127.0.0.1:$PORT/healthz" && return 0
		kill -0 "$DAEMON_PID" 2>/dev/null || break
		sleep 0.1
	done
	DAEMON_PID=
	return 1
}

# post_until_acked URL FILE: retry (like the runner) until 2xx or 409.
post_until_acked() {
	local code
	for _ in $(seq 400); do
		code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 20 \
			-H "Authorization: Bearer $ADM" -H 'Content-Type: application/json' \
			--data-binary "@$2" "http://127.0.0.1:$PORT$1")
		case $code in 2??|409) echo "$code"; return ;; esac
		sleep 0.2
	done
	echo "gave-up"
}

worker() { # worker HOST
	local job code id lease f=$TMP/up-$1.json
	while :; do
		job=$(curl -s -w '\n%{http_code}' --max-time 20 -H "Authorization: Bearer $ADM" \
			--data-binary "{\"host\":\"$1\",\"wait\":1}" "http://127.0.0.1:$PORT/api/v1/jobs/claim")
		code=${job##*$'\n'}
		if [ "$code" = 204 ]; then
			[ -e "$TMP/drained-$1" ] && return 0
			continue
		fi
		[ "$code" = 200 ] || { sleep 0.2; continue; }
		job=${job%$'\n'*}
		id=$(jq -r .job_id <<<"$job")
		lease=$(jq -r .lease <<<"$job")
		sed "s/LEASE_PLACEHOLDER/$lease/" "$TMP/template.json" >"$f"
		code=$(post_until_acked "/api/v1/jobs/$id/result" "$f")
		echo "$id $lease $code" >>"$TMP/acks"
	done
}
for i in $(seq $NHOSTS); do
	worker "h$i" &
	wpids+=($!)
done

touch "$TMP/acks"
for k in 1 2 3 4 5; do
	sleep "1.$((RANDOM % 10))"
	kill -9 "$DAEMON_PID"
	wait "$DAEMON_PID" 2>/dev/null
	DAEMON_PID=
	check "$(sql 'PRAGMA integrity_check')" = ok "integrity_check after crash $k"
	echo "crash $k: $(sql 'SELECT count(*) FROM runs') runs stored, $(wc -l <"$TMP/acks" 2>/dev/null || echo 0) uploads acknowledged"
	for _ in $(seq 20); do
		start_daemon_port && break
		sleep 0.2
	done
	[ -n "$DAEMON_PID" ] || fail "perflabd did not restart on port $PORT"
done

for i in $(seq $NHOSTS); do touch "$TMP/drained-h$i"; done
wait_for "[ \"\$(sql \"SELECT count(*) FROM jobs WHERE state <> 'done'\")\" = 0 ]" 60 "every job done"
for p in "${wpids[@]}"; do wait "$p"; done
wpids=()
njobs=$(sql 'SELECT count(*) FROM jobs')
check "$(wc -l <"$TMP/acks")" -ge "$njobs" "every job uploaded"
grep -q gave-up "$TMP/acks" && fail "an upload was never acknowledged"
# Every acknowledged (2xx) upload is stored under its lease.
while read -r id lease code; do
	case $code in
	2??) check "$(sql "SELECT count(*) FROM runs WHERE job_id = $id AND lease_token = '$lease'")" -eq 1 "acknowledged upload of job $id stored" ;;
	esac
done <"$TMP/acks"
for i in $(seq $NHOSTS); do check_exact_runs "$i"; done
check "$(sql 'SELECT count(*) FROM runs')" -eq "$njobs" "one run per job"
check "$(sql 'PRAGMA integrity_check')" = ok "final integrity_check"
echo "$njobs jobs, $(grep -c ' 201$' "$TMP/acks") uploads 201, $(grep -c ' 200$' "$TMP/acks") retried after a lost answer (200 duplicate), $(grep -c ' 409$' "$TMP/acks") refused (lease abandoned by a re-claim)"
echo "ok"
