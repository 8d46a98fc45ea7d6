#!/usr/bin/env bash
# Description: the image store's API. A test-only host gets no job whose
# image is missing (204, the job waits); a host of role any is told to
# build it, with the key computed here independently (sha256sum of the
# key text of docs/contracts.md section 6); only that host may upload it;
# a wrong digest is refused (422) and nothing is stored; the upload and a
# download round trip byte for byte, with ranges (206, 416); the same
# image again is 200, another image under the key 409; a second
# experiment's claim on the test host carries the stored image; /metrics
# reports the store's size; GC removes an old image no one needs and
# keeps one a queued job needs.
. "$(dirname "$0")/lib.sh"
start_daemon
SUB=$(make_key submit alice)
ADM=$(make_key admin root)
R1=$(make_key runner r1)
R2=$(make_key runner r2)
sha() { sha256sum | cut -c1-64; }
H=$(printf 'tinyconfig\nCONFIG_X=y\n' | sha)	# a config hash
reg() { # reg KEY NAME ROLE
	api POST /api/v1/hosts/register "$1" "{\"name\":\"$2\",\"labels\":[\"qemu-icount\"],\"backend\":\"qemu-icount\",\"role\":\"$3\",\"configs\":{\"qemu\":\"$H\"}}" >/dev/null
	expect_status 200 "register $2 ($3)"
}
reg "$R1" h1 any
reg "$R2" h2 test
api POST /api/v1/hosts/register "$R2" "{\"name\":\"h2\",\"backend\":\"qemu-icount\",\"role\":\"tester\"}" >/dev/null
expect_status 400 "unknown role"

exp1=$(api POST /api/v1/experiments "$SUB" '{"runs":1,"max_runs":1,"variants":[{"name":"base"}]}' | jq -r .id)
expect_status 201 "experiment 1"
# The key of a base build (no patches, no domain line), computed here.
ps=$(printf '' | sha)
K=$(printf 'perflab-kbuild-v2\nbase=linux-6.1\npatches=%s\nconfig=%s\n' "$ps" "$H" | sha)

claim "$R2" h2 0 >/dev/null
expect_status 204 "the test host gets no job whose image is missing"
check "$(sql "SELECT state || ' ' || message FROM jobs WHERE experiment_id = $exp1")" = "queued waiting for image ${K:0:12}" "the job says what it waits for"

job=$(claim "$R1" h1 0)
expect_status 200 "the any host claims"
check "$(jq -r .image.state <<<"$job")" = build "told to build"
check "$(jq -r .image.key <<<"$job")" = "$K" "the key is the runner's (computed independently)"
check "$(jq -r .trust_domain <<<"$job")" = base "a base build's trust domain"
lease1=$(jq -r .lease <<<"$job")
job1=$(jq -r .job_id <<<"$job")

# An image: four files, the digest of their manifest computed here.
mkdir "$TMP/img"
head -c 300000 /dev/urandom >"$TMP/img/bzImage"
printf 'ffffffff81000000 T _text\n' >"$TMP/img/System.map"
printf 'CONFIG_X=y\n' >"$TMP/img/config"
printf 'release=6.1.0-t\nbuild_id=ab12\nseconds=12.5\n' >"$TMP/img/meta"
digest() { # digest KEY DIR
	{ printf 'perflab-image-v1\nkey=%s\n' "$1"
	  for f in bzImage System.map config meta; do
		printf '%s %s %s\n' "$f" "$(stat -c %s "$2/$f")" "$(sha <"$2/$f")"
	  done; } | sha
}
D=$(digest "$K" "$TMP/img")
put() { # put KEY KEY_ID DIGEST DIR -> status
	curl -s -o "$TMP/body" -w '%{http_code}' -X PUT -H "Authorization: Bearer $2" \
		-F "bzImage=@$4/bzImage" -F "System.map=@$4/System.map" \
		-F "config=@$4/config" -F "meta=@$4/meta" \
		"$BASE/api/v1/images/$1?sha256=$3"
}
images_on_disk() { find "$TMP/images" -mindepth 1 -not -path "$TMP/images/.tmp" | wc -l; }

check "$(put "$K" "$R2" "$D" "$TMP/img")" = 409 "a host that was not told to build it cannot upload"
bad=$(printf x | sha)
check "$(put "$K" "$R1" "$bad" "$TMP/img")" = 422 "digest mismatch refused"
grep -q "$D" "$TMP/body" || fail "the refusal names the computed digest: $(cat "$TMP/body")"
check "$(sql 'SELECT count(*) FROM images')" -eq 0 "nothing recorded"
check "$(images_on_disk)" -eq 0 "nothing on disk"
curl -s -o "$TMP/body" -w '%{http_code}' -X PUT -H "Authorization: Bearer $R1" \
	-F "bzImage=@$TMP/img/bzImage" -F "meta=@$TMP/img/meta" \
	"$BASE/api/v1/images/$K?sha256=$D" >"$TMP/status"
expect_status 422 "missing parts"
check "$(put "$K" "$R1" "$D" "$TMP/img")" = 201 "the builder uploads"
check "$(jq -r .sha256 "$TMP/body")" = "$D" "stored digest"
check "$(put "$K" "$R1" "$D" "$TMP/img")" = 200 "the same image again"
check "$(jq -r .existing "$TMP/body")" = true "existing"
cp -r "$TMP/img" "$TMP/img2"
echo other >>"$TMP/img2/bzImage"
check "$(put "$K" "$ADM" "$(digest "$K" "$TMP/img2")" "$TMP/img2")" = 409 "no key is overwritten, not even by an admin"
cmp "$TMP/images/$K/bzImage" "$TMP/img/bzImage" || fail "stored bzImage changed"

# Manifest and downloads.
m=$(api GET "/api/v1/images/$K" "$R2")
expect_status 200 "manifest"
check "$(jq -r .sha256 <<<"$m")" = "$D" "manifest digest"
check "$(jq -r '.files[0].name + " " + (.files[0].size|tostring)' <<<"$m")" = "bzImage 300000" "manifest files"
check "$(jq -r .meta.release <<<"$m")" = 6.1.0-t "meta parsed"
check "$(jq -r .host <<<"$m")" = h1 "uploaded by h1"
code=$(curl -s -D "$TMP/hdr" -o "$TMP/dl" -w '%{http_code}' -H "Authorization: Bearer $R2" "$BASE/api/v1/images/$K/bzImage")
check "$code" = 200 "download"
cmp "$TMP/dl" "$TMP/img/bzImage" || fail "downloaded bzImage differs"
grep -qi "^x-perflab-sha256: $(sha <"$TMP/img/bzImage")" "$TMP/hdr" || fail "no sha256 header"
code=$(curl -s -o "$TMP/part" -w '%{http_code}' -H "Range: bytes=1000-" -H "Authorization: Bearer $R2" "$BASE/api/v1/images/$K/bzImage")
check "$code" = 206 "resumed download"
cmp "$TMP/part" <(tail -c +1001 "$TMP/img/bzImage") || fail "range content"
code=$(curl -s -o /dev/null -w '%{http_code}' -H "Range: bytes=300000-" -H "Authorization: Bearer $R2" "$BASE/api/v1/images/$K/bzImage")
check "$code" = 416 "range past the end"
code=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $R2" "$BASE/api/v1/images/$K/vmlinux")
check "$code" = 404 "unknown file"
api GET "/api/v1/images/$K" "" >/dev/null
expect_status 401 "no key, no image"

# The test host: a second experiment of the same variant comes with it.
exp2=$(api POST /api/v1/experiments "$SUB" '{"runs":1,"max_runs":1,"variants":[{"name":"base"}]}' | jq -r .id)
job=$(claim "$R2" h2 0)
expect_status 200 "the test host claims once the image is stored"
check "$(jq -r .experiment_id <<<"$job")" = "$exp2" "experiment 2"
check "$(jq -r .image.state <<<"$job")" = ready "ready"
check "$(jq -r .image.sha256 <<<"$job")" = "$D" "with the digest"
check "$(jq -r '.image.files | length' <<<"$job")" -eq 4 "and the files"

metrics=$(curl -s "$BASE/metrics")
grep -qx "perflab_image_store_bytes $(jq -r .size <<<"$m")" <<<"$metrics" || fail "metrics: $(grep image <<<"$metrics")"
grep -qx 'perflab_image_downloads_total{file="bzImage"} 2' <<<"$metrics" || fail "download count: $(grep image_down <<<"$metrics")"

# GC: an old image no experiment needs goes; K stays however old while a
# queued job (never claimed) needs it.
api POST "/api/v1/jobs/$job1/result" "$R1" "$(sample_result "$lease1")" >/dev/null
expect_status 201 "result of experiment 1"
api POST "/api/v1/jobs/$(jq -r .job_id <<<"$job")/result" "$R2" "$(sample_result "$(jq -r .lease <<<"$job")")" >/dev/null
expect_status 201 "result of experiment 2"
for _ in $(seq 50); do
	[ "$(sql "SELECT count(*) FROM experiments WHERE state = 'done'")" = 2 ] && break
	sleep 0.1
done
check "$(sql "SELECT count(*) FROM experiments WHERE state = 'done'")" -eq 2 "experiments 1 and 2 done"
exp3=$(api POST /api/v1/experiments "$SUB" '{"runs":1,"max_runs":1,"variants":[{"name":"base"}]}' | jq -r .id)
check "$(sql "SELECT state FROM jobs WHERE experiment_id = $exp3")" = queued "experiment 3 queued"
check "$(api GET "/api/v1/images/$K" "$R2" | jq -r .needed)" = true "the queued job needs K"
K2=$(printf 'unneeded\n' | sha)
check "$(put "$K2" "$ADM" "$(digest "$K2" "$TMP/img")" "$TMP/img")" = 201 "admin uploads a prebuilt image"
stop_daemon
sql "UPDATE images SET last_used_at = 1000"
start_daemon
gc=$(api POST "/api/v1/images/gc?max_age=3600" "$ADM")
expect_status 200 "gc"
check "$(jq -r .removed <<<"$gc")" -eq 1 "one removed"
check "$(sql 'SELECT key FROM images')" = "$K" "the image a queued job needs is kept"
[ ! -e "$TMP/images/$K2" ] || fail "the removed image's files are still there"
[ -f "$TMP/images/$K/bzImage" ] || fail "the kept image's files are gone"
api DELETE "/api/v1/images/$K" "$ADM" >/dev/null
expect_status 409 "delete refuses a needed image"
echo ok
