#!/usr/bin/env bash
# Description: the database's file system turns read-only under a running
# perflabd (ext4 on a loop device, emergency read-only via
# trigger_fs_error): writes get 503 with a reason, reads keep working,
# nothing half-written; after fsck and a restart the same upload (same
# lease) is stored once and integrity_check is ok. Needs root and loop.
. "$(dirname "$0")/../api/lib.sh"
. "$(dirname "$0")/lib.sh"
command -v losetup >/dev/null && command -v mkfs.ext4 >/dev/null ||
	skip "losetup or mkfs.ext4 not installed"
MNT=$TMP/mnt
LOOP=
mkdir -p "$MNT"
truncate -s 24M "$TMP/img"
mkfs.ext4 -q -F "$TMP/img" >/dev/null 2>&1 || skip "mkfs.ext4 failed"
trap unmount EXIT
LOOP=$(losetup -f --show "$TMP/img" 2>/dev/null) || skip "no loop device available"
mount -o errors=remount-ro "$LOOP" "$MNT" 2>/dev/null || skip "cannot mount ext4 (needs root)"
trigger=/sys/fs/ext4/${LOOP#/dev/}/trigger_fs_error
[ -w "$trigger" ] || skip "$trigger not available"

DB=$MNT/perflab.db
claim_one_job 1
sample_result "$lease" 100000 200 >"$TMP/result.json"
before=$(sql .dump | md5sum)

# Flush first: with synchronous=NORMAL (WAL) commits not yet written
# back are lost when the file system aborts, as on a power cut.
sync -f "$MNT/perflab.db"
echo "perflab fault test" >"$trigger"
findmnt -n -o OPTIONS "$MNT" | grep -q ro || fail "file system did not turn read-only"
b=$(api POST "/api/v1/jobs/$id/result" "$RUN" "@$TMP/result.json")
expect_status 503 "result upload on a read-only file system"
jq -e '.error | test("unavailable"; "i")' <<<"$b" >/dev/null || fail "503 without a reason: $b"
echo "result: $b"
b=$(api POST /api/v1/experiments "$SUB" '{"runs":1,"variants":[{"name":"X"}]}')
expect_status 503 "submit on a read-only file system"
echo "submit: $b"
api POST "/api/v1/jobs/$id/heartbeat" "$RUN" "{\"lease\":\"$lease\"}" >/dev/null
expect_status 503 "heartbeat on a read-only file system"
api GET /api/v1/experiments/1 "$SUB" >/dev/null
expect_status 200 "reads on a read-only file system"
check "$(sql .dump | md5sum)" = "$before" "nothing written"

# The operator repairs the file system and restarts perflabd.
stop_daemon
umount "$MNT" || fail "umount"
e2fsck -fy "$LOOP" >/dev/null 2>&1
[ $? -le 1 ] || fail "e2fsck could not repair the file system"
mount "$LOOP" "$MNT" || fail "remount"
start_daemon --lease-seconds 600
api POST "/api/v1/jobs/$id/result" "$RUN" "@$TMP/result.json" >/dev/null
expect_status 201 "the same upload after the repair"
api POST "/api/v1/jobs/$id/result" "$RUN" "@$TMP/result.json" >/dev/null
expect_status 200 "a retry is a duplicate"
check "$(sql 'SELECT count(*) FROM runs')" -eq 1 "one run"
check "$(sql 'SELECT count(*) FROM samples')" -eq 200 "every sample"
check "$(sql 'PRAGMA integrity_check')" = ok "integrity_check"
echo "ok"
