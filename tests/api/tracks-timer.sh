#!/usr/bin/env bash
# Description: tracks are polled on the daemon's timer (--track-poll 1):
# commits pushed after the track was created are queued without a poll
# request (every 2nd commit: c2, c4); a repository that went away leaves
# the track's poll_error set and queues nothing, and the track recovers
# when it is back.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/gitlib.sh"
start_daemon --track-poll 1
ADM=$(make_key admin root)
REPO=$TMP/repo
make_repo "$REPO" 0
api POST /api/v1/bases "$ADM" "$(jq -n --arg u "$REPO" '{name:"g", git:$u}')" >/dev/null
expect_status 201 "git base"
api POST /api/v1/tracks "$ADM" '{"base":"g","label":"t","runs":1,"every":{"commits":2}}' >/dev/null
expect_status 201 "track"
T=$(jq -r .id "$TMP/body")
add_commits "$REPO" 1 4

points() { api GET /api/v1/tracks/$T "$ADM" | jq -r "$1"; }
for _ in $(seq 60); do
	[ "$(points '.points | length')" -ge 3 ] && break
	sleep 0.5
done
check "$(points '[.points[].subject] | join(",")')" = "init,c2: change 2,c4: change 4" "c2 and c4 queued by the timer"

mv "$REPO" "$REPO.away"
for _ in $(seq 60); do
	[ "$(points '.poll_error // ""')" != "" ] && break
	sleep 0.5
done
[ -n "$(points '.poll_error // ""')" ] || fail "no poll_error for a missing repository"
mv "$REPO.away" "$REPO"
add_commits "$REPO" 5 6
for _ in $(seq 60); do
	[ "$(points '.points | length')" -ge 4 ] && break
	sleep 0.5
done
check "$(points '.points | length')" -eq 4 "c6 queued after the repository came back"
check "$(points '.poll_error')" = null "poll_error cleared"
echo "track timer ok"
