#!/usr/bin/env bash
# Description: build tasks. A builder (role builder) with nothing to run
# gets the oldest key a waiting job needs, as a build task with its own
# lease (heartbeat, 409 on a stale lease); a patched variant's task
# carries the submitter's trust domain (computed here from the key's
# stored hash) and its key has the domain line; the builder's upload lets
# the test host run the job; a patched build waits while another host
# builds its base (then the shared caches are warm); a task that fails
# with `build` fails the variant that waited for it; a builder is never handed a test job; with
# --image-builders builders a host of role any builds nothing.
. "$(dirname "$0")/lib.sh"
start_daemon
SUB=$(make_key submit alice)
RB=$(make_key runner rb)
RT=$(make_key runner rt)
RB2=$(make_key runner rb2)
sha() { sha256sum | cut -c1-64; }
H=$(printf 'tinyconfig\nCONFIG_Y=y\n' | sha)
reg() {
	api POST /api/v1/hosts/register "$1" "{\"name\":\"$2\",\"labels\":[\"qemu-icount\"],\"backend\":\"qemu-icount\",\"role\":\"$3\",\"configs\":{\"qemu\":\"$H\"}}" >/dev/null
	expect_status 200 "register $2"
}
reg "$RB" builder1 builder
reg "$RT" tester1 test
reg "$RB2" builder2 builder
sample_patch >"$TMP/p.patch"
exp=$(api POST "/api/v1/patches?runs=1&max_runs=1&label=qemu-icount" "$SUB" "@$TMP/p.patch" | jq -r .id)
expect_status 201 "submit"
claim "$RT" tester1 0 >/dev/null
expect_status 204 "nothing built yet"

t1=$(claim "$RB" builder1 0)
expect_status 200 "the builder gets a task"
check "$(jq -r .kind <<<"$t1")" = build "a build task"
check "$(jq -r .variant.name <<<"$t1")" = base "the oldest waiting variant first"
check "$(jq -r .trust_domain <<<"$t1")" = base "base domain"
Kb=$(jq -r .image.key <<<"$t1")
claim "$RB2" builder2 0 >/dev/null
expect_status 204 "a patched build waits while another host builds its base"
t2=$(claim "$RB" builder1 0)
expect_status 200 "the next task"
check "$(jq -r .variant.name <<<"$t2")" = patched "then the patched variant"
# The trust domain and key, computed here from what the daemon stores.
hash_hex=$(sql "SELECT lower(hex(hash)) FROM api_keys WHERE name = 'alice'")
dom=$(printf 'perflab-trust-domain-v1\n%s' "$hash_hex" | sha | cut -c1-16)
check "$(jq -r .trust_domain <<<"$t2")" = "$dom" "the submitter's trust domain"
psha=$(sha <"$TMP/p.patch")
ps=$(printf '%s\n' "$psha" | sha)
Kp=$(printf 'perflab-kbuild-v2\nbase=linux-6.1\npatches=%s\nconfig=%s\ndomain=%s\n' "$ps" "$H" "$dom" | sha)
check "$(jq -r .image.key <<<"$t2")" = "$Kp" "the patched key has the domain"
check "$(jq -r '.variant.patches | length' <<<"$t2")" -eq 1 "the task has the patch"
claim "$RB" builder1 0 >/dev/null
expect_status 204 "no third task: every missing key is being built"

id1=$(jq -r .build_id <<<"$t1") l1=$(jq -r .lease <<<"$t1")
api POST "/api/v1/builds/$id1/heartbeat" "$RB" "{\"lease\":\"$l1\",\"phase\":\"build\"}" >/dev/null
expect_status 200 "task heartbeat"
api POST "/api/v1/builds/$id1/heartbeat" "$RB" '{"lease":"nope"}' >/dev/null
expect_status 409 "stale task lease"
api POST "/api/v1/builds/$id1/heartbeat" "$RT" "{\"lease\":\"$l1\"}" >/dev/null
expect_status 409 "another host's task"

mkdir "$TMP/img"
head -c 5000 /dev/urandom >"$TMP/img/bzImage"
for f in System.map config meta; do echo "$f" >"$TMP/img/$f"; done
D=$({ printf 'perflab-image-v1\nkey=%s\n' "$Kb"
      for f in bzImage System.map config meta; do
	printf '%s %s %s\n' "$f" "$(stat -c %s "$TMP/img/$f")" "$(sha <"$TMP/img/$f")"
      done; } | sha)
code=$(curl -s -o "$TMP/body" -w '%{http_code}' -X PUT -H "Authorization: Bearer $RB" \
	-F "bzImage=@$TMP/img/bzImage" -F "System.map=@$TMP/img/System.map" \
	-F "config=@$TMP/img/config" -F "meta=@$TMP/img/meta" \
	"$BASE/api/v1/images/$Kb?sha256=$D")
check "$code" = 201 "the builder uploads the base image"
check "$(sql "SELECT state FROM image_builds WHERE id = $id1")" = done "the task is done"

job=$(claim "$RT" tester1 0)
expect_status 200 "the test host runs the base job now"
check "$(jq -r .variant.name <<<"$job") $(jq -r .image.state <<<"$job")" = "base ready" "with the stored image"
api POST "/api/v1/jobs/$(jq -r .job_id <<<"$job")/result" "$RT" "$(sample_result "$(jq -r .lease <<<"$job")")" >/dev/null
expect_status 201 "result"

id2=$(jq -r .build_id <<<"$t2") l2=$(jq -r .lease <<<"$t2")
api POST "/api/v1/builds/$id2/fail" "$RB" "{\"lease\":\"$l2\",\"reason\":\"build\",\"log\":\"error: blk-mq-tag.c:10: expected ';'\"}" >/dev/null
expect_status 200 "the patched build fails"
e=$(api GET "/api/v1/experiments/$exp" "$SUB")
check "$(jq -r '.variants[] | select(.name == "patched") | .state + " " + .failure_reason' <<<"$e")" = "failed build" "the waiting variant failed with the build's reason"
jq -r '.variants[] | select(.name == "patched") | .failure_log' <<<"$e" | grep -q "expected ';'" || fail "the build log reached the variant"
claim "$RT" tester1 0 >/dev/null
expect_status 204 "nothing left for the test host"

# A stored image and a queued job: the builder still runs no test job.
exp3=$(api POST /api/v1/experiments "$SUB" '{"runs":1,"max_runs":1,"variants":[{"name":"base"}]}' | jq -r .id)
claim "$RB" builder1 0 >/dev/null
expect_status 204 "a builder gets no test job"
job=$(claim "$RT" tester1 0)
check "$(jq -r .image.state <<<"$job")" = ready "the tester does"
api POST "/api/v1/experiments/$exp3/cancel" "$SUB" >/dev/null
expect_status 200 "cancel"

# Policy: only builders build.
stop_daemon
start_daemon --image-builders builders
RA=$(make_key runner ra)
reg "$RA" any1 any
sample_patch "another subject" >"$TMP/q.patch"
api POST "/api/v1/patches?runs=1&max_runs=1&label=qemu-icount" "$SUB" "@$TMP/q.patch" >/dev/null
job=$(claim "$RA" any1 0)
check "$(jq -r .variant.name <<<"$job") $(jq -r .image.state <<<"$job")" = "base ready" "the stored base image serves a new experiment"
api POST "/api/v1/jobs/$(jq -r .job_id <<<"$job")/result" "$RA" "$(sample_result "$(jq -r .lease <<<"$job")")" >/dev/null
claim "$RA" any1 0 >/dev/null
expect_status 204 "under --image-builders builders an any host builds nothing"
echo ok
