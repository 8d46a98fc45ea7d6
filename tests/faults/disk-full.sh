#!/usr/bin/env bash
# Description: the database's file system fills up: writes get 503 with
# a reason, reads keep working, nothing half-written is left (no run, no
# samples, job not done), and once space returns the same upload is stored
# once and the database passes integrity_check. Uses a small tmpfs
# mounted over a temp dir (needs root).
. "$(dirname "$0")/../api/lib.sh"
. "$(dirname "$0")/lib.sh"
MNT=$TMP/mnt
mkdir -p "$MNT"
mount -t tmpfs -o size=3m,mode=0700 perflab-test "$MNT" 2>/dev/null ||
	skip "cannot mount a tmpfs (needs root)"
trap unmount EXIT
DB=$MNT/perflab.db
claim_one_job 2
# A result big enough not to fit in what is left: 20000 samples.
sample_result "$lease" 100000 20000 >"$TMP/result.json"

# Fill the file system (the WAL may hold a few pages: fill twice).
dd if=/dev/zero of="$MNT/fill" bs=16k 2>/dev/null
dd if=/dev/zero of="$MNT/fill2" bs=4k 2>/dev/null
check "$(df --output=avail "$MNT" | tail -1)" -le 8 "file system full"

b=$(api POST "/api/v1/jobs/$id/result" "$RUN" "@$TMP/result.json")
expect_status 503 "result upload on a full disk"
jq -e '.error | test("full|space|disk"; "i")' <<<"$b" >/dev/null ||
	fail "503 without a reason: $b"
b=$(api POST /api/v1/experiments "$SUB" '{"runs":1,"variants":[{"name":"X"}]}')
s=$(last_status)
[ "$s" = 503 ] || [ "$s" = 201 ] || fail "experiment on a full disk: HTTP $s: $b"
echo "submit on a full disk: HTTP $s $b"
api GET "/api/v1/experiments/1" "$SUB" >/dev/null
expect_status 200 "reads still work on a full disk"
api GET /healthz "" >/dev/null
expect_status 200 "healthz on a full disk"
check "$(sql 'SELECT count(*) FROM runs')" -eq 0 "no run stored"
check "$(sql 'SELECT count(*) FROM samples')" -eq 0 "no samples stored"
check "$(sql "SELECT state FROM jobs WHERE id = $id")" != done "job not marked done"

# Space returns: the same upload (same lease) is stored once.
rm -f "$MNT/fill" "$MNT/fill2"
api POST "/api/v1/jobs/$id/result" "$RUN" "@$TMP/result.json" >/dev/null
expect_status 201 "result after space returned"
api POST "/api/v1/jobs/$id/result" "$RUN" "@$TMP/result.json" >/dev/null
expect_status 200 "retry is a duplicate"
check "$(sql 'SELECT count(*) FROM runs')" -eq 1 "one run"
check "$(sql 'SELECT count(*) FROM samples')" -eq 20000 "all samples"
check "$(sql 'PRAGMA integrity_check')" = ok "integrity_check"
check "$(sql 'PRAGMA foreign_key_check' | wc -l)" -eq 0 "foreign keys"
echo "ok"
