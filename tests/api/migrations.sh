#!/usr/bin/env bash
# Description: perflabd migrates an empty database file to the newest
# schema at start, and refuses (non-zero exit, clear message) a database
# written by a newer perflabd without touching it.
. "$(dirname "$0")/lib.sh"
newest=$(ls "$TOP"/schema/[0-9]*_*.sql | sed 's|.*/0*||; s|_.*||' | sort -n | tail -n 1)
: >"$DB"
start_daemon
check "$(sql 'PRAGMA user_version')" -eq "$newest" "empty file migrated to the newest version"
check "$(sql 'PRAGMA journal_mode')" = wal "WAL mode"
check "$(api GET /healthz "" | jq -r .schema_version)" -eq "$newest" "healthz reports the version"
stop_daemon

# Restart on the migrated database: nothing to do, data kept.
make_key submit alice >/dev/null
start_daemon
check "$(sql 'SELECT count(*) FROM api_keys')" -eq 1 "data kept across restart"
stop_daemon

sql "PRAGMA user_version = $((newest + 5))"
if "$PERFLABD" --listen 127.0.0.1:0 --db "$DB" >"$TMP/out" 2>&1; then
	fail "perflabd started on a newer database"
fi
grep -q "newer" "$TMP/out" || fail "no clear message: $(cat "$TMP/out")"
check "$(sql 'PRAGMA user_version')" -eq $((newest + 5)) "newer database untouched"
"$PERFLABD" key create --db "$DB" --role admin x >/dev/null 2>&1 && fail "key create on a newer database"
echo "ok"
