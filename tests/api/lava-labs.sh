#!/usr/bin/env bash
# Description: the LAVA labs admin API without a LAVA: binding a label
# checks every field (400), the token file and the template (422: not a
# job definition, a variable neither perflab's nor in vars) and the name
# (409); an unreadable template file (422), an unknown LAVA job (404);
# the lab's host appears with its label and backend; submit keys
# may not bind (403); the listing shows where the token is read from,
# never the token; LAVA's two endpoints refuse a missing or wrong job
# token (403) and an unknown job (404); disabling a lab keeps its host.
. "$(dirname "$0")/lib.sh"
start_daemon
ADMIN=$(make_key admin a)
SUB=$(make_key submit s)
SECRET=lava-secret-$RANDOM$RANDOM
printf '%s\n' "$SECRET" >"$TMP/token"
chmod 600 "$TMP/token"
T=$TOP/dist/lava/qemu-icount.json

lab() { # extra jq filter on the valid body
	api POST /api/v1/lava/labs "${KEY:-$ADMIN}" "$(jq -n --arg t "$TMP/token" --arg f "$T" \
		"{name: \"lava-1\", label: \"lava-icount\", url: \"http://127.0.0.1:9/\",
		  token_file: \$t, device_type: \"qemu\", backend: \"qemu-icount\",
		  tags: [\"perflab-1\"], template_file: \$f,
		  vars: {insn_plugin: \"/usr/lib/perflab/perflab-insn.so\"}} | $1")"
}
KEY=$SUB lab . >/dev/null
expect_status 403 "a submit key binds a lab"
lab 'del(.url)' >/dev/null; expect_status 400 "no url"
lab '.url = "ftp://x"' >/dev/null; expect_status 400 "an ftp url"
lab '.name = "a b"' >/dev/null; expect_status 400 "a name with a space"
lab '.tags = ["a\"b"]' >/dev/null; expect_status 400 "a tag with a quote"
lab '.token_file = "relative"' >/dev/null; expect_status 400 "a relative token file"
lab '.token_file = "/nonexistent/token"' >/dev/null; expect_status 422 "an unreadable token file"
lab '.extra = 1' >/dev/null; expect_status 400 "an unknown field"
lab '.poll_seconds = 0' >/dev/null; expect_status 400 "poll_seconds 0"
lab '.vars = {}' >/dev/null; expect_status 422 "the template's \${insn_plugin} without vars"
lab '.vars.cmdline = "x"' >/dev/null; expect_status 400 "vars shadowing perflab's variable"
lab 'del(.template_file) | .template = "[1]"' >/dev/null; expect_status 422 "a template that is no job"
lab 'del(.template_file) | .template = "{\"actions\": [], \"a\": \"${nope}\"}"' >/dev/null
expect_status 422 "a template naming an unknown variable"
lab '.template = "{}"' >/dev/null; expect_status 400 "template and template_file"
lab '.template_file = "/nonexistent/t.json"' >/dev/null; expect_status 422 "an unreadable template file"
body=$(lab .)
expect_status 201 "bind the label"
lab . >/dev/null; expect_status 409 "the same name again"
hosts=$(api GET /api/v1/hosts "$ADMIN")
check "$(jq -r '.hosts[] | select(.name == "lava-1") | .backend' <<<"$hosts")" = qemu-icount "the lab's host"
check "$(jq -r '.hosts[] | select(.name == "lava-1") | .labels | join(",")' <<<"$hosts")" = lava-icount "its label"
labs=$(api GET /api/v1/lava/labs "$ADMIN")
expect_status 200 "list labs"
check "$(jq -r '.labs[0].token_file' <<<"$labs")" = "$TMP/token" "the token's file is listed"
if grep -qF "$SECRET" <<<"$labs$hosts" "$TMP/daemon.log"; then fail "the LAVA token leaked"; fi
api GET /api/v1/lava/labs "$SUB" >/dev/null; expect_status 403 "submit keys do not list labs"
api DELETE /api/v1/lava/labs/lava-1 "$ADMIN" >/dev/null; expect_status 200 "disable the lab"
api DELETE /api/v1/lava/labs/lava-9 "$ADMIN" >/dev/null; expect_status 404 "disable an unknown lab"
api GET /api/v1/lava/jobs/99 "$ADMIN" >/dev/null; expect_status 404 "an unknown LAVA job"
api GET /api/v1/lava/jobs/x "$ADMIN" >/dev/null; expect_status 404 "a LAVA job id that is no number"
check "$(api GET /api/v1/lava/labs "$ADMIN" | jq '.labs[0].enabled')" = false "disabled"
# LAVA's endpoints (the lab disabled: its worker leaves the rows alone).
curl -s -o /dev/null -w '%{http_code}' -X POST "$BASE/api/v1/lava/callback/1" \
	-H 'X-Perflab-Token: plj_00000000000000000000000000000000' >"$TMP/st"
check "$(cat "$TMP/st")" = 404 "a callback for no job"
curl -s -o /dev/null -w '%{http_code}' "$BASE/api/v1/lava/files/1/bzImage" >"$TMP/st"
check "$(cat "$TMP/st")" = 404 "a file of no job"
sql "INSERT INTO jobs (experiment_id, variant_id, run_index, seq, created_at) VALUES (0, 0, 0, 0, 0)" 2>/dev/null
sql "PRAGMA foreign_keys=OFF; INSERT INTO lava_jobs (lab_id, job_id, attempt, lease_token, token_hash, state, created_at)
     VALUES (1, 1, 1, 'x', '$(printf %s plj_0123456789abcdef0123456789abcdef | sha256sum | cut -d' ' -f1)', 'submitted', 0)"
for tok in "" plj_0123456789abcdef0123456789abcdee short; do
	curl -s -o /dev/null -w '%{http_code}' -X POST "$BASE/api/v1/lava/callback/1" \
		${tok:+-H "X-Perflab-Token: $tok"} >"$TMP/st"
	check "$(cat "$TMP/st")" = 403 "a callback with token '$tok'"
	curl -s -o /dev/null -w '%{http_code}' "$BASE/api/v1/lava/files/1/initramfs.cpio" \
		${tok:+-H "X-Perflab-Token: $tok"} >"$TMP/st"
	check "$(cat "$TMP/st")" = 403 "a download with token '$tok'"
done
curl -s -o /dev/null -w '%{http_code}' -I "$BASE/api/v1/lava/files/1/initramfs.cpio" >"$TMP/st"
check "$(cat "$TMP/st")" = 403 "HEAD (LAVA's downloader asks it first) without the token"
c=$(curl -s -X POST "$BASE/api/v1/lava/callback/1" -H 'X-Perflab-Token: plj_0123456789abcdef0123456789abcdef')
check "$(jq -r .state <<<"$c")" = fetching "the right token's callback"
check "$(sql 'SELECT callbacks || state FROM lava_jobs')" = 1fetching "counted, fetching"
sql "UPDATE lava_jobs SET state = 'done'"
c=$(curl -s -X POST "$BASE/api/v1/lava/callback/1" -H 'X-Perflab-Token: plj_0123456789abcdef0123456789abcdef')
check "$(jq -r .state <<<"$c")" = finished "a callback for a finished job: idempotent"
check "$(sql 'SELECT callbacks FROM lava_jobs')" = 1 "not counted again"
curl -s -o /dev/null -w '%{http_code}' "$BASE/api/v1/lava/files/1/initramfs.cpio" \
	-H 'X-Perflab-Token: plj_0123456789abcdef0123456789abcdef' >"$TMP/st"
check "$(cat "$TMP/st")" = 404 "the files of a finished job are gone"
# The CLI: perflab lava add/list/remove.
P="$TOP/build/perflab --server $BASE --key $ADMIN"
jq -n --arg t "$TMP/token" --arg f "$T" '{name: "lava-2", label: "lava-b",
	url: "https://lava.example.org", token_file: $t, device_type: "qemu",
	backend: "qemu-icount", tags: ["perflab-2"], template_file: $f,
	vars: {insn_plugin: "/p.so"}}' >"$TMP/lab2.json"
out=$($P lava add "$TMP/lab2.json") || fail "perflab lava add: $out"
grep -q "lab lava-2 (id 2) drives label lava-b" <<<"$out" || fail "lava add said: $out"
out=$($P lava list)
grep -qE '^lava-1 +lava-icount +no ' <<<"$out" && grep -qE '^lava-2 +lava-b +yes ' <<<"$out" ||
	fail "lava list: $out"
if grep -qF "$SECRET" <<<"$out$($P lava list --json)"; then fail "the token in the CLI's output"; fi
$P lava remove lava-2 >/dev/null || fail "perflab lava remove"
$P lava remove nope >/dev/null 2>&1 && fail "removing an unknown lab succeeded"
echo ok
