# A public-inbox archive for the list-watch tests (sourced after lib.sh).
#
#   make_inbox           a v2 inbox at $INBOX for list@example.org
#                        (public-inbox-init, no spam check); PI_CONFIG
#                        and HOME under $TMP
#   deliver FILE...      each mail into it as the list would, dated now
#                        (a watch's lei window counts from the poll)
#   start_sink           the SMTP sink (SMTP_URL, RX)
#   lab_with_runner SPEC keys, git base "g", a simulated runner (RUNNER)
#   MAIL                 tests/fixtures/mail

for t in lei public-inbox-init public-inbox-mda; do
	command -v $t >/dev/null || skip "$t is not installed (make deps)"
done
MAIL=$TOP/tests/fixtures/mail
INBOX=$TMP/inbox
# lei's socket and state of the test's own lei q, never another test's
export PI_CONFIG=$TMP/pi.config HOME=$TMP/home XDG_RUNTIME_DIR=$TMP/run \
	XDG_CONFIG_HOME=$TMP/home/.config XDG_DATA_HOME=$TMP/home/.data \
	XDG_CACHE_HOME=$TMP/home/.cache
mkdir -p -m 700 "$XDG_RUNTIME_DIR"

make_inbox() {
	mkdir -p "$HOME"
	public-inbox-init -V2 test "$INBOX" http://example.org/test list@example.org \
		>/dev/null 2>&1 || fail "public-inbox-init"
	git config -f "$PI_CONFIG" publicinbox.test.spamcheck none
	git config -f "$PI_CONFIG" publicinboxmda.spamcheck none
}

deliver() {
	local f
	for f in "$@"; do
		sed "s/^Date: .*/Date: $(date -R)/" "$f" | tr -d '\r' |
			ORIGINAL_RECIPIENT=list@example.org public-inbox-mda --no-precheck \
				2>>"$TMP/mda.log" || fail "public-inbox-mda $f"
	done
}

# start_sink: the SMTP sink of tests/stats/receivers.py in $TMP/rx (its
# mails mail.N, envelope first); SMTP_URL is its URL, RX its pid.
start_sink() {
	command -v python3 >/dev/null || skip "python3 is not installed"
	mkdir -p "$TMP/rx"
	python3 "$TOP/tests/stats/receivers.py" "$TMP/rx" &
	RX=$!
	for _ in $(seq 100); do [ -s "$TMP/rx/smtp.port" ] && break; sleep 0.05; done
	[ -s "$TMP/rx/smtp.port" ] || { kill $RX; fail "SMTP sink did not start"; }
	SMTP_URL="smtp://127.0.0.1:$(cat "$TMP/rx/smtp.port")"
}

# lab_with_runner SPEC_JSON: after start_daemon, keys ADM (admin) and
# SUB ("lists", submit), a git base "g" of REPO (c0, c1) and a simulated
# runner "sim" of label "lab" answering by SPEC_JSON (tests/lib/fake_runner.py,
# $TMP/spec.json, which the test may rewrite); RUNNER its pid.
lab_with_runner() {
	ADM=$(make_key admin root)
	SUB=$(make_key submit lists)
	local r1
	r1=$(make_key runner r1)
	REPO=$TMP/repo
	make_repo "$REPO" 1
	api POST /api/v1/bases "$ADM" "$(jq -n --arg u "$REPO" '{name:"g", git:$u}')" >/dev/null
	expect_status 201 "git base"
	echo "$1" >"$TMP/spec.json"
	python3 "$TOP/tests/lib/fake_runner.py" "$BASE" "$r1" sim lab --spec "$TMP/spec.json" \
		>"$TMP/runner.log" 2>&1 &
	RUNNER=$!
	wait_host "$ADM" sim
}
