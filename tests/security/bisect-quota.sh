#!/usr/bin/env bash
# Description: the per-key quota cannot be raced, and a key past it never
# makes the daemon fetch. 40 concurrent POST /api/v1/bisections from one
# submit key with --max-queued-runs 4 (each bisection's first step queues
# 2 variants x 2 runs) queue at most 4 jobs: at most one 201, the others
# 429 with a JSON error, and no bisection without its step. Then, past its
# quota, the key's requests that would need a git fetch (a commit the
# mirror lacks, on experiments, patches and bisections) answer 429 at once
# and the base's upstream (a tarpit that would hang the fetch) sees no
# connection.
. "$(dirname "$0")/../api/lib.sh"
. "$(dirname "$0")/../api/gitlib.sh"
. "$(dirname "$0")/../faults/lib.sh"
command -v python3 >/dev/null || skip "python3 is not installed"
command -v xargs >/dev/null || skip "xargs is not installed"
QUOTA=4
N=40
start_tarpit git

start_daemon --max-queued-runs $QUOTA
ADM=$(make_key admin root)
SUB=$(make_key submit alice)
make_repo "$TMP/repo" 10
C0=$(commit_of "$TMP/repo" 0)
api POST /api/v1/bases "$ADM" "$(jq -n --arg u "$TMP/repo" '{name:"g", git:$u}')" >/dev/null
expect_status 201 "git base"

jq -n --arg g "$C0" '{base:"g", good:$g, bad:"master", runs:2, label:"race"}' >"$TMP/bis.json"
seq $N | xargs -P $N -I{} curl -s -o "$TMP/out.{}" -w '%{http_code}\n' --max-time 60 \
	-H "Authorization: Bearer $SUB" -H 'Content-Type: application/json' \
	--data-binary @"$TMP/bis.json" "$BASE/api/v1/bisections" >"$TMP/codes"
ok=$(grep -c '^201$' "$TMP/codes")
refused=$(grep -c '^429$' "$TMP/codes")
jobs=$(sql "SELECT count(*) FROM jobs j JOIN experiments e ON e.id = j.experiment_id
	JOIN api_keys k ON k.id = e.submitter_key_id WHERE k.name = 'alice'
	AND j.state IN ('queued', 'claimed', 'running')")
echo "$N concurrent bisections: $ok answered 201, $refused answered 429, $jobs jobs queued (quota $QUOTA)"
sort "$TMP/codes" | uniq -c
check "$jobs" -le $QUOTA "jobs queued within the quota"
check "$((ok * 4))" -le $QUOTA "201s within the quota"
check "$ok" -ge 1 "the first one fits"
check "$((ok + refused))" -eq $N "every other request refused with 429"
for f in "$TMP"/out.*; do
	grep -q '"id"' "$f" && continue
	jq -e '.error | test("quota")' "$f" >/dev/null || fail "429 without the reason: $(cat "$f")"
done
check "$(sql 'SELECT count(*) FROM bisections')" -eq "$ok" "one bisection per 201"
check "$(sql 'SELECT count(*) FROM bisections b WHERE NOT EXISTS (SELECT 1 FROM bisection_steps s WHERE s.bisection_id = b.id)')" -eq 0 "no bisection without its first step"

# Past the quota: no fetch. The upstream now hangs whoever asks it.
sql "UPDATE bases SET url = 'git://127.0.0.1:$(cat "$TMP/tp/git.port")/r.git' WHERE name = 'g'"
try() { # try WHAT METHOD PATH BODY
	local r
	r=$(curl -s -o "$TMP/try.body" -w '%{http_code} %{time_total}' --max-time 15 -X "$2" \
		-H "Authorization: Bearer $SUB" -H 'Content-Type: application/json' \
		--data-binary "$4" "$BASE$3") || r="000 15"
	printf '%-34s HTTP %s\n' "$1" "$r"
	check "${r%% *}" = 429 "$1: refused before any git work"
	jq -e .error "$TMP/try.body" >/dev/null || fail "$1: no JSON error"
}
try "experiment at an unknown commit" POST /api/v1/experiments \
	'{"base":"g@deadbeefdead","variants":[{"name":"a"}]}'
try "bisection to an unknown commit" POST /api/v1/bisections \
	"$(jq -n --arg g "$C0" '{base:"g", good:$g, bad:"deadbeefdead", runs:2}')"
curl -s -o "$TMP/try.body" -w '%{http_code}' --max-time 15 -H "Authorization: Bearer $SUB" \
	--data-binary "$(sample_patch)" "$BASE/api/v1/patches?base=g@deadbeefdead" >"$TMP/code" ||
	echo 000 >"$TMP/code"
printf '%-34s HTTP %s\n' "patch at an unknown commit" "$(cat "$TMP/code")"
check "$(cat "$TMP/code")" = 429 "patch: refused before any git work"
check "$(cat "$TMP/tp/git.conns")" -eq 0 "connections to the upstream by an over-quota key"
echo "ok"
