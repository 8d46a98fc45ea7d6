#!/usr/bin/env bash
# Description: a list watch over a real public-inbox archive made here
# from tests/fixtures/mail/ (public-inbox-init -V2, public-inbox-mda),
# read by perflabd's watch worker with lei. The first poll finds the
# cover and two of three patches of v1 (waiting for patch 3), a review
# reply, the lab's own reply (never a patch), and refuses with a reason
# in the watch's log: a malformed header, a base64 body, a symlink mode,
# a patch outside the tree, a patch that does not apply onto the base,
# and a message over 1 MiB; a series missing its second half times out.
# Messages delivered while the daemon runs (v1's patch 3, a v2 of the
# series with a base-commit in the base's history) are read on POST
# .../poll: v1 becomes an experiment on the ref's head, v2 one on its
# base-commit, linked to v1, both with the watch's submit key and one
# variant per prefix of the series (base, p1, p1-2, ...); a poll
# with nothing new stores nothing twice. Registry input is checked:
# missing/relative/non-inbox paths, bad queries, an admin key as the
# submit key, a tarball base, a duplicate name, a submit key -> 4xx.
# perflab watches list/show print the same (v2 beside v1, refusals).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/gitlib.sh"
. "$(dirname "$0")/inboxlib.sh"
make_inbox
deliver "$MAIL"/0[1-3]*.eml "$MAIL"/05-review.eml "$MAIL"/09-nonpatch.eml \
	"$MAIL"/1[0-6]*.eml
# Over the 1 MiB limit: a [PATCH] with a 1.2 MiB body.
{ sed -n '1,/^$/p' "$MAIL/16-noapply.eml" | sed 's/noapply-1/huge-1/; s/readme: reword/block: huge/'
  head -c 1258291 /dev/zero | tr '\0' 'x' | fold -w 72; } >"$TMP/huge.eml"
deliver "$TMP/huge.eml"

start_daemon
trap 'stop_daemon; cleanup' EXIT
ADM=$(make_key admin root)
SUB=$(make_key submit alice)
REPO=$TMP/repo
make_repo "$REPO" 2
api POST /api/v1/bases "$ADM" "$(jq -n --arg u "$REPO" '{name:"g", git:$u}')" >/dev/null
expect_status 201 "git base"

Q='dfn:block/ OR dfn:README OR dfn:drivers/nvme/ OR s:escape OR s:broken OR s:huge'
w() { jq -n --arg i "${1-$INBOX}" --arg q "${2-$Q}" --arg k "${3-alice}" --arg b "${4-g}" \
	--arg n "${5-blk}" '{name:$n, inbox:$i, query:$q, base:$b, submit_key:$k,
	runs:1, poll_seconds:3600, complete_timeout:8}'; }

api POST /api/v1/watches "$ADM" "$(w | jq 'del(.name)')" >/dev/null
expect_status 400 "no name"
api POST /api/v1/watches "$ADM" "$(w inbox)" >/dev/null
expect_status 400 "relative inbox"
api POST /api/v1/watches "$ADM" "$(w "$TMP")" >/dev/null
expect_status 422 "not a public-inbox directory"
api POST /api/v1/watches "$ADM" "$(w "$INBOX" '--exec=x')" >/dev/null
expect_status 400 "query like an option"
api POST /api/v1/watches "$ADM" "$(w "$INBOX" 'a) OR (b')" >/dev/null
expect_status 400 "unbalanced query"
api POST /api/v1/watches "$ADM" "$(w "$INBOX" "$Q" root)" >/dev/null
expect_status 422 "an admin key as the submit key"
api POST /api/v1/watches "$ADM" "$(w "$INBOX" "$Q" alice linux-6.1)" >/dev/null
expect_status 422 "a tarball base"
api POST /api/v1/watches "$ADM" "$(w | jq '.extra = 1')" >/dev/null
expect_status 400 "unknown field"
api POST /api/v1/watches "$SUB" "$(w)" >/dev/null
expect_status 403 "a submit key may not add watches"
jq -e .error "$TMP/body" >/dev/null || fail "no JSON error"

body=$(api POST /api/v1/watches "$ADM" "$(w)")
expect_status 201 "watch"
W=$(jq -r .id <<<"$body")
api POST /api/v1/watches "$ADM" "$(w)" >/dev/null
expect_status 409 "same name twice"
api GET /api/v1/watches/999 "$ADM" >/dev/null
expect_status 404 "unknown watch"
api POST /api/v1/watches/999/poll "$ADM" >/dev/null
expect_status 404 "poll of an unknown watch"

# wait_polled AFTER: until the watch was polled after time AFTER.
wait_polled() {
	local i
	for i in $(seq 1 300); do
		body=$(api GET "/api/v1/watches/$W" "$ADM")
		[ "$(jq -r ".polled_at != null and .polled_at >= $1 and (.poll_requested | not)" \
			<<<"$body")" = true ] && return 0
		sleep 0.1
	done
	fail "watch not polled: $body"
}
wait_polled 0
[ -n "$DEBUG" ] && echo "$body" >&2
check "$(jq -r .poll_error <<<"$body")" = null "lei ran: $(jq -r .poll_error <<<"$body")"
kind() { jq -r --arg m "$1" '.log[] | select(.message_id == $m) | .kind' <<<"$body"; }
reason() { jq -r --arg m "$1" '.log[] | select(.message_id == $m) | .reason' <<<"$body"; }
for m in '<v1-0@example.org>:cover' '<v1-1@example.org>:patch' '<v1-2@example.org>:patch' \
	'<review-1@example.org>:reply' '<perflab-1@perflab.example>:own' \
	'<b64-1@example.org>:refused' '<sym-1@example.org>:refused' \
	'<huge-1@example.org>:' '<out-1@example.org>:patch' '<noapply-1@example.org>:patch' \
	'<lonely-1@example.org>:patch' '<question-1@example.org>:'; do
	check "$(kind "${m%:*}")" = "${m##*:}" "kind of ${m%:*}"
done
check "$(reason '<b64-1@example.org>')" = "a base64-encoded body: a patch must be plain text" "base64"
check "$(reason '<sym-1@example.org>')" = "a symlink or submodule mode in a/block/link b/block/link" "symlink"
jq -e '.log[] | select(.kind == "refused" and (.reason | test("malformed header")))' \
	<<<"$body" >/dev/null || fail "the malformed message refused: $body"
jq -e '.log[] | select(.kind == "refused" and (.reason | test("over the 1048576-byte limit")))' \
	<<<"$body" >/dev/null || fail "the huge message refused"
check "$(jq '.log | length' <<<"$body")" -eq 12 "12 messages read (the question matches nothing)"

series() { jq -r --arg k "$1" ".series[] | select(.key == \$k) | $2" <<<"$body"; }
check "$(series '<v1-0@example.org>#v1' .state)" = waiting "v1 waits"
check "$(series '<v1-0@example.org>#v1' .reason)" = "waiting for patch 3" "v1 lacks patch 3"
check "$(series '<v1-0@example.org>#v1' .reply_to)" = '<v1-0@example.org>' "reply to the cover"
check "$(series '<b64-1@example.org>#v1' .state)" = refused "base64 series refused"
check "$(series '<sym-1@example.org>#v1' .state)" = refused "symlink series refused"
check "$(series '<noapply-1@example.org>#v1' .state)" = refused "does not apply"
series '<noapply-1@example.org>#v1' .reason | grep -q "^does not apply on $(commit_of "$REPO" 2 | cut -c1-12)" ||
	fail "apply reason: $(series '<noapply-1@example.org>#v1' .reason)"
series '<out-1@example.org>#v1' .reason | grep -q "^not a usable patch: .*outside the tree.*: ../../etc/cron.d/x$" ||
	fail "outside: $(series '<out-1@example.org>#v1' .reason)"
check "$(jq '[.series[] | select(.experiment_id != null)] | length' <<<"$body")" -eq 0 \
	"nothing queued yet"
check "$(jq '[.series[] | select(.key | test("perflab|review"))] | length' <<<"$body")" -eq 0 \
	"replies make no series"

# While it runs: patch 3 of v1, and v2 on a base-commit the base has.
C1=$(commit_of "$REPO" 1)
sed "s/^base-commit: .*/base-commit: $C1/" "$MAIL/06-v2-cover.eml" >"$TMP/v2-cover.eml"
deliver "$MAIL/04-v1-p3.eml" "$TMP/v2-cover.eml" "$MAIL"/0[78]*.eml
sleep 8	# past the lonely series' timeout
t0=$(date +%s)
api POST "/api/v1/watches/$W/poll" "$ADM" >/dev/null
expect_status 202 "poll"
wait_polled "$t0"
# KEEP_WATCH=FILE keeps the watch JSON here (how tests/fixtures/mail/watch.json
# was made for tests/web/watches_page.js).
[ -n "${KEEP_WATCH:-}" ] && printf '%s\n' "$body" >"$KEEP_WATCH"
v1=$(series '<v1-0@example.org>#v1' .id)
check "$(series '<v1-0@example.org>#v1' .state)" = queued "v1 queued: $(series '<v1-0@example.org>#v1' .reason)"
check "$(series '<v1-0@example.org>#v1' .base_how)" = ref-head "v1's zero base-commit is not in g"
check "$(series '<v1-0@example.org>#v1' .base_used)" = "g@$(commit_of "$REPO" 2)" "v1 on the head"
check "$(series '<v1-0@example.org>#v2' .state)" = queued "v2 queued: $(series '<v1-0@example.org>#v2' .reason)"
check "$(series '<v1-0@example.org>#v2' .base_how)" = base-commit "v2 on its base-commit"
check "$(series '<v1-0@example.org>#v2' .base_used)" = "g@$C1" "v2 on c1"
check "$(series '<v1-0@example.org>#v2' .previous_id)" = "$v1" "v2 follows v1"
check "$(series '<lonely-1@example.org>#v1' .state)" = timed_out "the lonely series timed out"
check "$(series '<lonely-1@example.org>#v1' .reason)" = "timed out without patch 2" "its reason"
E1=$(series '<v1-0@example.org>#v1' .experiment_id)
E2=$(series '<v1-0@example.org>#v2' .experiment_id)
exp=$(api GET "/api/v1/experiments/$E1" "$ADM")
check "$(jq -c '[.variants[] | [.name, (.patches | length)]]' <<<"$exp")" = \
	'[["base",0],["p1",1],["p1-2",2],["p1-3",3]]' "v1: one variant per prefix of its 3 patches"
check "$(sql "SELECT k.name FROM experiments e JOIN api_keys k ON k.id = e.submitter_key_id WHERE e.id = $E1")" \
	= alice "v1 runs as the watch's submit key"
check "$(sql "SELECT count(*) FROM experiments")" -eq 2 "two experiments, nothing else"
check "$(sql "SELECT count(*) FROM jobs WHERE experiment_id = $E2")" -eq 3 "v2: base, p1, p1-2, 1 run each"

# Nothing new: nothing stored twice.
n=$(sql "SELECT count(*) FROM watch_messages")
t0=$(date +%s)
api POST "/api/v1/watches/$W/poll" "$ADM" >/dev/null
wait_polled "$t0"
check "$(sql "SELECT count(*) FROM watch_messages")" -eq "$n" "a second poll adds nothing"
check "$(sql "SELECT count(*) FROM experiments")" -eq 2 "and queues nothing"
list=$(api GET /api/v1/watches "$ADM")
check "$(jq ".watches[0].nmessages" <<<"$list")" -eq "$n" "list counts the messages"
api GET /api/v1/watches "$SUB" >/dev/null
expect_status 403 "the list is the admins'"

# The CLI shows the same: the list, and the versions side by side.
P() { "$TOP/build/perflab" --server "$BASE" --key "$ADM" "$@"; }
o=$(P watches list) || fail "perflab watches list"
grep -qE "^ +$W  blk +g +1 +[0-9]+ +$n  dfn:block/" <<<"$o" || fail "watches list: $o"
o=$(P watches show "$W") || fail "perflab watches show"
grep -qE "^ +$(series '<v1-0@example.org>#v2' .id)  v2<-v1 +2  queued +$E2 .* base-commit +\[PATCH v2 0/2\]" <<<"$o" ||
	fail "v2 beside v1: $o"
grep -q "<sym-1@example.org>: a symlink or submodule mode" <<<"$o" || fail "refusals: $o"
P watches show nope >/dev/null 2>&1 && fail "a bad id is refused"
[ "$(P watches show "$W" --json | jq -r .name)" = blk ] || fail "show --json"
echo ok
