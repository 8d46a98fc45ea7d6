#!/usr/bin/env bash
# Description: perflabd takes its global --db before the subcommand
# (`perflabd --db FILE key create ...`, `key list`, `key revoke`,
# `migrate`) as well as after it; the subcommand's own --db wins; serving
# options before a subcommand and unknown commands exit 2 with a message.
# The keys made either way open the API of a daemon on that database.
. "$(dirname "$0")/lib.sh"

a=$TMP/a.db b=$TMP/b.db

expect_rc 0 "$PERFLABD" --db "$a" key create --role admin before
grep -q '^plk_' "$TMP/out" || fail "key create after --db printed no key"
k1=$(cat "$TMP/out")
expect_rc 0 "$PERFLABD" key create --role admin after --db "$a"
expect_rc 0 "$PERFLABD" --db="$a" key create --role submit equals
expect_rc 0 "$PERFLABD" key create --db "$a" --role runner middle
[ ! -e perflab.db ] || [ perflab.db -ot "$a" ] ||
	fail "a key went to ./perflab.db instead of --db"

expect_rc 0 "$PERFLABD" --db "$a" key list
for n in before after equals middle; do
	grep -q "^$n " "$TMP/out" || fail "key list via --db lacks $n: $(cat "$TMP/out")"
done

# The subcommand's own --db wins over the global one.
expect_rc 0 "$PERFLABD" --db "$b" key list --db "$a"
grep -q '^before ' "$TMP/out" || fail "key list --db after the words was not used"
[ -e "$b" ] && fail "the global --db was opened although the subcommand named another"

expect_rc 0 "$PERFLABD" --db "$a" key revoke equals
expect_rc 0 "$PERFLABD" key list --db "$a"
grep -q '^equals .*revoked' "$TMP/out" || fail "revoke via the global --db did not revoke"

expect_rc 0 "$PERFLABD" --db "$a" migrate
grep -q "^$a: schema version" "$TMP/out" || fail "migrate via --db: $(cat "$TMP/out")"
expect_rc 0 "$PERFLABD" migrate --db "$a"

# Serving options mean nothing to a subcommand: refused, not ignored.
expect_rc 2 "$PERFLABD" --listen 127.0.0.1:0 --db "$a" key list
grep -q -- '--listen' "$TMP/err" || fail "no message naming --listen: $(cat "$TMP/err")"
expect_rc 2 "$PERFLABD" --db "$a" frobnicate
grep -q "frobnicate" "$TMP/err" || fail "unknown command not named: $(cat "$TMP/err")"
expect_rc 2 "$PERFLABD" --db "$a" key create before-no-role

# The key made with the global --db works against a daemon on that file.
DB=$a
start_daemon
api GET /api/v1/experiments "$k1" >/dev/null
[ "$(last_status)" = 200 ] || fail "key from --db ... key create: HTTP $(last_status)"
echo "ok"
