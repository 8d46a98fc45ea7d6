#!/usr/bin/env bash
# Description: a runner key cannot take over a host name that another
# active runner key registered (409 with the owner's name), nor register a
# second name (403); the host keeps its key. After the admin revokes the
# old key, a new key may register the name (the documented way to rotate
# a host's key).
. "$(dirname "$0")/../api/lib.sh"
start_daemon
R1=$(make_key runner r1)
R2=$(make_key runner r2)
register_host "$R1" h1 lab local

body=$(api POST /api/v1/hosts/register "$R2" '{"name":"h1","backend":"local","labels":["evil"]}')
expect_status 409 "new key registering h1"
grep -q "r1" <<<"$body" || fail "the refusal names the owner: $body"
check "$(sql "SELECT labels FROM hosts WHERE name = 'h1'")" = '["lab"]' "h1 unchanged"
check "$(sql "SELECT count(*) FROM api_keys WHERE name = 'r2' AND host_id IS NOT NULL")" -eq 0 "r2 bound to nothing"
claim "$R2" h1 0 >/dev/null
expect_status 403 "r2 cannot claim for h1"

register_host "$R2" h2 lab local
api POST /api/v1/hosts/register "$R2" '{"name":"h3","backend":"local"}' >/dev/null
expect_status 403 "a bound key registering a second name"

"$PERFLABD" key revoke r1 --db "$DB" >/dev/null || fail "revoke r1"
R3=$(make_key runner r3)
register_host "$R3" h1 lab local
check "$(sql "SELECT h.name FROM api_keys k JOIN hosts h ON h.id = k.host_id WHERE k.name = 'r3'")" = h1 "r3 owns h1 after r1 was revoked"
echo ok
