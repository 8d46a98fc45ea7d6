#!/usr/bin/env bash
# Description: results of jobs that name a commit must say what they
# built (issue 27 finding 5). On a git base, a result without
# build.commit is refused (422, nothing stored, the job stays leased),
# and so is one with build as a non-object; with the job's commit it is
# stored (201). A tarball job's result needs none (201). A toggle
# experiment whose variants differ in commit is refused (422), also when
# one variant names the base's commit and another a different one; a
# toggle whose variants all name the base's commit is accepted. Fails on
# the old code, which took a result without build.commit (201) and a
# toggle over two commits (201).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/gitlib.sh"
start_daemon --git-fetch-interval 0
ADM=$(make_key admin root)
R1=$(make_key runner r1)
register_host "$R1" host1 lab
REPO=$TMP/repo
make_repo "$REPO" 3
HEAD=$(commit_of "$REPO" 3)
C1=$(commit_of "$REPO" 1)
api POST /api/v1/bases "$ADM" "$(jq -n --arg u "$REPO" '{name:"g", git:$u}')" >/dev/null
expect_status 201 "git base"

exp() { jq -n --arg b "$1" '{base:$b, label:"lab", runs:1, max_runs:1,
	bench:{runtime:3, warmup:1}, variants:[{name:"a"}]}'; }
api POST /api/v1/experiments "$ADM" "$(exp g)" >/dev/null
expect_status 201 "experiment on the head"
job=$(claim "$R1" host1)
J=$(jq -r .job_id <<<"$job")
L=$(jq -r .lease <<<"$job")
check "$(jq -r .base.commit <<<"$job")" = "$HEAD" "the job names its commit"
api POST /api/v1/jobs/$J/result "$R1" "$(sample_result "$L" | jq 'del(.build.commit)')" >/dev/null
expect_status 422 "a result without build.commit"
grep -q "build.commit is required" "$TMP/body" || fail "reason: $(cat "$TMP/body")"
api POST /api/v1/jobs/$J/result "$R1" "$(sample_result "$L" | jq 'del(.build)')" >/dev/null
expect_status 422 "a result without build"
check "$(sql "SELECT count(*) FROM runs WHERE job_id = $J")" -eq 0 "nothing stored"
check "$(sql "SELECT state FROM jobs WHERE id = $J")" = claimed "the job keeps its lease"
api POST /api/v1/jobs/$J/result "$R1" "$(sample_result "$L" | jq --arg c "$HEAD" '.build.commit = $c')" >/dev/null
expect_status 201 "with the job's commit"

# A tarball job: no commit to name.
api POST /api/v1/experiments "$ADM" "$(exp linux-6.1)" >/dev/null
expect_status 201 "tarball experiment"
job=$(claim "$R1" host1)
J=$(jq -r .job_id <<<"$job")
L=$(jq -r .lease <<<"$job")
api POST /api/v1/jobs/$J/result "$R1" "$(sample_result "$L" | jq 'del(.build.commit)')" >/dev/null
expect_status 201 "a tarball job's result without build.commit"

# Toggle experiments boot one image: one commit.
tog() { # tog BASE COMMIT_A COMMIT_B ("" for none)
	jq -n --arg b "$1" --arg ca "$2" --arg cb "$3" '{base:$b, label:"lab", runs:2,
	  max_runs:2, toggle:true, bench:{runtime:3, warmup:1},
	  variants:[({name:"A", settings:{"/proc/sys/vm/stat_interval":"1"}} +
		     (if $ca == "" then {} else {commit:$ca} end)),
		    ({name:"B", settings:{"/proc/sys/vm/stat_interval":"2"}} +
		     (if $cb == "" then {} else {commit:$cb} end))]}'
}
api POST /api/v1/experiments "$ADM" "$(tog g "$C1" "$HEAD")" >/dev/null
expect_status 422 "toggle variants of two commits"
grep -q "one image of one commit" "$TMP/body" || fail "reason: $(cat "$TMP/body")"
api POST /api/v1/experiments "$ADM" "$(tog g "" "$C1")" >/dev/null
expect_status 422 "toggle: base head and another commit"
api POST /api/v1/experiments "$ADM" "$(tog "g@${C1:0:10}" "" "${C1:0:8}")" >/dev/null
expect_status 201 "toggle: both on the pinned commit"
echo PASS
