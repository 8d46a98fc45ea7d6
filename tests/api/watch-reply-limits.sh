#!/usr/bin/env bash
# Description: the per-author rate limit of the lab's thread replies.
# Five single-patch series by one author are posted to a watched
# public-inbox (a watch that answers every verdict, mail_no_change); a
# simulated runner measures them all. Exactly 4 replies reach the SMTP
# sink (tests/stats/receivers.py), each to the author and the list; the
# fifth series' reply is withheld with the reason "rate limit: 4 replies
# to lou@example.org in 24 hours already". A naive implementation mails
# all five.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/gitlib.sh"
. "$(dirname "$0")/inboxlib.sh"
make_inbox
start_sink
trap 'kill $RUNNER $RX 2>/dev/null; stop_daemon; cleanup' EXIT
start_daemon --smtp-url "$SMTP_URL" --smtp-from perflab@lab.test
lab_with_runner '{"default": 100000}'
for i in 1 2 3 4 5; do
	sed "s/lonely-1/rl-$i/; s/^Subject: .*/Subject: [PATCH] nvme: change $i/;
	     s/half\.c/rl$i.c/g" "$MAIL/15-lonely.eml" >"$TMP/rl$i.eml"
	deliver "$TMP/rl$i.eml"
done
api POST /api/v1/watches "$ADM" "$(jq -n --arg i "$INBOX" '{name:"nvme", inbox:$i,
	query:"dfn:drivers/nvme/", base:"g", submit_key:"lists", label:"lab", runs:3,
	poll_seconds:3600, list:"list@example.org", mail_no_change:true}')" >/dev/null
expect_status 201 "watch"
W=$(jq -r .id "$TMP/body")
for _ in $(seq 900); do
	n=$(api GET "/api/v1/watches/$W" "$ADM" | jq '[.series[] | select(.reply != null)] | length')
	[ "$n" -eq 5 ] && break
	sleep 0.1
done
body=$(api GET "/api/v1/watches/$W" "$ADM")
check "$n" -eq 5 "every series got its reply planned: $(jq -c '[.series[] | {key, state, reason, reply}]' <<<"$body")"
for _ in $(seq 100); do [ -e "$TMP/rx/mail.4" ] && break; sleep 0.1; done
sleep 2
check "$(ls "$TMP/rx" | grep -c '^mail\.[0-9]*$')" -eq 4 "four replies mailed"
check "$(jq '[.series[] | select(.reply.status == "sent")] | length' <<<"$(api GET "/api/v1/watches/$W" "$ADM")")" \
	-eq 4 "four sent"
check "$(jq -r '[.series[] | select(.reply.status == "withheld")][0].reply.note' <<<"$body")" = \
	"rate limit: 4 replies to lou@example.org in 24 hours already" "the fifth withheld"
for m in "$TMP"/rx/mail.[0-9]*; do
	grep -q 'RCPT TO:<lou@example.org>' "$m" && grep -q 'RCPT TO:<list@example.org>' "$m" ||
		fail "recipients of $m: $(sed '/^\r\{0,1\}$/q' "$m")"
done
echo ok
