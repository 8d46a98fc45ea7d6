#!/usr/bin/env bash
# Description: perflab takes server and key from flags over
# PERFLAB_URL/PERFLAB_KEY over ~/.config/perflab/config, checked against a
# real perflabd (a wrong value at a higher level must win and fail).
. "$(dirname "$0")/lib.sh"
. "$top/tests/cli/patch.sh"
cli_need_daemon
cli_start_daemon
key=$(cli_key submit cli-config)
[ -n "$key" ] || fail "no key"
dead=http://127.0.0.1:$(cli_free_port)
unset PERFLAB_CONFIG	# use $HOME/.config/perflab/config ($HOME is $TMP)
mkdir -p "$HOME/.config/perflab"
cfg=$HOME/.config/perflab/config

# nothing configured: default server, no key
expect_rc 0 "$PERFLAB" config
grep -q "from default" "$TMP/out" || fail "default: $(cat "$TMP/out")"

# the config file alone is enough
printf '# test\nserver=%s\nkey=%s\n' "$URL" "$key" >"$cfg"
expect_rc 0 "$PERFLAB" hosts
expect_rc 0 "$PERFLAB" config
grep -q "$URL (from file)" "$TMP/out" || fail "file: $(cat "$TMP/out")"

# env beats the file: a bad env key fails, a dead env URL fails
expect_rc 2 env PERFLAB_KEY=plk_wrong_key "$PERFLAB" hosts
grep -q "HTTP 401" "$TMP/err" || fail "env key not used: $(cat "$TMP/err")"
expect_rc 2 env PERFLAB_URL="$dead" "$PERFLAB" hosts
grep -q "${dead#http://}" "$TMP/err" || fail "env url not used: $(cat "$TMP/err")"

# flags beat env
expect_rc 0 env PERFLAB_KEY=plk_wrong_key PERFLAB_URL="$dead" \
	"$PERFLAB" --server "$URL" --key "$key" hosts
expect_rc 2 env PERFLAB_KEY="$key" "$PERFLAB" --key=plk_wrong_key hosts
grep -q "HTTP 401" "$TMP/err" || fail "--key= not used"

# env alone, no file
rm -f "$cfg"
expect_rc 0 env PERFLAB_URL="$URL" PERFLAB_KEY="$key" "$PERFLAB" hosts

# a malformed config file is an error naming the line
printf 'server=%s\nthis line is wrong\n' "$URL" >"$cfg"
expect_rc 2 "$PERFLAB" hosts
grep -q "config:2:" "$TMP/err" || fail "malformed: $(cat "$TMP/err")"
echo "ok"
