#!/usr/bin/env bash
# Description: one slow upstream stalls nothing else. A git base's
# upstream, the SMTP relay and a webhook receiver all accept connections
# and never answer (tarpit.py); the track timer, a submission by name on
# that base and the alert deliveries all hang on them. Meanwhile a runner
# goes silent: its job is requeued within lease + 5 s; submissions on
# other bases (a tarball base, another git base by name and pinned), and
# on the slow base with commits its mirror has, answer within 1 s; the
# submission that needs the slow upstream answers 503 with Retry-After
# and a JSON error after --git-wait; /metrics shows the stuck fetch on the
# git worker; perflabd stops within 5 s with the fetch and a delivery in
# flight. Restarted with --delivery-timeout 2, each delivery to the silent
# relay and receiver is failed with a timeout within seconds and retried
# later. The figures are printed; the bounds are the issue's.
. "$(dirname "$0")/../api/lib.sh"
. "$(dirname "$0")/../api/gitlib.sh"
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "python3 is not installed"
LEASE=10
start_tarpit git smtp hook
GITP=$(cat "$TMP/tp/git.port")
SMTPP=$(cat "$TMP/tp/smtp.port")
HOOKP=$(cat "$TMP/tp/hook.port")

start_daemon --lease-seconds $LEASE --track-poll 1 \
	--smtp-url "smtp://127.0.0.1:$SMTPP" --smtp-from perflab@lab.test \
	--smtp-to dev@lab.test
ADM=$(make_key admin root)
SUB=$(make_key submit alice)
RUN=$(make_key runner r1)
make_repo "$TMP/slow" 3
make_repo "$TMP/good" 2
S0=$(commit_of "$TMP/slow" 0)
S3=$(commit_of "$TMP/slow" 3)
G2=$(commit_of "$TMP/good" 2)
for b in slow good; do
	api POST /api/v1/bases "$ADM" "$(jq -n --arg n $b --arg u "$TMP/$b" '{name:$n, git:$u}')" >/dev/null
	expect_status 201 "git base $b"
done
api POST /api/v1/tracks "$ADM" '{"base":"slow","label":"slow","runs":1}' >/dev/null
expect_status 201 "track of the slow base"
api POST /api/v1/webhooks "$ADM" "{\"url\":\"http://127.0.0.1:$HOOKP/hook\",\"secret\":\"s3cret-key\"}" >/dev/null
expect_status 201 "webhook to the silent receiver"
# An alert (a 3 % drop in an imported series): one mail, one webhook.
awk 'BEGIN { print "time,value"; for (i = 0; i < 60; i++)
	printf "%d,%d\n", 1700000000 + i * 86400, (i < 40 ? 1000000 : 970000) + (i % 3) * 500 }' >"$TMP/hist.csv"
curl -s -o /dev/null -H "Authorization: Bearer $SUB" -H 'Content-Type: text/csv' \
	--data-binary @"$TMP/hist.csv" "$BASE/api/v1/series/import?name=nightly&metric=iops"
check "$(sql "SELECT count(*) FROM deliveries WHERE status = 'pending'")" -eq 2 "a mail and a webhook to deliver"

# A runner claims a job and goes silent.
register_host "$RUN" h1 silent
api POST /api/v1/experiments "$SUB" '{"label":"silent","runs":1,"max_runs":1,"variants":[{"name":"a"}]}' >/dev/null
expect_status 201 "experiment for the silent runner"
job=$(claim "$RUN" h1 1)
expect_status 200 "claim"
JOB=$(jq -r .job_id <<<"$job")
EXPIRES=$(sql "SELECT lease_expires FROM jobs WHERE id = $JOB")

# The slow base's upstream goes bad: it accepts and never answers. The
# track timer's next fetch of it hangs (once the last one is older than
# the default --git-fetch-interval, 5 s).
sql "UPDATE bases SET url = 'git://127.0.0.1:$GITP/linux.git' WHERE name = 'slow'"
for _ in $(seq 100); do [ "$(cat "$TMP/tp/git.conns")" -ge 1 ] && break; sleep 0.1; done
bad=0
# timed NAME METHOD PATH KEY BODY: "status seconds" into $TMP/t.NAME
timed() {
	curl -s -o "$TMP/t.$1.body" -D "$TMP/t.$1.head" --max-time 40 \
		-w '%{http_code} %{time_total}\n' -X "$2" -H "Authorization: Bearer $4" \
		-H 'Content-Type: application/json' --data-binary "$5" "$BASE$3" >"$TMP/t.$1" ||
		echo "000 40" >"$TMP/t.$1"
}
ex() { jq -n --arg b "$1" '{base:$b, label:"elsewhere", runs:1, max_runs:1, variants:[{name:"a"}]}'; }
# Needs the slow upstream: hangs on it (in the background).
timed slowhead POST /api/v1/experiments "$SUB" "$(ex slow)" &
SLOWHEAD=$!
sleep 1.5

# Within 1 s each, while the slow fetch hangs.
quick() { # quick NAME METHOD PATH BODY WANT
	timed "$1" "$2" "$3" "$SUB" "$4"
	read -r code secs <"$TMP/t.$1"
	printf '%-28s HTTP %s in %6.3f s\n' "$1" "$code" "$secs"
	if [ "$code" != "$5" ] || ! awk -v s="$secs" 'BEGIN { exit !(s < 1.0) }'; then
		echo "FAIL: $1: want HTTP $5 within 1 s: $(cat "$TMP/t.$1.body" 2>/dev/null)"
		bad=1
	fi
}
quick tarball-base POST /api/v1/experiments "$(ex linux-6.1)" 201
quick other-git-base-by-name POST /api/v1/experiments "$(ex good)" 201
quick other-git-base-pinned POST /api/v1/experiments "$(ex "good@$G2")" 201
quick slow-base-mirrored-commit POST /api/v1/experiments "$(ex "slow@${S3:0:12}")" 201
quick slow-base-bisection POST /api/v1/bisections \
	"$(jq -n --arg g "$S0" --arg b "$S3" '{base:"slow", good:$g, bad:$b, runs:1}')" 201
quick healthz GET /healthz "" 200

# The silent runner's job comes back within the lease + 5 s.
requeued=
for _ in $(seq 200); do
	if [ "$(sql "SELECT state FROM jobs WHERE id = $JOB")" = queued ]; then
		requeued=$(date +%s.%N)
		break
	fi
	sleep 0.2
done
if [ -n "$requeued" ]; then
	late=$(echo "$requeued - $EXPIRES" | bc)
	printf 'job %d requeued %.1f s after its lease expired (bound 5 s)\n' "$JOB" "$late"
	awk -v l="$late" 'BEGIN { exit !(l <= 5) }' || { echo "FAIL: requeued too late"; bad=1; }
else
	echo "FAIL: job $JOB still '$(sql "SELECT state FROM jobs WHERE id = $JOB")' 40 s after its lease expired"
	bad=1
fi

# What the silent upstream holds up: the fetch, on the git worker.
m=$(curl -s "$BASE/metrics")
grep -E '^perflab_worker_(queue_depth|oldest_seconds|busy_seconds)\{' <<<"$m"
busy=$(sed -n 's/^perflab_worker_busy_seconds{worker="git"} //p' <<<"$m")
awk -v b="${busy:-0}" 'BEGIN { exit !(b > 1) }' || { echo "FAIL: no stuck fetch on the git worker in /metrics"; bad=1; }
old=$(sed -n 's/^perflab_worker_oldest_seconds{worker="leases"} //p' <<<"$m")
awk -v o="${old:-99}" 'BEGIN { exit !(o < 5) }' || { echo "FAIL: the leases worker is behind: ${old:-none}"; bad=1; }
[ "$(cat "$TMP/tp/git.conns")" -ge 1 ] || { echo "FAIL: nothing fetched from the tarpit"; bad=1; }
sql "SELECT channel, attempt, status, coalesce(error, '') FROM deliveries ORDER BY id"

wait $SLOWHEAD
read -r code secs <"$TMP/t.slowhead"
printf '%-28s HTTP %s in %6.3f s (bound: --git-wait 10 s)\n' slow-base-by-name "$code" "$secs"
if [ "$code" != 503 ] || ! jq -e .error "$TMP/t.slowhead.body" >/dev/null ||
   ! grep -qi '^Retry-After: [0-9]' "$TMP/t.slowhead.head" ||
   ! awk -v s="$secs" 'BEGIN { exit !(s < 13) }'; then
	echo "FAIL: slow base by name: want 503 with Retry-After within --git-wait: $(cat "$TMP/t.slowhead.body" 2>/dev/null)"
	bad=1
else
	echo "  $(jq -r .error "$TMP/t.slowhead.body")"
fi

# A clean stop with the fetch and (likely) an SMTP attempt in flight.
t0=$(date +%s.%N)
kill "$DAEMON_PID"
for _ in $(seq 50); do kill -0 "$DAEMON_PID" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$DAEMON_PID" 2>/dev/null; then
	echo "FAIL: perflabd did not stop within 5 s"
	bad=1
else
	printf 'perflabd stopped in %.1f s\n' "$(echo "$(date +%s.%N) - $t0" | bc)"
fi
kill -9 "$DAEMON_PID" 2>/dev/null
wait "$DAEMON_PID" 2>/dev/null
DAEMON_PID=
[ $bad = 0 ] || fail "the lab stalled behind a silent upstream (figures above)"

# Deliveries to the silent relay and receiver time out and are retried.
sql "DELETE FROM deliveries WHERE attempt > 1; UPDATE deliveries SET status = 'pending', error = NULL, next_retry_at = 0"
start_daemon --lease-seconds $LEASE --track-poll 0 --delivery-timeout 2 \
	--smtp-url "smtp://127.0.0.1:$SMTPP" --smtp-from perflab@lab.test \
	--smtp-to dev@lab.test
t0=$(date +%s.%N)
for _ in $(seq 150); do
	[ "$(sql "SELECT count(*) FROM deliveries WHERE attempt = 1 AND status = 'failed'")" = 2 ] && break
	sleep 0.1
done
printf 'both deliveries failed after %.1f s with --delivery-timeout 2\n' "$(echo "$(date +%s.%N) - $t0" | bc)"
sql "SELECT channel, attempt, status, error FROM deliveries ORDER BY id"
check "$(sql "SELECT count(*) FROM deliveries WHERE attempt = 1 AND status = 'failed' AND error LIKE '%imeout%'")" -eq 2 "both attempts timed out"
check "$(sql "SELECT count(*) FROM deliveries WHERE attempt = 2 AND status = 'pending' AND next_retry_at > at")" -eq 2 "both retried later"
echo "ok"
