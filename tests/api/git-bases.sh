#!/usr/bin/env bash
# Description: git bases through the API. POST /api/v1/bases with "git"
# mirrors a local repository and answers its head; bad URLs (relative,
# leading '-', ext::, ssh, control characters), bad refs and a path that
# is no repository are 4xx JSON. An experiment on "NAME" records the head
# at submission (experiment and variants), "NAME@<prefix>" pins a commit,
# a variant "commit" builds another commit; unknown commits and "@" on a
# tarball base are 422. The claimed job's base carries kind, url and
# commit (tarball jobs keep their shape). A result whose build.commit is
# not the job's commit is refused (422); the right one is stored as
# runs.commit_built. A baseline of a git base is refused (422).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/gitlib.sh"
# No rate limit (--git-fetch-interval 0): every request that needs the
# head fetches, and this test pushes and submits within a second.
start_daemon --git-fetch-interval 0
ADM=$(make_key admin root)
SUB=$(make_key submit alice)
R1=$(make_key runner r1)
register_host "$R1" host1 lab
REPO=$TMP/repo
make_repo "$REPO" 3
HEAD=$(commit_of "$REPO" 3)
C1=$(commit_of "$REPO" 1)

for url in relative/path -leading '/x/../ ext::sh' 'ext::sh -c id' ssh://h/r \
	"$(printf '/tmp/a\tb')" ; do
	api POST /api/v1/bases "$ADM" "$(jq -n --arg u "$url" '{name:"g", git:$u}')" >/dev/null
	expect_status 400 "git url '$url'"
	jq -e .error "$TMP/body" >/dev/null || fail "no JSON error for '$url'"
done
api POST /api/v1/bases "$ADM" "$(jq -n --arg u "$REPO" '{name:"g", git:$u, ref:"--upload-pack=x"}')" >/dev/null
expect_status 400 "ref with a leading dash"
api POST /api/v1/bases "$ADM" "$(jq -n --arg u "$TMP/nothere" '{name:"g", git:$u}')" >/dev/null
expect_status 422 "not a repository"
api POST /api/v1/bases "$ADM" "$(jq -n --arg u "$REPO" '{name:"g", git:$u, ref:"nosuchbranch"}')" >/dev/null
expect_status 422 "unknown ref"
api POST /api/v1/bases "$SUB" "$(jq -n --arg u "$REPO" '{name:"g", git:$u}')" >/dev/null
expect_status 403 "a submit key may not add bases"

body=$(api POST /api/v1/bases "$ADM" "$(jq -n --arg u "$REPO" '{name:"g", git:$u}')")
expect_status 201 "git base"
check "$(jq -r .head <<<"$body")" = "$HEAD" "head of master"
check "$(jq -r .kind <<<"$body")" = git "kind"
check "$(jq -r .ref <<<"$body")" = master "default ref"
api POST /api/v1/bases "$ADM" "$(jq -n --arg u "$REPO" '{name:"g", git:$u}')" >/dev/null
expect_status 409 "same name twice"
check "$(api GET /api/v1/bases "$SUB" | jq -r '.bases[] | select(.name=="g") | .url')" = "$REPO" "listed with url"

# A new commit after the base was added: NAME fetches the head.
add_commits "$REPO" 4 4
HEAD=$(commit_of "$REPO" 4)
ONE='[{"name":"a"}]'
exp() { jq -n --arg b "$1" --argjson v "${2:-$ONE}" \
	'{base:$b, label:"lab", runs:1, max_runs:1, bench:{runtime:3, warmup:1}, variants:$v}'; }
body=$(api POST /api/v1/experiments "$SUB" "$(exp g)")
expect_status 201 "experiment on the head"
E=$(jq -r .id <<<"$body")
body=$(api GET /api/v1/experiments/$E "$SUB")
check "$(jq -r .base.commit <<<"$body")" = "$HEAD" "head at submission recorded"
check "$(jq -r .variants[0].commit <<<"$body")" = "$HEAD" "variant commit = head"

body=$(api POST /api/v1/experiments "$SUB" "$(exp "g@${C1:0:8}" \
	"[{\"name\":\"good\"},{\"name\":\"step\",\"commit\":\"${HEAD:0:10}\"}]")")
expect_status 201 "pinned experiment with a variant commit"
E2=$(jq -r .id <<<"$body")
body=$(api GET /api/v1/experiments/$E2 "$SUB")
check "$(jq -r .base.commit <<<"$body")" = "$C1" "pinned commit"
check "$(jq -r '.variants[] | select(.name=="step") | .commit' <<<"$body")" = "$HEAD" "variant commit"

api POST /api/v1/experiments "$SUB" "$(exp g@0000000000)" >/dev/null
expect_status 422 "unknown commit"
api POST /api/v1/experiments "$SUB" "$(exp g@-x)" >/dev/null
expect_status 422 "bad commit name"
api POST /api/v1/experiments "$SUB" "$(exp linux-6.1@$HEAD)" >/dev/null
expect_status 422 "@ on a tarball base"
api POST /api/v1/experiments "$SUB" "$(exp g '[{"name":"a","commit":"deadbeef1"}]')" >/dev/null
expect_status 422 "unknown variant commit"
api POST /api/v1/experiments "$SUB" "$(exp linux-6.1 "[{\"name\":\"a\",\"commit\":\"$HEAD\"}]")" >/dev/null
expect_status 422 "variant commit on a tarball base"
api POST "/api/v1/patches?base=g@${C1:0:7}&label=lab" "$SUB" "$(sample_patch)" >/dev/null
expect_status 201 "patch on a pinned git commit"
P=$(jq -r .id "$TMP/body")
check "$(sql "SELECT count(*) FROM variants WHERE experiment_id = $P AND base_commit = '$C1'")" -eq 2 "patch variants pinned"

# The claim: experiment E (one variant at HEAD).
job=$(claim "$R1" host1)
check "$(jq -r .experiment_id <<<"$job")" = "$E" "first experiment claimed"
check "$(jq -r .base.kind <<<"$job")" = git "job base kind"
check "$(jq -r .base.url <<<"$job")" = "$REPO" "job base url"
check "$(jq -r .base.commit <<<"$job")" = "$HEAD" "job base commit"
check "$(jq -r '.base | has("tree")' <<<"$job")" = false "no tree for git"
J=$(jq -r .job_id <<<"$job")
L=$(jq -r .lease <<<"$job")
res=$(sample_result "$L" | jq --arg c "$C1" '.build.commit = $c')
api POST /api/v1/jobs/$J/result "$R1" "$res" >/dev/null
expect_status 422 "a result of another commit"
res=$(sample_result "$L" | jq '.build.commit = "xyz"')
api POST /api/v1/jobs/$J/result "$R1" "$res" >/dev/null
expect_status 400 "build.commit not hex"
res=$(sample_result "$L" | jq --arg c "$HEAD" '.build.commit = $c')
api POST /api/v1/jobs/$J/result "$R1" "$res" >/dev/null
expect_status 201 "the job's commit"
check "$(sql "SELECT commit_built FROM runs WHERE job_id = $J")" = "$HEAD" "commit_built stored"

api POST /api/v1/baselines "$ADM" '{"name":"b","base":"g","schedule_seconds":3600}' >/dev/null
expect_status 422 "a baseline of a git base (tracks measure those)"

# A tarball job keeps its shape.
api POST /api/v1/experiments "$SUB" "$(exp linux-6.1)" >/dev/null
expect_status 201 "tarball experiment"
api POST /api/v1/experiments/$E2/cancel "$SUB" >/dev/null
api POST /api/v1/experiments/$P/cancel "$SUB" >/dev/null
job=$(claim "$R1" host1)
check "$(jq -r '.base | keys | join(",")' <<<"$job")" = "kind,name,ref,tree" "tarball base shape"
echo "git bases ok"
