# A public-inbox archive for the list-watch tests (sourced after lib.sh).
#
#   make_inbox           a v2 inbox at $INBOX for list@example.org
#                        (public-inbox-init, no spam check); PI_CONFIG
#                        and HOME under $TMP
#   deliver FILE...      each mail into it as the list would, dated now
#                        (a watch's lei window counts from the poll)
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
