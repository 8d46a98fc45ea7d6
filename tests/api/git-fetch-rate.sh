#!/usr/bin/env bash
# Description: git fetches are rate-limited and shared per base
# (--git-fetch-interval, default 5 s). 20 concurrent submissions naming a
# stale base's head cause one fetch, and all get the new head; 20 more
# within the interval cause none; 20 concurrent submissions of commits
# the mirror lacks (garbage hex) cause at most two fetches (the one
# running when they came and the next) and are 422. The fetches are
# counted by the upstream, a `git daemon --verbose` serving the
# repository, and must agree with /metrics perflab_git_fetches_total.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/gitlib.sh"
command -v xargs >/dev/null || skip "xargs is not installed"
command -v python3 >/dev/null || skip "python3 is not installed"
[ -x "$(git --exec-path)/git-daemon" ] || skip "git daemon is not installed (git-daemon)"
N=20
REPO=$TMP/repo
make_repo "$REPO" 2
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
env -i PATH="$PATH" HOME="$TMP" GIT_CONFIG_NOSYSTEM=1 "$(git --exec-path)/git-daemon" --export-all \
	--base-path="$TMP" --listen=127.0.0.1 --port="$PORT" --verbose --reuseaddr \
	>/dev/null 2>"$TMP/gitd.log" &
GITD=$!
trap 'kill $GITD 2>/dev/null; cleanup' EXIT
for _ in $(seq 100); do grep -q "Ready to rumble" "$TMP/gitd.log" && break; sleep 0.05; done
grep -q "Ready to rumble" "$TMP/gitd.log" || fail "git daemon did not start: $(cat "$TMP/gitd.log")"
start_daemon
ADM=$(make_key admin root)
api POST /api/v1/bases "$ADM" "{\"name\":\"g\",\"git\":\"git://127.0.0.1:$PORT/repo\"}" >/dev/null
expect_status 201 "git base"
# fetches: the upstream's count; /metrics must agree (the clone is not
# a fetch of the base's mirror there).
fetches() {
	local up m
	up=$(grep -c "Request upload-pack for '/repo'" "$TMP/gitd.log")
	m=$(curl -s "$BASE/metrics" | sed -n 's/^perflab_git_fetches_total{result="\(ok\|failed\)"} //p' |
		awk '{ n += $1 } END { print n + 0 }')
	[ "$m" -eq $((up - 1)) ] || echo "metrics count $m fetches, the upstream $((up - 1))" >&2
	echo "$up"
}
# flood BODY: N concurrent POST /experiments, status codes in $TMP/codes
flood() {
	seq $N | xargs -P $N -I{} curl -s -o "$TMP/out.{}" -w '%{http_code}\n' --max-time 60 \
		-H "Authorization: Bearer $ADM" -H 'Content-Type: application/json' \
		--data-binary "$1" "$BASE/api/v1/experiments" >"$TMP/codes"
}
ex() { jq -n --arg b "$1" '{base:$b, runs:1, max_runs:1, variants:[{name:"a"}]}'; }

add_commits "$REPO" 3 3
HEAD=$(commit_of "$REPO" 3)
sleep 5.5	# the clone is older than the interval now
f0=$(fetches)
flood "$(ex g)"
f1=$(fetches)
echo "$N submissions of a stale head: $(sort "$TMP/codes" | uniq -c | tr '\n' ' ') $((f1 - f0)) fetch(es)"
check "$(grep -c '^201$' "$TMP/codes")" -eq $N "all queued"
check "$((f1 - f0))" -eq 1 "one fetch for all of them"
check "$(sql "SELECT count(DISTINCT base_commit) || ' ' || min(base_commit) FROM experiments")" = "1 $HEAD" "all at the new head"

flood "$(ex g)"
f2=$(fetches)
echo "$N more within the interval: $((f2 - f1)) fetch(es)"
check "$(grep -c '^201$' "$TMP/codes")" -eq $N "all queued again"
check "$((f2 - f1))" -eq 0 "no fetch within the interval"

flood "$(ex g@deadbeefdeadbeef)"
f3=$(fetches)
echo "$N submissions of an unknown commit: $(sort "$TMP/codes" | uniq -c | tr '\n' ' ') $((f3 - f2)) fetch(es)"
check "$(grep -c '^422$' "$TMP/codes")" -eq $N "all refused: no such commit"
check "$((f3 - f2))" -le 2 "at most two fetches for all of them"
check "$((f3 - f2))" -ge 1 "a commit the mirror lacks is fetched for"
echo "ok"
