#!/usr/bin/env bash
# Description: perflab submit/show/hosts/alerts against a real perflabd:
# a patch becomes an experiment that show prints (text and --json); a
# non-patch, an unknown id and a bad key exit 2 with the server's error;
# --max-runs/--backend are passed on (a backend no registered host runs
# is refused); cancel works once, then 409.
. "$(dirname "$0")/lib.sh"
. "$top/tests/cli/patch.sh"
cli_need_daemon
cli_start_daemon
key=$(cli_key submit cli-test)
[ -n "$key" ] || fail "no key from perflabd key create"
pl() { "$PERFLAB" --server "$URL" --key "$key" "$@"; }

write_patch "$TMP/a.patch" "cli test: a comment"
expect_rc 0 pl submit "$TMP/a.patch" --runs 3 --title "cli submit test" -q
id=$(cat "$TMP/out")
[[ "$id" =~ ^[0-9]+$ ]] || fail "submit -q printed '$id', not an id"

# "-" reads the patch from stdin
pl submit - -q <"$TMP/a.patch" >"$TMP/id2" || fail "submit - failed"
[ "$(cat "$TMP/id2")" = $((id + 1)) ] || fail "submit - printed '$(cat "$TMP/id2")'"

expect_rc 0 pl submit "$TMP/a.patch" --title "again"
grep -q "^experiment [0-9]* submitted" "$TMP/out" || fail "submit output: $(cat "$TMP/out")"

expect_rc 0 pl show "$id"
grep -q "^experiment $id " "$TMP/out" || fail "show: no header"
grep -q "cli submit test" "$TMP/out" || fail "show: no title"
grep -q "cli test: a comment" "$TMP/out" || fail "show: no patch subject"
grep -q "^state *queued" "$TMP/out" || fail "show: not queued"

expect_rc 0 pl show "$id" --json
[ "$(jq -r .id "$TMP/out")" = "$id" ] || fail "show --json: wrong id"
[ "$(jq '.variants | length' "$TMP/out")" = 2 ] || fail "show --json: expected 2 variants"

# not a patch: the server's reason is printed, exit 2
echo "hello, this is not a patch" >"$TMP/not.patch"
expect_rc 2 pl submit "$TMP/not.patch"
grep -q "HTTP 400" "$TMP/err" || fail "non-patch: $(cat "$TMP/err")"

expect_rc 2 pl show 999999
grep -q "HTTP 404" "$TMP/err" || fail "unknown id: $(cat "$TMP/err")"

expect_rc 2 "$PERFLAB" --server "$URL" --key plk_bad_key show "$id"
grep -q "HTTP 401" "$TMP/err" || fail "bad key: $(cat "$TMP/err")"
expect_rc 2 "$PERFLAB" --server "$URL" show "$id"
grep -q "HTTP 401" "$TMP/err" || fail "no key: $(cat "$TMP/err")"

expect_rc 0 pl hosts
grep -q "no hosts" "$TMP/out" || fail "hosts: $(cat "$TMP/out")"
# a backend is one a registered host runs (perflabd keeps no list)
expect_rc 2 pl submit "$TMP/a.patch" --backend qemu-icount -q
grep -q "HTTP 422" "$TMP/err" || fail "backend without a host: $(cat "$TMP/err")"
register_host "$(cli_key runner cli-runner)" cli-host

# --max-runs/--backend reach the experiment; cancel ends it once
expect_rc 0 pl submit "$TMP/a.patch" --runs 2 --max-runs 7 --backend qemu-icount -q
cid=$(cat "$TMP/out")
expect_rc 0 pl show "$cid" --json
[ "$(jq .max_runs "$TMP/out")" = 7 ] || fail "max_runs: $(jq .max_runs "$TMP/out")"
[ "$(jq -r .backend "$TMP/out")" = qemu-icount ] || fail "backend"
expect_rc 0 pl cancel "$cid"
grep -q "experiment $cid cancelled" "$TMP/out" || fail "cancel: $(cat "$TMP/out")"
expect_rc 0 pl show "$cid"
grep -q "^state *cancelled" "$TMP/out" || fail "not cancelled"
expect_rc 2 pl cancel "$cid"
grep -q "HTTP 409" "$TMP/err" || fail "second cancel: $(cat "$TMP/err")"

expect_rc 0 pl hosts
grep -q "cli-host" "$TMP/out" || fail "hosts: $(cat "$TMP/out")"
expect_rc 0 pl hosts --json
echo "ok"
