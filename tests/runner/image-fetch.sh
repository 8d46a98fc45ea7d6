#!/usr/bin/env bash
# Description: a test host (perflab-runner --role test) runs a variant
# whose image is in perflabd's store without building it: the claim names
# the image, the runner's own key for the job (computed from its configs)
# is the daemon's, every file is downloaded into its kernel cache and
# checked; a partial download left corrupted on disk is resumed (Range),
# found wrong by its sha256, fetched again from the start and then
# matches the store byte for byte; no build tree is ever made. (The image
# is a stand-in, so the boot that follows fails: that is not what is
# tested here.)
. "$(dirname "$0")/../api/lib.sh"
R=$TOP/build/perflab-runner
[ -x "$R" ] || skip "build/perflab-runner not built"
start_daemon
SUB=$(make_key submit alice)
ADM=$(make_key admin root)
RK=$(make_key runner r1)
kc=$TMP/kcache
mkdir -p "$TMP/configs" "$kc"
printf 'CONFIG_SMP=y\n' >"$TMP/configs/qemu.config"
"$R" --server "$BASE" --key "$RK" --backend qemu-icount --name t1 \
	--label qemu-icount --role test --workdir "$TMP/w" --kcache "$kc" \
	--configs "$TMP/configs" --claim-wait 2 --once --boot-timeout 5 \
	>"$TMP/runner.log" 2>&1 &
rpid=$!
cleanup_runner() { kill "$rpid" 2>/dev/null; wait "$rpid" 2>/dev/null; }
trap 'cleanup_runner; cleanup' EXIT
wait_host "$SUB" t1
sha() { sha256sum | cut -c1-64; }
H=$({ printf 'tinyconfig\n'; cat "$TMP/configs/qemu.config"; } | sha)
check "$(sql "SELECT h.role || ' ' || c.hash FROM hosts h JOIN host_configs c ON c.host_id = h.id WHERE h.name = 't1' AND c.name = 'qemu'")" = "test $H" "the runner registered its role and config hash"
K=$(printf 'perflab-kbuild-v2\nbase=linux-6.1\npatches=%s\nconfig=%s\n' "$(printf '' | sha)" "$H" | sha)

mkdir "$TMP/img"
head -c 400000 /dev/urandom >"$TMP/img/bzImage"
printf 'ffffffff81000000 T _text\n' >"$TMP/img/System.map"
cp "$TMP/configs/qemu.config" "$TMP/img/config"
printf 'release=6.1.0-store\nbuild_id=ab12\nseconds=1.0\n' >"$TMP/img/meta"
D=$({ printf 'perflab-image-v1\nkey=%s\n' "$K"
      for f in bzImage System.map config meta; do
	printf '%s %s %s\n' "$f" "$(stat -c %s "$TMP/img/$f")" "$(sha <"$TMP/img/$f")"
      done; } | sha)
code=$(curl -s -o "$TMP/body" -w '%{http_code}' -X PUT -H "Authorization: Bearer $ADM" \
	-F "bzImage=@$TMP/img/bzImage" -F "System.map=@$TMP/img/System.map" \
	-F "config=@$TMP/img/config" -F "meta=@$TMP/img/meta" \
	"$BASE/api/v1/images/$K?sha256=$D")
check "$code" = 201 "image stored"
# An earlier download that stopped, its bytes corrupted on disk.
mkdir -p "$kc/images/$K.dl"
head -c 100000 /dev/urandom >"$kc/images/$K.dl/bzImage"

api POST /api/v1/experiments "$SUB" '{"runs":1,"max_runs":1,"variants":[{"name":"base"}]}' >/dev/null
expect_status 201 "experiment"
for _ in $(seq 300); do
	kill -0 "$rpid" 2>/dev/null || break
	sleep 0.2
done
cleanup_runner
cat "$TMP/runner.log"
grep -q "image ${K:0:12} downloaded (.* 1 resumed, 1 fetched again, sha256 checked)" "$TMP/runner.log" ||
	fail "no resumed, refetched and checked download in the runner's log"
grep -q "sha256 .*, not $(sha <"$TMP/img/bzImage"); fetching it again" "$TMP/runner.log" ||
	fail "the corrupted file was not named"
for f in bzImage System.map config meta; do
	cmp "$kc/images/$K/$f" "$TMP/img/$f" || fail "$f differs from the store's"
done
[ ! -e "$kc/images/$K.dl" ] || fail "the download directory is left"
[ ! -e "$kc/trees" ] || fail "the test host made a build tree"
check "$(sql "SELECT count(*) FROM image_builds")" -eq 0 "no build asked of anyone"
check "$(sql "SELECT state FROM jobs")" != done "(the stand-in image does not boot)"
echo ok
