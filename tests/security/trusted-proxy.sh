#!/usr/bin/env bash
# Description: behind a reverse proxy given with --trusted-proxy, the
# failed-authentication limit counts per client address from
# X-Forwarded-For: ten bad keys from one client lock out that client
# (also when it prepends a forged hop), not the others behind the same
# proxy, valid keys included. From a peer that is not a trusted proxy,
# X-Forwarded-For is ignored: a fresh forged address per guess does not
# escape the limit. A bad --trusted-proxy is refused at start.
. "$(dirname "$0")/../api/lib.sh"

get() { # get KEY XFF: status of GET /api/v1/experiments
	curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $1" \
		-H "X-Forwarded-For: $2" "$BASE/api/v1/experiments"
}
bad=plk_abcdefgh_notarealkeynotarealkeynotarealkey

"$PERFLABD" --listen 127.0.0.1:0 --db "$DB" --trusted-proxy 127.0.0.1,nope >"$TMP/out" 2>&1 &&
	fail "perflabd started with a bad --trusted-proxy"
grep -q "trusted-proxy" "$TMP/out" || fail "no reason given: $(cat "$TMP/out")"

start_daemon --trusted-proxy 192.0.2.7 --trusted-proxy 127.0.0.1
SUB=$(make_key submit alice)
for i in $(seq 10); do
	check "$(get "$bad" 10.0.0.1)" = 401 "bad key $i from 10.0.0.1"
done
check "$(get "$bad" 10.0.0.1)" = 429 "10.0.0.1 is limited"
check "$(get "$bad" "10.9.9.9, 10.0.0.1")" = 429 "a forged hop in front does not help"
check "$(get "$bad" "10.0.0.1, 192.0.2.7")" = 429 "through two trusted proxies"
check "$(get "$SUB" 10.0.0.2)" = 200 "another client behind the proxy with a valid key"
check "$(get "$bad" 10.0.0.2)" = 401 "another client's bad key is counted for it"
stop_daemon

# The peer (127.0.0.1) is not a trusted proxy: X-Forwarded-For is ignored.
start_daemon --trusted-proxy 192.0.2.7
for i in $(seq 10); do
	check "$(get "$bad" "10.1.0.$i")" = 401 "bad key $i with a forged address"
done
check "$(get "$bad" 10.1.0.99)" = 429 "forged addresses do not escape the limit"
echo ok
