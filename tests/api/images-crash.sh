#!/usr/bin/env bash
# Description: a daemon killed (kill -9) in the middle of an image upload
# leaves no image: after the restart the key is unknown (404, no row, no
# files, the upload's temporary files removed), the host may upload it
# again, and a download of the complete image then matches byte for byte.
. "$(dirname "$0")/lib.sh"
start_daemon
SUB=$(make_key submit alice)
R1=$(make_key runner r1)
sha() { sha256sum | cut -c1-64; }
H=$(printf 'tinyconfig\n' | sha)
api POST /api/v1/hosts/register "$R1" "{\"name\":\"h1\",\"labels\":[\"qemu-icount\"],\"backend\":\"qemu-icount\",\"role\":\"any\",\"configs\":{\"qemu\":\"$H\"}}" >/dev/null
expect_status 200 register
api POST /api/v1/experiments "$SUB" '{"runs":1,"max_runs":1,"variants":[{"name":"base"}]}' >/dev/null
job=$(claim "$R1" h1 0)
K=$(jq -r .image.key <<<"$job")
check "$(jq -r .image.state <<<"$job")" = build "told to build"

mkdir "$TMP/img"
head -c 8000000 /dev/urandom >"$TMP/img/bzImage"
printf 'ffffffff81000000 T _text\n' >"$TMP/img/System.map"
printf 'CONFIG_X=y\n' >"$TMP/img/config"
printf 'release=6.1.0-t\n' >"$TMP/img/meta"
D=$({ printf 'perflab-image-v1\nkey=%s\n' "$K"
      for f in bzImage System.map config meta; do
	printf '%s %s %s\n' "$f" "$(stat -c %s "$TMP/img/$f")" "$(sha <"$TMP/img/$f")"
      done; } | sha)
put() {
	curl -s -o "$TMP/body" -w '%{http_code}' -X PUT -H "Authorization: Bearer $R1" \
		"$@" -F "bzImage=@$TMP/img/bzImage" -F "System.map=@$TMP/img/System.map" \
		-F "config=@$TMP/img/config" -F "meta=@$TMP/img/meta" \
		"$BASE/api/v1/images/$K?sha256=$D"
}
# 8 MB at 1 MB/s: killed after about 2 s, with part of bzImage written.
put --limit-rate 1M >/dev/null &
cpid=$!
for _ in $(seq 50); do
	n=$(find "$TMP/images/.tmp" -type f -size +100k 2>/dev/null | wc -l)
	[ "$n" -gt 0 ] && break
	sleep 0.1
done
[ "$n" -gt 0 ] || fail "the upload never reached the daemon's temporary files"
kill -9 "$DAEMON_PID"
wait "$DAEMON_PID" 2>/dev/null
DAEMON_PID=
wait "$cpid" 2>/dev/null
check "$(sql 'SELECT count(*) FROM images')" -eq 0 "no row after the crash"
[ ! -e "$TMP/images/$K" ] || fail "a half image is in place"

start_daemon
api GET "/api/v1/images/$K" "$R1" >/dev/null
expect_status 404 "no image after the restart"
check "$(find "$TMP/images/.tmp" -mindepth 1 | wc -l)" -eq 0 "temporary files removed at start"
# The job's lease survived (60 s): the host still builds the key.
check "$(put)" = 201 "uploaded again"
curl -s -o "$TMP/dl" -H "Authorization: Bearer $R1" "$BASE/api/v1/images/$K/bzImage"
cmp "$TMP/dl" "$TMP/img/bzImage" || fail "download differs"
echo ok
