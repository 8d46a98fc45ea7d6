#!/usr/bin/env bash
# Description: `perflabd backup` while 8 hosts claim jobs and upload
# results: the copy restores (`perflabd restore`) into a database that
# passes `perflabd check`, holds every run perflabd acknowledged before
# the backup began and none acknowledged after it ended, and each of its
# runs has all its samples and its profile (tests/faults/backup_storm.py).
. "$(dirname "$0")/../api/lib.sh"
command -v python3 >/dev/null || skip "python3 is not installed"
start_daemon --lease-seconds 600
SUB=$(make_key submit alice)
ADM=$(make_key admin root)
python3 "$(dirname "$0")/backup_storm.py" "$BASE" "$ADM" "$SUB" "$PERFLABD" \
	"$DB" "$TMP" || fail "backup under the storm"
# The live database is sound too, and the daemon still serves.
"$PERFLABD" check --db "$DB" >/dev/null || fail "live database after the storm: $("$PERFLABD" check --db "$DB")"
api GET /api/v1/experiments "$SUB" >/dev/null
expect_status 200 "perflabd serves after the backup"
echo "ok"
