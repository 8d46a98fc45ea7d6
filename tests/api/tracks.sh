#!/usr/bin/env bash
# Description: a track over a synthetic git repository with a simulated
# runner that answers by commit (IOPS 10 % lower from c17 on; c18 does not
# build). The track is created on c0 (its first point), a push of c1..c32
# is polled and every 4th commit is queued (c4 .. c32); each finished
# experiment is a point of series "track:<label>" labelled with its commit
# (subject and author in the track). Change-point detection (nine points:
# the track asks for segments of 3 and p 0.05; the defaults, 5 and 0.001,
# need more points than that) finds the step
# between c16 and c20, confirms it on the next point, and starts a
# bisection of c16..c20 on its own, which skips c18 and ends at exactly
# c17. A poll without new commits queues nothing; the push hook polls the
# base's tracks. Hostile input: tarball or unknown base, bad refs, bad
# "every", an unknown backend, a duplicate label, a submit key, unknown track or base -> 4xx.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/gitlib.sh"
command -v python3 >/dev/null || skip "python3 is not installed"
start_daemon
ADM=$(make_key admin root)
SUB=$(make_key submit alice)
R1=$(make_key runner r1)
REPO=$TMP/repo
make_repo "$REPO" 0
api POST /api/v1/bases "$ADM" "$(jq -n --arg u "$REPO" '{name:"g", git:$u}')" >/dev/null
expect_status 201 "git base"

trk() { jq -n --arg base "${1:-g}" --arg l "${2:-nightly}" --argjson every "${3:-{\"commits\":4\}}" \
	'{base:$base, label:$l, runs:1, every:$every, bench:{runtime:6, warmup:1},
	  detect:{min_size:3, max_p:0.05}}'; }

api POST /api/v1/tracks "$ADM" "$(trk linux-6.1)" >/dev/null
expect_status 422 "track of a tarball base"
api POST /api/v1/tracks "$ADM" "$(trk nosuch)" >/dev/null
expect_status 422 "unknown base"
api POST /api/v1/tracks "$ADM" "$(trk | jq '.ref = "--exec=x"')" >/dev/null
expect_status 400 "ref with a dash"
api POST /api/v1/tracks "$ADM" "$(trk | jq '.ref = "nosuch"')" >/dev/null
expect_status 422 "unknown ref"
api POST /api/v1/tracks "$ADM" "$(trk g nightly '{"commits":0}')" >/dev/null
expect_status 400 "every 0 commits"
api POST /api/v1/tracks "$ADM" "$(trk g nightly '{"commits":1,"seconds":60}')" >/dev/null
expect_status 400 "every both"
api POST /api/v1/tracks "$ADM" "$(trk | jq '.backend = "nosuch"')" >/dev/null
expect_status 422 "unknown backend"
api POST /api/v1/tracks "$ADM" "$(trk g 'bad label')" >/dev/null
expect_status 400 "bad label"
api POST /api/v1/tracks "$SUB" "$(trk)" >/dev/null
expect_status 403 "a submit key may not add tracks"
jq -e .error "$TMP/body" >/dev/null || fail "no JSON error"

body=$(api POST /api/v1/tracks "$ADM" "$(trk)")
expect_status 201 "track"
T=$(jq -r .id <<<"$body")
check "$(jq -r '.points | length' <<<"$body")" -eq 1 "the head is the first point"
check "$(jq -r '.points[0].commit' <<<"$body")" = "$(commit_of "$REPO" 0)" "c0 queued"
check "$(jq -r '.every.commits' <<<"$body")" -eq 4 "every 4 commits"
api POST /api/v1/tracks "$ADM" "$(trk)" >/dev/null
expect_status 409 "same label twice"
api POST /api/v1/tracks/99/poll "$ADM" >/dev/null
expect_status 404 "poll of an unknown track"
api GET /api/v1/tracks/99 "$SUB" >/dev/null
expect_status 404 "unknown track"
api POST /api/v1/hooks/git "$ADM" '{"base":"nosuch","ref":"master"}' >/dev/null
expect_status 404 "hook of an unknown base"

add_commits "$REPO" 1 32
for i in $(seq 0 32); do C[$i]=$(commit_of "$REPO" $i); done
jq -n --args '{default: 100000, values: ([$ARGS.positional[1:][] | {(.): 90000}] | add),
	broken: [$ARGS.positional[0]]}' "${C[18]}" "${C[@]:17}" >"$TMP/spec.json"
fake_runner

body=$(api POST /api/v1/tracks/$T/poll "$ADM")
expect_status 200 "poll"
check "$(jq -r .queued <<<"$body")" -eq 8 "c4, c8, .. c32 queued"
body=$(api POST /api/v1/hooks/git "$ADM" "{\"base\":\"g\",\"ref\":\"refs/heads/master\",\"after\":\"${C[32]}\"}")
expect_status 200 "push hook"
check "$(jq -r .queued <<<"$body")" -eq 0 "nothing new"

# Until the bisection that the change point starts has ended.
for _ in $(seq 400); do
	body=$(api GET /api/v1/tracks/$T "$SUB")
	[ "$(jq -r '.bisections[0].state // "none"' <<<"$body")" = done ] && break
	[ "$(jq -r '.bisections[0].state // "none"' <<<"$body")" = failed ] && break
	kill -0 $RUNNER 2>/dev/null || fail "the simulated runner died: $(tail "$TMP/runner.log")"
	sleep 0.5
done
echo "$body" | jq -c '.points[] | [.commit[0:8], .value, .state]'
echo "$body" | jq -c '.change_points'
check "$(jq -r '[.points[] | select(.value != null)] | length' <<<"$body")" -eq 9 "nine points"
check "$(jq -r '.points[4].subject' <<<"$body")" = "c16: change 16" "point subject"
check "$(jq -r '.points[4].author' <<<"$body")" = Dev "point author"
check "$(jq -r .series <<<"$body")" = track:nightly "series name"
check "$(jq -r '[.change_points[] | select(.confirmed)] | length' <<<"$body")" -eq 1 "one confirmed change point"
check "$(jq -r '.change_points[0].good' <<<"$body")" = "${C[16]}" "change point after c16"
check "$(jq -r '.change_points[0].bad' <<<"$body")" = "${C[20]}" "change point at c20"
check "$(jq -r '.change_points[0].index' <<<"$body")" -eq 5 "at the sixth point"
# The MDE gate let it through: 10 % against the successive points' noise.
jq -r '.change_points[0].bisect_note' <<<"$body" |
	grep -q "^step 10 % is above what 5-run steps resolve on this host (MDE .* of the track's successive points (one run each))$" ||
	fail "gate note: $(jq -r '.change_points[0].bisect_note' <<<"$body")"
B=$(jq -r '.bisections[0].id // empty' <<<"$body")
[ -n "$B" ] || fail "no bisection started"
bis=$(api GET /api/v1/bisections/$B "$SUB")
echo "$bis" | jq -c '.steps[] | [.commit[0:8], .state, .delta_pct, .verdict, .bad]'
check "$(jq -r .state <<<"$bis")" = done "bisection done: $(jq -r .failure_reason <<<"$bis")"
check "$(jq -r .track_id <<<"$bis")" = "$T" "bisection of the track"
check "$(jq -r .good <<<"$bis")" = "${C[16]}" "good = c16"
check "$(jq -r .bad <<<"$bis")" = "${C[20]}" "bad = c20"
check "$(jq -r .culprit.commit <<<"$bis")" = "${C[17]}" "culprit c17"
check "$(jq -r "[.steps[] | select(.commit == \"${C[18]}\")][0].state" <<<"$bis")" = skipped "c18 skipped"
# The metric and the list's summary against what the runner was told to
# upload: runs without ns/IO (IOPS only), one run a commit, so nine IOPS
# points (c0, c4 .. c32) and the newest at c32 within 1 % of 90000.
check "$(jq -r .metric <<<"$body")" = iops "track metric"
list=$(api GET /api/v1/tracks "$SUB")
expect_status 200 "track list"
echo "$list" | jq -c '.tracks[0] | {metric, npoints, nchange_points, last}'
check "$(jq -r '.tracks[0].label' <<<"$list")" = nightly "listed"
check "$(jq -r '.tracks[0].metric' <<<"$list")" = iops "listed metric"
check "$(jq -r '.tracks[0].npoints' <<<"$list")" -eq 9 "listed point count"
check "$(jq -r '.tracks[0].nchange_points' <<<"$list")" -ge 1 "listed change points"
check "$(jq -r '.tracks[0].last.commit' <<<"$list")" = "${C[32]}" "last point at c32"
check "$(jq -r '.tracks[0].last.value | . > 89100 and . < 90900' <<<"$list")" = true \
	"last value $(jq -r '.tracks[0].last.value' <<<"$list") is c32's 90000 IOPS"
check "$(jq -r '.tracks[0] | has("points")' <<<"$list")" = false "no points in the list"
check "$(sql "SELECT count(*) FROM alerts WHERE kind = 'change_point'")" -ge 1 "change point alert"
echo "tracks ok"
