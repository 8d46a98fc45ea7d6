#!/usr/bin/env bash
# Description: GET /api/v1/events streams job and experiment state changes
# as server-sent events; /metrics reports queue depth, jobs/hosts by state
# and request counts; /healthz answers; static files are served from --web
# without path traversal, and of web/node_modules only uPlot's dist files.
. "$(dirname "$0")/lib.sh"
mkdir -p "$TMP/web/sub" "$TMP/web/node_modules/uplot/dist" \
	"$TMP/web/node_modules/playwright-core"
echo 'uplot' >"$TMP/web/node_modules/uplot/dist/uPlot.iife.min.js"
echo '{}' >"$TMP/web/node_modules/uplot/package.json"
echo '{}' >"$TMP/web/node_modules/playwright-core/package.json"
echo '<h1>perflab</h1>' >"$TMP/web/index.html"
echo 'body{}' >"$TMP/web/sub/a.css"
echo 'secret' >"$TMP/secret.txt"
start_daemon --web "$TMP/web"
SUB=$(make_key submit alice)
RUN=$(make_key runner r1)
register_host "$RUN" h1

curl -s -N -H "Authorization: Bearer $SUB" "$BASE/api/v1/events" >"$TMP/sse" &
sse=$!
sleep 0.5
api POST /api/v1/experiments "$SUB" '{"runs":1,"variants":[{"name":"A"}]}' >/dev/null
job=$(claim "$RUN" h1 1)
api POST "/api/v1/jobs/$(jq -r .job_id <<<"$job")/heartbeat" "$RUN" \
	"{\"lease\":\"$(jq -r .lease <<<"$job")\",\"phase\":\"boot\",\"message\":\"booting\"}" >/dev/null
sleep 0.5
kill $sse 2>/dev/null
wait $sse 2>/dev/null
grep -q '^event: experiment' "$TMP/sse" || fail "no experiment event: $(cat "$TMP/sse")"
grep -q '"state":"claimed"' "$TMP/sse" || fail "no claim event"
grep -q '"phase":"boot"' "$TMP/sse" || fail "no heartbeat progress event"
grep -q '^id: [0-9]' "$TMP/sse" || fail "events without ids"
# Resume after an id: only later events.
first=$(grep -m1 '^id:' "$TMP/sse" | cut -d' ' -f2)
curl -s -N -m 1 -H "Authorization: Bearer $SUB" -H "Last-Event-ID: $first" "$BASE/api/v1/events" >"$TMP/sse2"
grep -q "^id: $first\$" "$TMP/sse2" && fail "Last-Event-ID replayed the acknowledged event"
grep -q '"phase":"boot"' "$TMP/sse2" || fail "Last-Event-ID did not replay later events"
api GET /api/v1/events "" >/dev/null
expect_status 401 "events need a key"
# Filtered by experiment, from the start of the ring.
api POST /api/v1/experiments "$SUB" '{"runs":1,"variants":[{"name":"A"}]}' >/dev/null
curl -s -N -m 1 -H "Authorization: Bearer $SUB" "$BASE/api/v1/events?since=0&experiment=2" >"$TMP/sse3"
grep -q '"experiment_id":2' "$TMP/sse3" || fail "no event of experiment 2: $(cat "$TMP/sse3")"
grep -q '"experiment_id":1[,}]' "$TMP/sse3" && fail "experiment filter let experiment 1 through"

m=$(api GET /metrics "")
expect_status 200 "metrics"
grep -q '^perflab_queue_depth 1$' <<<"$m" || fail "queue depth: $(grep queue <<<"$m")"
grep -q '^perflab_jobs{state="running"} 1$' <<<"$m" || fail "jobs by state"
grep -q '^perflab_hosts{state="busy"} 1$' <<<"$m" || fail "hosts by state"
grep -q 'perflab_http_requests_total{method="POST",route="/api/v1/jobs/claim",code="2xx"} 1' <<<"$m" || fail "request counts"
grep -q '^perflab_http_request_duration_seconds_bucket{le="+Inf"} [1-9]' <<<"$m" || fail "latency histogram"

check "$(api GET /healthz "" | jq -r .status)" = ok "healthz"
check "$(api GET / "")" = "<h1>perflab</h1>" "index.html at /"
api GET /sub/a.css "" >/dev/null
expect_status 200 "static file"
for p in /../secret.txt /sub/../../secret.txt /%2e%2e/secret.txt /sub/%2e%2e/%2e%2e/secret.txt; do
	code=$(curl -s --path-as-is -o "$TMP/out" -w '%{http_code}' "$BASE$p")
	grep -q secret "$TMP/out" && fail "path traversal with $p"
	check "$code" = 404 "traversal $p refused"
done
check "$(api GET /node_modules/uplot/dist/uPlot.iife.min.js "")" = uplot "uPlot served"
for p in /node_modules/playwright-core/package.json /node_modules/uplot/package.json \
	/node_modules/uplot/dist/../package.json /node_modules/; do
	code=$(curl -s --path-as-is -o /dev/null -w '%{http_code}' "$BASE$p")
	check "$code" = 404 "$p not served"
done
api POST /index.html "" x >/dev/null
expect_status 405 "POST to a static file"
echo "ok"
