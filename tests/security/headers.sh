#!/usr/bin/env bash
# Description: every response (API answers, static files of the web UI,
# and the error answers: 401, 404, 405, 413 and static 404) carries a
# Content-Security-Policy with frame-ancestors 'none' and script-src
# 'self' (no inline script), X-Content-Type-Options: nosniff and
# X-Frame-Options: DENY.
. "$(dirname "$0")/../api/lib.sh"
start_daemon --web "$TOP/web"
SUB=$(make_key submit alice)

headers() { # headers NAME CURL-ARGS...: check the security headers
	local what=$1
	shift
	curl -s -o /dev/null -D "$TMP/h" "$@" || fail "$what: curl failed"
	grep -qi '^content-security-policy:.*frame-ancestors .none.' "$TMP/h" ||
		fail "$what: no CSP with frame-ancestors 'none': $(cat "$TMP/h")"
	grep -qi "^content-security-policy:.*script-src 'self';" "$TMP/h" ||
		fail "$what: CSP allows more scripts than our own: $(cat "$TMP/h")"
	grep -qi '^x-content-type-options: *nosniff' "$TMP/h" ||
		fail "$what: no X-Content-Type-Options: nosniff"
	grep -qi '^x-frame-options: *deny' "$TMP/h" ||
		fail "$what: no X-Frame-Options: DENY"
	head -1 "$TMP/h" | tr -d '\r'
}

headers "API 200" -H "Authorization: Bearer $SUB" "$BASE/api/v1/experiments"
headers "healthz" "$BASE/healthz"
headers "metrics" "$BASE/metrics"
headers "static index" "$BASE/"
headers "static js" "$BASE/js/app.js"
headers "static 404" "$BASE/nope.html"
headers "API 401" "$BASE/api/v1/experiments"
headers "API 404" -H "Authorization: Bearer $SUB" "$BASE/api/v1/nope"
headers "API 405" -X DELETE -H "Authorization: Bearer $SUB" "$BASE/api/v1/experiments"
headers "API 400" -X POST -H "Authorization: Bearer $SUB" --data-binary '{' "$BASE/api/v1/experiments"
head -c $((17 << 20)) /dev/zero >"$TMP/big"
headers "API 413" -X POST -H "Authorization: Bearer $SUB" --data-binary "@$TMP/big" "$BASE/api/v1/experiments"
echo ok
