#!/usr/bin/env bash
# Description: keys are stored only as salted PBKDF2 hashes (no key text
# anywhere in the database files) and compared with CRYPTO_memcmp; runner
# keys act only for their own host on every runner endpoint; admin-only
# endpoints refuse submit and runner keys; another submitter's experiment
# cannot be cancelled; failed keys are rate-limited per client address
# (429 with Retry-After after 10 failures, recently verified keys still
# pass, one more try every 6 s).
. "$(dirname "$0")/../api/lib.sh"
start_daemon --lease-seconds 600
SUB=$(make_key submit alice)
SUB2=$(make_key submit bob)
ADM=$(make_key admin root)
R1=$(make_key runner r1)
R2=$(make_key runner r2)
register_host "$R1" h1
register_host "$R2" h2

# Stored hashed: no key text (nor its secret half) in the DB, WAL or SHM.
sql 'PRAGMA wal_checkpoint(PASSIVE)' >/dev/null
for k in "$SUB" "$SUB2" "$ADM" "$R1" "$R2"; do
	for f in "$DB" "$DB-wal" "$DB-shm"; do
		[ -f "$f" ] || continue
		grep -qaF "${k:17}" "$f" && fail "key secret stored in clear in $f"
	done
done
check "$(sql "SELECT count(*) FROM api_keys WHERE length(hash) = 32 AND length(salt) = 16 AND iterations >= 100000")" -eq 5 "PBKDF2 hashes, 16-byte salts"
check "$(sql "SELECT count(DISTINCT salt) FROM api_keys")" -eq 5 "a salt per key"
grep -q 'CRYPTO_memcmp(hash' "$TOP/daemon/lab/apikeys.c" || fail "hash not compared with CRYPTO_memcmp"
grep -q 'PKCS5_PBKDF2_HMAC' "$TOP/daemon/lab/apikeys.c" || fail "no KDF in apikeys.c"

# Runner keys: only their own host, on every runner endpoint.
api POST /api/v1/experiments "$SUB" '{"runs":1,"label":"qemu-icount","variants":[{"name":"A"},{"name":"B"}]}' >/dev/null
expect_status 201 "experiment"
job=$(claim "$R1" h1 0)
expect_status 200 "h1 claims"
id=$(jq -r .job_id <<<"$job")
lease=$(jq -r .lease <<<"$job")
claim "$R2" h1 0 >/dev/null
expect_status 403 "r2 claiming for h1"
api POST /api/v1/hosts/register "$R2" '{"name":"h1","backend":"local"}' >/dev/null
expect_status 403 "r2 re-registering h1"
for what in "heartbeat {\"lease\":\"$lease\"}" "fail {\"lease\":\"$lease\",\"reason\":\"boot\"}" \
	"result $(sample_result "$lease" | jq -c .)"; do
	api POST "/api/v1/jobs/$id/${what%% *}" "$R2" "${what#* }" >/dev/null
	case $(last_status) in 403|409) ;; *) fail "r2 ${what%% *} on h1's job: HTTP $(last_status)" ;; esac
done
check "$(sql "SELECT state || '/' || attempt FROM jobs WHERE id = $id")" = "claimed/1" "h1's job untouched"
check "$(sql 'SELECT count(*) FROM runs')" -eq 0 "nothing uploaded by r2"

# Admin-only operations.
for ep in "POST /api/v1/bases {\"name\":\"b2\",\"tree\":\"t\"}" \
	"POST /api/v1/baselines {\"name\":\"bl\",\"schedule_seconds\":3600}" \
	"POST /api/v1/webhooks {\"url\":\"http://127.0.0.1:9/\"}" "GET /api/v1/webhooks"; do
	read -r m p b <<<"$ep"
	for k in "$SUB" "$R1"; do
		if [ -n "$b" ]; then api "$m" "$p" "$k" "$b" >/dev/null; else api "$m" "$p" "$k" >/dev/null; fi
		expect_status 403 "$m $p with a non-admin key"
	done
done
api POST /api/v1/experiments/1/cancel "$SUB2" >/dev/null
expect_status 403 "cancelling another submitter's experiment"
api POST /api/v1/experiments/1/cancel "$R1" >/dev/null
expect_status 403 "a runner key cancelling"
check "$(sql 'SELECT count(*) FROM bases')" -eq 1 "no base added"
check "$(sql 'SELECT count(*) FROM webhooks')" -eq 0 "no webhook added"
check "$(sql 'SELECT state FROM experiments WHERE id = 1')" = running "experiment not cancelled"

# Rate limit on failed keys (this client: 127.0.0.1).
SUB3=$(make_key submit carol)
api GET /api/v1/experiments "$SUB" >/dev/null
expect_status 200 "alice's key verified (and cached)"
for i in $(seq 10); do
	api GET /api/v1/experiments "plk_$(printf '%012x' $i)_$(printf '0%.0s' $(seq 64))" >/dev/null
	expect_status 401 "failed key $i"
done
hdr=$(curl -s -D - -o "$TMP/body" -H "Authorization: Bearer plk_000000000099_$(printf '0%.0s' $(seq 64))" "$BASE/api/v1/experiments")
head -1 <<<"$hdr" | grep -q ' 429' || fail "11th failed key: $(head -1 <<<"$hdr")"
grep -qi '^Retry-After: [1-9]' <<<"$hdr" || fail "429 without Retry-After"
jq -e '.error | test("too many")' "$TMP/body" >/dev/null || fail "429 without a reason"
api GET /api/v1/experiments "$SUB3" >/dev/null
expect_status 429 "an uncached key while locked out"
api GET /api/v1/experiments "$SUB" >/dev/null
expect_status 200 "a recently verified key still works"
api GET /healthz "" >/dev/null
expect_status 200 "public endpoints are not limited"
sleep 6.5
api GET /api/v1/experiments "$SUB3" >/dev/null
expect_status 200 "one more try after 6 s"
echo "ok"
