#!/usr/bin/env bash
# Description: series import, change points and alert delivery against a
# real perflabd and real local receivers: a CSV history with a 3 % drop at
# point 70 gets one change point there and one alert; the alert goes to a
# webhook (HTTP receiver answering 500 then 200: the failure is logged and
# retried with backoff, the X-Perflab-Signature HMAC-SHA256 matches the
# body) and by SMTP to a sink (LKP-style subject and text, SMTP AUTH with
# the password from --smtp-password-file; a missing file stops perflabd
# from starting); triage via
# PATCH records who/when; re-import adds no duplicate change point; a
# tracked baseline gets its experiment queued.
. "$(dirname "$0")/../api/lib.sh"
command -v python3 >/dev/null || skip "python3 is not installed"
command -v openssl >/dev/null || skip "openssl is not installed"

mkdir -p "$TMP/rx"
python3 "$TOP/tests/stats/receivers.py" "$TMP/rx" &
RX=$!
trap 'kill $RX 2>/dev/null; cleanup' EXIT
for _ in $(seq 100); do [ -s "$TMP/rx/smtp.port" ] && [ -s "$TMP/rx/http.port" ] && break; sleep 0.05; done
[ -s "$TMP/rx/smtp.port" ] || fail "receivers did not start"

printf 's3cret pw\n' >"$TMP/smtp.pass"
"$PERFLABD" --db "$DB" --smtp-user perflab --smtp-password-file "$TMP/nope" \
	>"$TMP/out" 2>&1 && fail "perflabd started without its SMTP password file"
grep -q "smtp-password-file" "$TMP/out" || fail "no reason: $(cat "$TMP/out")"
start_daemon --smtp-url "smtp://127.0.0.1:$(cat "$TMP/rx/smtp.port")" \
	--smtp-from perflab@lab.test --smtp-to dev@lab.test --public-url http://lab.test \
	--smtp-user perflab --smtp-password-file "$TMP/smtp.pass"
ADMIN=$(make_key admin boss)
KEY=$(make_key submit tester)

api POST /api/v1/webhooks "$ADMIN" \
	"{\"url\":\"http://127.0.0.1:$(cat "$TMP/rx/http.port")/hook\",\"secret\":\"s3cret-key\"}" >/dev/null
expect_status 201 "webhook"
api POST /api/v1/webhooks "$ADMIN" '{"url":"ftp://x","secret":"s3cret-key"}' >/dev/null
expect_status 400 "bad webhook url"

# 120 nightly points around 1e6 IOPS (0.2 % noise), 3 % lower from 70 on.
# python3's Mersenne Twister, not awk's rand(): mawk and gawk (which
# lava-server pulls in) give different streams for the same seed.
python3 -c '
import math, random
random.seed(7)
print("time,value,commit")
for i in range(120):
	z = random.gauss(0, 1)
	print("%d,%.1f,c%03d" % (1700000000 + i * 86400, 1e6 * (1 if i < 70 else 0.97) * (1 + 0.002 * z), i))
' >"$TMP/hist.csv"
out=$(curl -s -w '\n%{http_code}' -H "Authorization: Bearer $KEY" -H 'Content-Type: text/csv' \
	--data-binary @"$TMP/hist.csv" "$BASE/api/v1/series/import?name=nightly&metric=iops")
check "$(tail -n1 <<<"$out")" = 201 "import status ($out)"
check "$(head -n -1 <<<"$out" | jq .imported)" -eq 120 "points imported"
check "$(head -n -1 <<<"$out" | jq .new_change_points)" -eq 1 "one change point"

s=$(api GET "/api/v1/series?name=nightly" "$KEY")
expect_status 200 "series"
check "$(jq '.points | length' <<<"$s")" -eq 120 "points listed"
# format=pairs: the same points as [t, value], for charts
sid=$(jq .id <<<"$s")
p=$(api GET "/api/v1/series?id=$sid&format=pairs" "$KEY")
expect_status 200 "series as pairs"
check "$(jq -c '[.points[] | [.t, .value]]' <<<"$s")" = "$(jq -c .points <<<"$p")" "pairs equal the rows' t and value"
check "$(jq '.change_points | length' <<<"$p")" -eq 1 "change points with pairs"
api GET "/api/v1/series?id=$sid&format=csv" "$KEY" >/dev/null
expect_status 400 "unknown series format"
label=$(jq -r '.change_points[0].label' <<<"$s")
case $label in c06[89] | c07[012]) ;; *) fail "change point at $label, expected c070" ;; esac
delta=$(jq '.change_points[0].delta_pct' <<<"$s")
awk -v d="$delta" 'BEGIN { exit !(d < -2.5 && d > -3.5) }' || fail "delta $delta"
echo "change point at $label, delta $delta %"

a=$(api GET /api/v1/alerts "$KEY")
check "$(jq '.alerts | length' <<<"$a")" -eq 1 "one alert"
check "$(jq -r '.alerts[0].kind' <<<"$a")" = change_point "alert kind"
ID=$(jq '.alerts[0].id' <<<"$a")

# Webhook: first attempt answered 500, logged, retry queued with backoff.
for _ in $(seq 100); do [ -f "$TMP/rx/hook.1" ] && break; sleep 0.1; done
[ -f "$TMP/rx/hook.1" ] || fail "webhook not called"
for _ in $(seq 50); do
	[ "$(sql "SELECT count(*) FROM deliveries WHERE channel = 'webhook' AND status = 'pending' AND attempt = 2")" = 1 ] && break
	sleep 0.1
done
check "$(sql "SELECT http_status || ' ' || status FROM deliveries WHERE channel = 'webhook' AND attempt = 1")" = "500 failed" "first attempt logged"
wait_s=$(sql "SELECT next_retry_at - at FROM deliveries WHERE channel = 'webhook' AND attempt = 2")
check "$wait_s" -ge 30 "backoff before retry"
sql "UPDATE deliveries SET next_retry_at = 0 WHERE status = 'pending' AND channel = 'webhook'"
for _ in $(seq 100); do [ -f "$TMP/rx/hook.2" ] && break; sleep 0.1; done
[ -f "$TMP/rx/hook.2" ] || fail "webhook not retried"
for _ in $(seq 50); do
	[ "$(sql "SELECT status FROM deliveries WHERE channel = 'webhook' AND attempt = 2")" = ok ] && break
	sleep 0.1
done
check "$(sql "SELECT status FROM deliveries WHERE channel = 'webhook' AND attempt = 2")" = ok "retry delivered"
sig=$(sed -n 's/^X-Perflab-Signature: sha256=//Ip' "$TMP/rx/hook.2" | tr -d '\r')
sed '1,/^$/d' "$TMP/rx/hook.2" | head -c -0 >"$TMP/body.json"
want=$(printf '%s' "$(cat "$TMP/body.json")" | openssl dgst -sha256 -hmac s3cret-key | sed 's/.*= //')
check "$sig" = "$want" "HMAC signature"
check "$(jq -r .title "$TMP/body.json" | grep -c 'nightly')" -eq 1 "webhook body"

# Email to the SMTP sink.
for _ in $(seq 100); do [ -f "$TMP/rx/mail.1" ] && break; sleep 0.1; done
[ -f "$TMP/rx/mail.1" ] || fail "no mail: $(sql 'SELECT * FROM deliveries')"
pct=$(printf '%.1f' "$delta")
grep -qF "Subject: [perflab] $pct% regression of iops" "$TMP/rx/mail.1" || fail "subject: $(grep Subject "$TMP/rx/mail.1"), want $pct%"
grep -q 'FYI, we noticed' "$TMP/rx/mail.1" || fail "mail body"
grep -q 'RCPT TO:<dev@lab.test>' "$TMP/rx/mail.1" || fail "recipient"
grep -qx 'AUTH user=perflab pass=s3cret pw' "$TMP/rx/mail.1" ||
	fail "SMTP login: $(grep AUTH "$TMP/rx/mail.1")"

# Triage.
p=$(api PATCH "/api/v1/alerts/$ID" "$KEY" '{"state":"acknowledged","note":"bisecting"}')
expect_status 200 "patch alert"
check "$(jq -r '.state' <<<"$p")" = acknowledged "state"
check "$(jq -r '.history[-1].who' <<<"$p")" = tester "who"
api PATCH "/api/v1/alerts/$ID" "$KEY" '{"state":"done"}' >/dev/null
expect_status 400 "bad state"
api PATCH /api/v1/alerts/999 "$KEY" '{"state":"fixed"}' >/dev/null
expect_status 404 "unknown alert"
# List filters are checked, not matched against nothing.
a=$(api GET "/api/v1/alerts?state=acknowledged&kind=change_point" "$KEY")
expect_status 200 "filtered list"
check "$(jq '.alerts | length' <<<"$a")" -eq 1 "acknowledged change-point alerts"
api GET "/api/v1/alerts?state=bogus" "$KEY" >/dev/null
expect_status 400 "unknown state filter"
api GET "/api/v1/alerts?kind=bogus" "$KEY" >/dev/null
expect_status 400 "unknown kind filter"

# Same history again plus JSON points: no duplicate change point.
api POST /api/v1/series/import "$KEY" \
	'{"name":"nightly","metric":"iops","points":[{"time":"2024-06-01","value":970000,"commit":"c120"},{"time":"2024-01-01T12:00:00Z","value":970000,"commit":"mid"}]}' >/dev/null
expect_status 201 "json import"
check "$(sql "SELECT count(*) FROM change_points")" -eq 1 "no duplicate change point"
api POST /api/v1/series/import "$KEY" '{"name":"x","points":[{"time":"yesterday","value":1}]}' >/dev/null
expect_status 400 "bad time"
api POST /api/v1/series/import "$KEY" '{"name":"x","bogus":1,"points":[{"time":1,"value":1}]}' >/dev/null
expect_status 400 "unknown field"
curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $KEY" --data-binary $'1,2\nx,y\n' \
	"$BASE/api/v1/series/import?name=bad" | grep -q 400 || fail "bad csv accepted"

# Tracked baseline: queued by the daemon on schedule.
api POST /api/v1/baselines "$ADMIN" '{"name":"nightly-6.1","runs":2,"schedule_seconds":3600}' >/dev/null
expect_status 201 "baseline"
api POST /api/v1/baselines "$KEY" '{"name":"x","schedule_seconds":3600}' >/dev/null
expect_status 403 "baseline needs admin"
for _ in $(seq 50); do
	[ "$(sql "SELECT count(*) FROM experiments WHERE kind = 'baseline'")" = 1 ] && break
	sleep 0.1
done
check "$(sql "SELECT count(*) FROM experiments WHERE kind = 'baseline'")" -eq 1 "baseline experiment queued"
check "$(api GET /api/v1/baselines "$KEY" | jq '.baselines | length')" -eq 1 "baselines listed"
echo "series, change points, alerts, delivery ok"
