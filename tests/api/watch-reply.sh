#!/usr/bin/env bash
# Description: the reply in a posted series' thread. A v1 (cover + 3
# patches) and a v2 (cover + 2) are posted to a public-inbox watched by
# perflabd; a simulated runner (tests/lib/fake_runner.py) answers every variant
# with patches 10 % slower. The SMTP sink of tests/stats/receivers.py
# (its envelopes and messages are the reference) receives exactly one
# reply per version: RCPT the author and the watch's list, In-Reply-To
# and References the version's cover letter, "Re: " its subject,
# X-Perflab-Reply set, the regression with its CI for each patch on top
# of the ones before (one variant per prefix), the base it used, the
# Reported-by/Closes lines, and for v2 the line comparing it with v1; a
# series that does not apply gets a short note with git's message (the
# watch asks for it: mail_apply_note), and no experiment.
# The lab's own reply, delivered back into the archive, is read as
# "own": no series, no experiment, no further mail. A watch that mails
# regressions only withholds the reply of a series whose verdict is "no
# change", with the reason.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/gitlib.sh"
. "$(dirname "$0")/inboxlib.sh"
make_inbox
# The lab's own archive of its replies (--reply-inbox).
public-inbox-init -V2 lab "$TMP/labinbox" http://lab.test/replies replies@lab.test \
	>/dev/null 2>&1 || fail "public-inbox-init of the lab's inbox"
start_sink
trap 'kill $RUNNER $RX 2>/dev/null; stop_daemon; lei daemon-kill 2>/dev/null; cleanup' EXIT
start_daemon --smtp-url "$SMTP_URL" \
	--smtp-from perflab@lab.test --smtp-to alerts@lab.test --public-url http://lab.test \
	--reply-inbox "$TMP/labinbox"
lab_with_runner '{"default": 100000, "patched": 0.9}'

deliver "$MAIL"/0[1-4]*.eml "$MAIL"/05-review.eml "$MAIL"/0[678]*.eml "$MAIL/16-noapply.eml"
body=$(api POST /api/v1/watches "$ADM" "$(jq -n --arg i "$INBOX" '{name:"blk", inbox:$i,
	query:"dfn:block/ OR dfn:README", base:"g", submit_key:"lists", label:"lab", runs:5,
	poll_seconds:3600, list:"list@example.org", mail_apply_note:true}')")
expect_status 201 "watch"
W=$(jq -r .id <<<"$body")
api POST /api/v1/watches "$ADM" "$(jq -n --arg i "$INBOX" '{name:"x", inbox:$i,
	query:"x", base:"g", submit_key:"lists", list:"a list"}')" >/dev/null
expect_status 400 "a list that is not an address"

# replies: the thread replies the sink holds (the lab's regression
# alerts to --smtp-to are mailed beside them, as for any experiment).
replies() { grep -l '^X-Perflab-Reply: ' "$TMP"/rx/mail.[0-9]* 2>/dev/null | wc -l; }
# wait_mails N: until the sink holds N replies (or 60 s), then 2 s more.
wait_mails() {
	for _ in $(seq 600); do [ "$(replies)" -ge "$1" ] && break; sleep 0.1; done
	[ "$(replies)" -ge "$1" ] || fail "reply $1 not received: $(ls "$TMP/rx"); $(api GET /api/v1/watches/$W "$ADM" | jq -c '.series[] | {key, state, reason, reply}')"
	sleep 2
	check "$(replies)" -eq "$1" "replies received"
}
wait_mails 3
# The series that does not apply: a short note (the watch asked), no experiment.
N=$(grep -l "^In-Reply-To: <noapply-1@example.org>" $(grep -l '^X-Perflab-Reply: ' "$TMP"/rx/mail.[0-9]*))
[ -n "$N" ] || fail "no note for the series that does not apply"
tr -d '\r' <"$N" | grep -q '^Subject: Re: \[PATCH\] readme: reword$' || fail "note subject"
tr -d '\r' <"$N" | grep -q "^It does not apply on g@$(commit_of "$REPO" 1 | cut -c1-12):$" || fail "note: $(cat "$N")"
tr -d '\r' <"$N" | grep -q '^  does not apply on .*patch failed: README:1' || fail "note reason: $(cat "$N")"
tr -d '\r' <"$N" | grep -q 'RCPT TO:<nat@example.org>' || fail "note to the author"
# the mail of a version: N where the message replies to its cover
mail_of() { grep -l "^In-Reply-To: $1" $(grep -l '^X-Perflab-Reply: ' "$TMP"/rx/mail.[0-9]*) | head -1; }
M1=$(mail_of '<v1-0@example.org>')
M2=$(mail_of '<v2-0@example.org>')
[ -n "$M1" ] && [ -n "$M2" ] && [ "$M1" != "$M2" ] || fail "one reply per version: $(grep -h In-Reply-To "$TMP"/rx/mail.*)"
for m in "$M1" "$M2"; do
	for r in 'RCPT TO:<ann@example.org>' 'RCPT TO:<list@example.org>' '^X-Perflab-Reply: 1'; do
		tr -d '\r' <"$m" | grep -q "$r" || fail "$r missing in $m: $(head -20 "$m")"
	done
	tr -d '\r' <"$m" | grep -q 'alerts@lab.test' && fail "the alert list is not a reply's recipient"
	tr -d '\r' <"$m" | grep -qE '^  patch 1      regression  -(9|10)\.[0-9]{2}% \[' ||
		fail "the verdict of patch 1: $(tr -d '\r' <"$m" | grep -A3 '^verdict')"
	tr -d '\r' <"$m" | grep -q '^| Reported-by: perflab <perflab@lab.test>' || fail "Reported-by"
	tr -d '\r' <"$m" | grep -q '^| Closes: http://lab.test/#/experiments/[0-9]*$' || fail "Closes"
done
tr -d '\r' <"$M1" | grep -q '^Subject: Re: \[PATCH 0/3\] block: skip tag clearing on the fast path$' || fail "v1 subject"
tr -d '\r' <"$M1" | grep -q '^References: <v1-0@example.org>' || fail "v1 References"
# KEEP_MAIL=FILE keeps v1's reply as the sink received it.
[ -n "${KEEP_MAIL:-}" ] && cp "$M1" "$KEEP_MAIL"
check "$(tr -d '\r' <"$M1" | grep -cE '^  patch(es 1-[23]| 1) +regression  -(9|10)\.[0-9]{2}% ')" -eq 3 \
	"v1: a verdict for each of its 3 patches on top of the ones before"
check "$(tr -d '\r' <"$M2" | grep -cE '^  patch(es 1-2| 1) +regression  ')" -eq 2 "v2: two"
tr -d '\r' <"$M2" | grep -q '^Subject: Re: \[PATCH v2 0/2\] block: skip tag clearing on the fast path$' || fail "v2 subject"
tr -d '\r' <"$M2" | grep -qE '^v2 against v1: v1 measured -(9|10)\.[0-9]*% \(regression\)' ||
	fail "v2 compared with v1: $(tr -d '\r' <"$M2" | sed -n '/^verdict/,/^$/p')"
tr -d '\r' <"$M1" | grep -q "^base: g@$(commit_of "$REPO" 1 | cut -c1-12) (the head of master: the series names no$" || fail "v1's base"
body=$(api GET "/api/v1/watches/$W" "$ADM")
check "$(jq '[.series[] | select(.reply.status == "sent")] | length' <<<"$body")" -eq 3 "both replies and the note sent"
check "$(jq '[.series[] | select(.experiment_id != null)] | length' <<<"$body")" -eq 2 "two experiments"
check "$(jq '[.series[] | select(.reply.archived)] | length' <<<"$body")" -eq 3 "all archived"
# lei finds the lab's answers in its own archive, by thread.
found=$(lei q --no-save --only "$TMP/labinbox" -f mboxrd 'tc:ann@example.org' 2>/dev/null |
	grep -c '^X-Perflab-Reply: 1')
check "$found" -eq 2 "lei q finds both replies in the lab's inbox"

# The lab's own reply comes back through the list: read, never answered.
sed '1,/^\r\{0,1\}$/d' "$M1" >"$TMP/own.eml"
deliver "$TMP/own.eml"
t0=$(date +%s)
api POST "/api/v1/watches/$W/poll" "$ADM" >/dev/null
expect_status 202 "poll"
for _ in $(seq 300); do
	body=$(api GET "/api/v1/watches/$W" "$ADM")
	[ "$(jq ".polled_at >= $t0 and (.poll_requested | not)" <<<"$body")" = true ] && break
	sleep 0.1
done
own=$(tr -d '\r' <"$M1" | sed -n 's/^Message-ID: //p')
check "$(jq -r --arg m "$own" '.log[] | select(.message_id == $m) | .kind' <<<"$body")" = own "the lab's reply is read as its own"
check "$(jq '.series | length' <<<"$body")" -eq 3 "no series from it"
sleep 2
check "$(replies)" -eq 3 "no mail answers it"

# Regressions only: a "no change" series gets no mail, says why.
echo '{"default": 100000}' >"$TMP/spec.json"
deliver "$MAIL/15-lonely.eml"
sed 's/lonely-1/lonely-2/; s/1\/2\] nvme: first half/2\/2] nvme: second half/; s/half\.c/half2.c/g' \
	"$MAIL/15-lonely.eml" | sed 's/^Subject: .*/Subject: [PATCH 2\/2] nvme: second half/' |
	sed 's/^Message-Id: .*/Message-Id: <lonely-2@example.org>\nIn-Reply-To: <lonely-1@example.org>\nReferences: <lonely-1@example.org>/' >"$TMP/l2.eml"
deliver "$TMP/l2.eml"
api POST /api/v1/watches "$ADM" "$(jq -n --arg i "$INBOX" '{name:"nvme", inbox:$i,
	query:"dfn:drivers/nvme/", base:"g", submit_key:"lists", label:"lab", runs:5,
	poll_seconds:3600, list:"list@example.org"}')" >/dev/null
expect_status 201 "second watch"
W2=$(jq -r .id "$TMP/body")
for _ in $(seq 600); do
	st=$(api GET "/api/v1/watches/$W2" "$ADM" | jq -r '.series[0].reply.status // empty')
	[ -n "$st" ] && break
	sleep 0.1
done
body=$(api GET "/api/v1/watches/$W2" "$ADM")
check "$st" = withheld "no-change reply withheld: $(jq -c .series <<<"$body")"
check "$(jq -r '.series[0].reply.note' <<<"$body")" = "verdict no change: the watch mails regressions only" "its reason"
sleep 2
check "$(replies)" -eq 3 "still three replies"
echo ok
