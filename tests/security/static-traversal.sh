#!/usr/bin/env bash
# Description: static files never leave --web: "..", percent-encoded dots
# and slashes, backslashes, NUL, absolute paths and symlinks pointing out
# of the directory all get 404 and never the outside file's bytes.
. "$(dirname "$0")/../api/lib.sh"
mkdir -p "$TMP/web/sub" "$TMP/outside"
echo '<html>perflab</html>' >"$TMP/web/index.html"
echo 'inside' >"$TMP/web/sub/page.txt"
echo 'TOPSECRET-1' >"$TMP/secret"
echo 'TOPSECRET-2' >"$TMP/outside/file.txt"
ln -s ../secret "$TMP/web/link-file"
ln -s ../outside "$TMP/web/link-dir"
ln -s /etc/passwd "$TMP/web/passwd"
start_daemon --web "$TMP/web"

get() { curl -s --path-as-is -o "$TMP/ans" -w '%{http_code}' "$BASE$1"; }
check "$(get /)" = 200 "index"
check "$(get /sub/page.txt)" = 200 "a file in a subdirectory"
n=0
for p in /../secret /sub/../../secret /%2e%2e/secret /%2E%2E/secret /.%2e/secret \
	/%2e%2e%2fsecret /..%2fsecret /sub/..%2f..%2fsecret /sub%2f..%2f..%2fsecret \
	'/..\secret' '/%5c..%5csecret' /....//secret '/..;/secret' /%252e%252e/secret \
	/link-file /link-dir/file.txt /passwd /sub/../link-file //etc/passwd \
	/%2fetc%2fpasswd /etc/passwd /sub/%2e%2e/%2e%2e/secret \
	"/$(printf 'a/%.0s' $(seq 600))x" /%c0%ae%c0%ae/secret /%ef%bc%8e%ef%bc%8e/secret; do
	code=$(get "$p")
	n=$((n + 1))
	grep -q TOPSECRET "$TMP/ans" && fail "$p served a file outside --web"
	grep -q 'root:' "$TMP/ans" && fail "$p served /etc/passwd"
	case $code in 400|404) ;; *) fail "$p: HTTP $code (expected 404)" ;; esac
done
# libmicrohttpd decodes %00 and the path ends there: at worst a file
# inside --web is served.
for p in /index.html%00.txt /%00 /sub/%00/../../secret; do
	code=$(get "$p")
	grep -q TOPSECRET "$TMP/ans" && fail "NUL in the path escaped --web"
	[ "$code" = 404 ] || grep -q perflab "$TMP/ans" || fail "NUL in the path: HTTP $code"
done
# Traversal sent raw, without curl normalising anything.
exec 3<>"/dev/tcp/127.0.0.1/${BASE##*:}"
printf 'GET /../../secret HTTP/1.0\r\n\r\n' >&3
ans=$(cat <&3)
exec 3<&-
grep -q TOPSECRET <<<"$ans" && fail "raw request line escaped --web"
head -1 <<<"$ans" | grep -q ' 404 \| 400 ' || fail "raw traversal: $(head -1 <<<"$ans")"
curl -sf "$BASE/healthz" >/dev/null || fail "perflabd died"
echo "$n traversal attempts refused"
echo "ok"
