#!/usr/bin/env bash
# Description: outbound mail of bisection reports through the daemon
# (issue 27 finding 3), with a simulated runner and the SMTP sink of
# tests/stats/receivers.py (its envelopes are the reference). A submit
# key's bisection (c0..c6, culprit c4 by dev@example.org) mails the list
# only: no RCPT of the author. An identical second bisection ends at the
# same culprit and sends no second mail (its alert is raised). An admin's
# bisection of the same range on another base (the same repository)
# mails the author and the list. Fails on the old code, which mailed the
# author for the submit key and mailed again for the repeat.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/gitlib.sh"
command -v python3 >/dev/null || skip "python3 is not installed"
mkdir -p "$TMP/rx"
python3 "$TOP/tests/stats/receivers.py" "$TMP/rx" &
RX=$!
for _ in $(seq 100); do [ -s "$TMP/rx/smtp.port" ] && break; sleep 0.05; done
[ -s "$TMP/rx/smtp.port" ] || { kill $RX; fail "SMTP sink did not start"; }
git_lab 6 --smtp-url "smtp://127.0.0.1:$(cat "$TMP/rx/smtp.port")" \
	--smtp-from perflab@lab.test --smtp-to list@lab.test
api POST /api/v1/bases "$ADM" "$(jq -n --arg u "$REPO" '{name:"g2", git:$u}')" >/dev/null
expect_status 201 "git base g2"
jq -n --args '{default: 100000, values: ([$ARGS.positional[] | {(.): 90000}] | add),
	broken: []}' "${C[4]}" "${C[5]}" "${C[6]}" >"$TMP/spec.json"
EXTRA_PIDS=$RX
fake_runner

bis() { jq -n --arg g "${C[0]}" --arg b "${C[6]}" --arg base "$1" \
	'{base:$base, good:$g, bad:$b, label:"mail", runs:5, bench:{runtime:6, warmup:1}}'; }
run_bisection() { # run_bisection KEY BASE: its id once done
	local id s
	id=$(api POST /api/v1/bisections "$1" "$(bis "$2")" | jq -r .id)
	expect_status 201 "bisection on $2"
	wait_bisection "$id"
	s=$(api GET /api/v1/bisections/$id "$SUB" | jq -r .state)
	check "$s" = done "bisection $id done"
	check "$(api GET /api/v1/bisections/$id "$SUB" | jq -r .culprit.commit)" = "${C[4]}" "culprit c4"
	echo "$id"
}
# wait_mails N: until the sink holds N mails (or 20 s), then 2 s more
# for any that should not come
wait_mails() {
	for _ in $(seq 200); do [ -e "$TMP/rx/mail.$1" ] && break; sleep 0.1; done
	[ -e "$TMP/rx/mail.$1" ] || fail "mail $1 not received: $(ls "$TMP/rx")"
	sleep 2
	check "$(ls "$TMP/rx" | grep -c '^mail\.[0-9]*$')" -eq "$1" "mails received"
}
envelope() { sed '/^$/q' "$TMP/rx/mail.$1"; }

B1=$(run_bisection "$SUB" g)
wait_mails 1
envelope 1 | grep -q 'RCPT TO:<list@lab.test>' || fail "the list is not mailed: $(envelope 1)"
envelope 1 | grep -q 'dev@example.org' && fail "a submit key's bisection mailed the author: $(envelope 1)"

B2=$(run_bisection "$SUB" g)
check "$(api GET /api/v1/bisections/$B2 "$SUB" | jq -r '.report_alert_id != null')" = true "the repeat raised its alert"
wait_mails 1

B3=$(run_bisection "$ADM" g2)
wait_mails 2
envelope 2 | grep -q 'RCPT TO:<dev@example.org>' || fail "an admin's bisection did not mail the author: $(envelope 2)"
envelope 2 | grep -q 'RCPT TO:<list@lab.test>' || fail "the list is not mailed: $(envelope 2)"
echo PASS
