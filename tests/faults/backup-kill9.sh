#!/usr/bin/env bash
# Description: `perflabd backup` killed with SIGKILL halfway through its
# copy leaves the live database as it was (same content hash, passes
# `perflabd check`, perflabd serves on), leaves no backup file under the
# name asked for (only FILE.part), and the next backup to that name
# succeeds with a copy whose content hash is the live one's.
. "$(dirname "$0")/../api/lib.sh"
start_daemon
SUB=$(make_key submit alice)
api POST /api/v1/experiments "$SUB" '{"runs":2,"variants":[{"name":"A"},{"name":"B"}]}' >/dev/null
expect_status 201 "experiment"
stop_daemon
# Some 12 MB of patches, so that the copy takes many steps.
sql "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
     INSERT INTO patches (sha256, raw, created_at)
     SELECT printf('%064d', i), randomblob(4000), 0 FROM n" || fail "fill"
start_daemon
ref=$(sql .sha3sum) || fail "hash of the live database"

"$PERFLABD" backup "$TMP/b.db" --db "$DB" --pages-per-second 4000 \
	2>"$TMP/backup.err" >/dev/null &
bpid=$!
# Kill it once it has copied some pages but not all of them.
for _ in $(seq 200); do
	line=$(grep -m1 'backup: [1-9][0-9]*/' "$TMP/backup.err")
	[ -n "$line" ] && break
	kill -0 $bpid 2>/dev/null || break
	sleep 0.02
done
kill -9 $bpid 2>/dev/null
wait $bpid 2>/dev/null
last=$(grep 'backup:' "$TMP/backup.err" | tail -n 1)
[ -n "$last" ] || fail "the backup printed no progress: $(cat "$TMP/backup.err")"
done_pages=${last##*: }; done_pages=${done_pages%%/*}
total=${last##*/}; total=${total%% *}
check "$done_pages" -lt "$total" "the backup was killed before it finished ($last)"
[ -e "$TMP/b.db" ] && fail "a killed backup left $TMP/b.db, which looks whole"
[ -e "$TMP/b.db.part" ] || fail "the killed backup wrote no $TMP/b.db.part"

check "$(sql .sha3sum)" = "$ref" "the live database after the kill"
"$PERFLABD" check --db "$DB" >"$TMP/check" || fail "check after the kill: $(cat "$TMP/check")"
api GET /api/v1/experiments "$SUB" >/dev/null
expect_status 200 "perflabd serves after the kill"

"$PERFLABD" backup "$TMP/b.db" --db "$DB" 2>/dev/null >/dev/null || fail "second backup"
[ -e "$TMP/b.db.part" ] && fail "the second backup left its .part file"
"$PERFLABD" check "$TMP/b.db" >"$TMP/check" || fail "check of the copy: $(cat "$TMP/check")"
check "$(sqlite3 "$TMP/b.db" .sha3sum)" = "$ref" "content of the copy"
echo "ok (killed at $done_pages/$total pages)"
