#!/usr/bin/env bash
# Description: `perflabd restore` replaces the database by a backup (an
# experiment made after the backup is gone, the one before it is back)
# but refuses while perflabd has the database open, and refuses a copy
# that fails `perflabd check`; `perflabd check` finds a dangling foreign
# key and overwritten pages; `perflabd backup` creates no database from
# a mistyped path and overwrites no file. Every refusal leaves the live
# database as it was.
. "$(dirname "$0")/lib.sh"
start_daemon
SUB=$(make_key submit alice)
exp() {
	api POST /api/v1/experiments "$SUB" "{\"title\":\"$1\",\"runs\":2,\"variants\":[{\"name\":\"A\"},{\"name\":\"B\"}]}" | jq -r .id
	expect_status 201 "experiment $1"
}
e1=$(exp before)
"$PERFLABD" backup "$TMP/b.db" --db "$DB" >/dev/null 2>&1 || fail "backup"
e2=$(exp after)

# Refusals of backup.
"$PERFLABD" backup "$TMP/c.db" --db "$TMP/nope.db" 2>"$TMP/err" && fail "backup of a missing database"
[ -e "$TMP/nope.db" ] && fail "backup created the missing database"
echo keep >"$TMP/keep.db"
"$PERFLABD" backup "$TMP/keep.db" --db "$DB" 2>"$TMP/err" && fail "backup over an existing file"
grep -q exists "$TMP/err" || fail "message of the refused overwrite: $(cat "$TMP/err")"
check "$(cat "$TMP/keep.db")" = keep "the existing file"

# Refused while perflabd serves the database.
ref=$(sql .sha3sum)
"$PERFLABD" restore "$TMP/b.db" --db "$DB" 2>"$TMP/err" && fail "restore while perflabd runs"
grep -q "in use" "$TMP/err" || fail "message of the refused restore: $(cat "$TMP/err")"
check "$(sql .sha3sum)" = "$ref" "live database after the refused restore"

# check finds what is wrong with a copy; restore refuses it.
cp "$TMP/b.db" "$TMP/fk.db"
sqlite3 "$TMP/fk.db" "PRAGMA foreign_keys=OFF; INSERT INTO variants (experiment_id, idx, name) VALUES (999999, 0, 'x')"
"$PERFLABD" check "$TMP/fk.db" >"$TMP/out" && fail "check passed a dangling foreign key"
grep -q "variants row .* missing experiments row" "$TMP/out" || fail "check's report: $(cat "$TMP/out")"
"$PERFLABD" check "$TMP/b.db" >"$TMP/out" || fail "check of the good copy: $(cat "$TMP/out")"
cp "$TMP/b.db" "$TMP/bad.db"
pages=$(sqlite3 "$TMP/bad.db" "PRAGMA page_count")
dd if=/dev/urandom of="$TMP/bad.db" bs=4096 seek=$((pages / 2)) count=3 conv=notrunc 2>/dev/null
"$PERFLABD" check "$TMP/bad.db" >"$TMP/out" 2>&1 && fail "check passed overwritten pages"
echo junk >"$TMP/junk.db"
"$PERFLABD" check "$TMP/junk.db" >"$TMP/out" 2>&1 && fail "check passed a file that is no database"
stop_daemon
for f in fk bad junk; do
	"$PERFLABD" restore "$TMP/$f.db" --db "$DB" 2>"$TMP/err" && fail "restore of $f.db"
	check "$(sql .sha3sum)" = "$ref" "live database after refusing $f.db"
done

# The documented restore: stop perflabd, restore, start it.
"$PERFLABD" restore "$TMP/b.db" --db "$DB" >/dev/null || fail "restore"
"$PERFLABD" check --db "$DB" >/dev/null || fail "check after restore"
start_daemon
api GET "/api/v1/experiments/$e1" "$SUB" >/dev/null
expect_status 200 "experiment from before the backup"
api GET "/api/v1/experiments/$e2" "$SUB" >/dev/null
expect_status 404 "experiment from after the backup"
echo ok
